package lang

import "github.com/hashicorp/hcl/v2"

// Resource is a `resource` block: content with a fixed URI, given as text,
// a base64 blob, a file, or produced by a call.
type Resource struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	URI         *hcl.Attribute `hcl:"uri"`
	Title       *hcl.Attribute `hcl:"title,optional"`
	DisplayName *hcl.Attribute `hcl:"name,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	MimeType    *hcl.Attribute `hcl:"mime_type,optional"`
	Size        *hcl.Attribute `hcl:"size,optional"`
	Text        *hcl.Attribute `hcl:"text,optional"`
	Blob        *hcl.Attribute `hcl:"blob,optional"`
	File        *hcl.Attribute `hcl:"file,optional"`
	Audience    *hcl.Attribute `hcl:"audience,optional"`
	Priority    *hcl.Attribute `hcl:"priority,optional"`
	// Scopes lists the auth scopes a caller's token needs (HTTP with an
	// auth block only).
	Scopes *hcl.Attribute `hcl:"scopes,optional"`
	// CacheScope overrides the server's cache_scope for this resource;
	// one that depends on the caller is always "private".
	CacheScope *hcl.Attribute `hcl:"cache_scope,optional"`
	Icons      []*Icon        `hcl:"icon,block"`
	HTTP       []*labeledCall `hcl:"http,block"`
	SQL        []*labeledCall `hcl:"sql,block"`
	Shell      []*shellCall   `hcl:"shell,block"`
	MCP        []*labeledCall `hcl:"mcp,block"`
	// Steps are calls made before Call, in order (see Tool.Steps).
	Steps []*Step `hcl:"step,block"`
	// Call is the one call block, set by Load; nil when there is none.
	Call      *Call
	Result    []*Result    `hcl:"result,block"`
	Errors    []*ErrorRule `hcl:"error,block"`
	Lint      []*Lint      `hcl:"lint,block"`
	DeclRange hcl.Range    `hcl:",def_range"`
}

// ResourceTemplate is a `resource_template` block: resources whose URIs
// match an RFC 6570 template; each template variable is an argument of the
// call (declared with an `arg` block, or a plain string when undeclared).
type ResourceTemplate struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	URITemplate *hcl.Attribute `hcl:"uri_template"`
	Title       *hcl.Attribute `hcl:"title,optional"`
	DisplayName *hcl.Attribute `hcl:"name,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	MimeType    *hcl.Attribute `hcl:"mime_type,optional"`
	Text        *hcl.Attribute `hcl:"text,optional"`
	Blob        *hcl.Attribute `hcl:"blob,optional"`
	Audience    *hcl.Attribute `hcl:"audience,optional"`
	Priority    *hcl.Attribute `hcl:"priority,optional"`
	// Scopes lists the auth scopes a caller's token needs (HTTP with an
	// auth block only).
	Scopes *hcl.Attribute `hcl:"scopes,optional"`
	// CacheScope is as for a resource.
	CacheScope *hcl.Attribute `hcl:"cache_scope,optional"`
	Icons      []*Icon        `hcl:"icon,block"`
	Args       []*Arg         `hcl:"arg,block"`
	// ArgRefs is what the block reads of its arguments outside its arg
	// and validation blocks, recorded at load (nil in JSON syntax).
	ArgRefs     *Refs
	Validations []*Validation  `hcl:"validation,block"`
	HTTP        []*labeledCall `hcl:"http,block"`
	SQL         []*labeledCall `hcl:"sql,block"`
	Shell       []*shellCall   `hcl:"shell,block"`
	MCP         []*labeledCall `hcl:"mcp,block"`
	// Steps are calls made before Call, in order (see Tool.Steps).
	Steps []*Step `hcl:"step,block"`
	// Call is the one call block, set by Load; nil when there is none.
	Call      *Call
	Result    []*Result    `hcl:"result,block"`
	Errors    []*ErrorRule `hcl:"error,block"`
	Lint      []*Lint      `hcl:"lint,block"`
	DeclRange hcl.Range    `hcl:",def_range"`
}
