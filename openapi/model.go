package openapi

// API is what the generator needs of a document, whatever its version:
// libopenapi's 2.0 and 3.x models are read into it by v2.go and v3.go.
type API struct {
	Version     string // "2.0", "3.0.3", "3.1.0", ...
	Title       string
	APIVersion  string // info.version
	Description string
	Servers     []string // URLs, server variables already substituted
	Schemes     []*SecurityScheme
	Security    []Requirement // the document's default
	Operations  []*Operation
	Notes       []string // said once, at the top of the file
	// Warnings are said at the top of the file and printed by the
	// command: malformed MCP extensions (mcpext.go).
	Warnings []string
	// TagDescriptions are the descriptions of the document's tags, by
	// name as written.
	TagDescriptions map[string]string
}

// Requirement is one alternative of a security requirement list: every
// scheme it names is needed together. An empty one means "no
// authentication" is acceptable.
type Requirement map[string][]string

// SecurityScheme is one entry of securitySchemes (3.x) or
// securityDefinitions (2.0).
type SecurityScheme struct {
	Name        string
	Type        string // apiKey, http, oauth2, openIdConnect, mutualTLS
	In          string // apiKey: header, query, cookie
	ParamName   string // apiKey: the header or query parameter
	Scheme      string // http: bearer, basic, digest, ...
	TokenURL    string // oauth2 client credentials flow, when present
	Flows       []string
	Description string
}

// Operation is one method of one path.
type Operation struct {
	ID          string // operationId as written, maybe empty
	Method      string // in capitals
	Path        string
	Summary     string
	Description string
	Tags        []string
	Deprecated  bool
	Params      []*Param
	Body        *Body
	Security    []Requirement // nil: the document's default
	HasSecurity bool          // Security was written on the operation
	Notes       []string
	MCP         MCPHints // what the document's MCP extensions say of it
}

// Param is one path, query, header or cookie parameter.
type Param struct {
	Name        string
	In          string
	Description string
	Required    bool
	Deprecated  bool
	Schema      *Schema
	// Join is the separator of a list value sent as one value (",", " ",
	// "|"), empty when each element is sent as a parameter of its own.
	Join string
	// Unsupported says why the parameter cannot be sent, if it cannot.
	Unsupported string
}

// Body is the request body of one media type.
type Body struct {
	MediaType   string
	Required    bool
	Description string
	Schema      *Schema
	Others      []string // the other media types offered
}

// Schema is the part of a JSON Schema an mcpdecl argument can express.
type Schema struct {
	Type        string // string, number, integer, boolean, array, object, or "" for any
	Nullable    bool
	Title       string
	Description string
	Format      string
	Pattern     string
	Enum        []any
	Default     any
	HasDefault  bool
	Minimum     *float64
	Maximum     *float64
	ExclMinimum *float64
	ExclMaximum *float64
	MultipleOf  *float64
	MinLength   *int64
	MaxLength   *int64
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool
	Items       *Schema
	Properties  []*Property
	Required    []string
	// OpenObject is set when an object takes fields it does not list
	// (additionalProperties true or a schema), Values when those have a
	// schema.
	OpenObject bool
	Values     *Schema
	ReadOnly   bool
	WriteOnly  bool
	Deprecated bool
	Notes      []string
	// Alts are the alternatives of a oneOf or anyOf (AltKind) of two or
	// more schemas. Type, Nullable and OpenObject then hold the loosest
	// reading an argument block can give, AltNote the comment saying
	// so, and AltType the type the schema itself declared; a tool's
	// input_schema lists the alternatives themselves (jsonschema.go).
	Alts     []*Schema
	AltNames []string // how the comments name them: the reference's last part, or the type
	AltKind  string
	AltType  string
	AltNote  string
}

// Property is one named field of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

func (s *Schema) isRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}
