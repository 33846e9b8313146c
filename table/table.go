package table

import (
	"reflect"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/fastschema"
)

// Table is a compiled configuration. It is immutable once Compile returns
// and safe for concurrent use.
type Table struct {
	Server    *Server
	Tools     []*Tool
	Resources []*Resource
	Templates []*Template
	Prompts   []*Prompt
	Backends  map[string]adapter.Backend
	Static    *eval.Static
	// Secrets are the texts of sensitive variables, longest first, which
	// the server replaces in its logs and in error messages.
	Secrets []string
	// Auth configures the token checks of a server served over HTTP (the
	// auth block); nil without one.
	Auth *auth.Config
	// Claims are the token claims expressions read as auth.claims.<name>.
	Claims []*Claim
	// Toolsets are the toolset blocks, in source order.
	Toolsets []*Toolset
	// Limits are the limit blocks, in source order.
	Limits []*Limit
	// Dynamic is the server block's dynamic: every endpoint shows the
	// meta-tools of the dynamic mode instead of its tools.
	Dynamic bool

	indexOnce sync.Once
	index     *index

	searchOnce sync.Once
	search     []searchEntry // see searchIndex
}

// Server is what the server says about itself.
type Server struct {
	Name, Version, Title, Description, Instructions, WebsiteURL string
	Icons                                                       []Icon
	// CacheScope is the cacheScope of cacheable 2026-07-28 results
	// (discover, lists, resources without their own): CachePublic or
	// CachePrivate.
	CacheScope string
}

// Icon is an icon of the server or of one of its items.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// Args is a compiled set of arguments: the JSON Schema clients see, the
// compiled validator, and the types expressions see.
type Args struct {
	List []*Arg
	// Schema is the JSON Schema document (2020-12) as JSON-ready values;
	// encoding it gives the same bytes every time (keys sorted).
	Schema map[string]any
	// Type is the cty object type of args in HCL expressions.
	Type cty.Type
	// Env is the Go type of args in expr-lang programs.
	Env         reflect.Type
	Validations []*Validation

	validatorOnce sync.Once
	validator     *jsonschema.Schema
	fast          *fastschema.Schema // answers for validator when it can
	validatorErr  error
}

// outputValidator compiles a tool's output schema on first use.
type outputValidator struct {
	once   sync.Once
	schema *jsonschema.Schema
	fast   *fastschema.Schema // answers for schema when it can
	err    error
}

// OutputValidator returns the compiled output schema, or nil when the tool
// declares none.
func (t *Tool) OutputValidator() (*jsonschema.Schema, error) {
	if t.OutputSchema == nil {
		return nil, nil
	}
	t.output.once.Do(func() {
		t.output.schema, t.output.fast, t.output.err = compileChecked("mcpdecl:output-schema.json", t.OutputSchema)
	})
	return t.output.schema, t.output.err
}

// ContentValidator returns the compiled requested schema of an elicit
// question, which an accepted answer's content must match; nil for other
// kinds.
func (q *Question) ContentValidator() (*jsonschema.Schema, error) {
	if q.Schema == nil {
		return nil, nil
	}
	q.content.once.Do(func() {
		q.content.schema, q.content.err = compileJSONSchema("mcpdecl:requested-schema.json", q.Schema)
	})
	return q.content.schema, q.content.err
}

// Validator returns the compiled JSON Schema of the arguments. It is
// compiled on first use: the compiler builds every schema from checked
// parts (patterns, formats and bounds are checked at load time), and
// compiling thousands of them up front doubled the cost of validation.
func (a *Args) Validator() (*jsonschema.Schema, error) {
	a.validatorOnce.Do(func() {
		a.validator, a.fast, a.validatorErr = compileChecked("mcpdecl:arguments.json", a.Schema)
	})
	return a.validator, a.validatorErr
}

// Validate checks arguments against the compiled schema: the fast checker
// accepts the valid ones it can, the library checks (and explains) the rest.
func (a *Args) Validate(v any) error {
	if a.fast != nil && a.fast.Accepts(v) {
		return nil
	}
	return a.validator.Validate(v)
}

// ValidateOutput checks structured content against the compiled output
// schema, as Args.Validate does.
func (t *Tool) ValidateOutput(v any) error {
	if t.output.fast != nil && t.output.fast.Accepts(v) {
		return nil
	}
	return t.output.schema.Validate(v)
}

// Arg is one compiled argument.
type Arg struct {
	Name        string
	Description string
	Required    bool
	// Default is the value used when the argument is absent (cty.NilVal
	// when there is none: the argument is then null).
	Default cty.Value
	// DefaultJSON is Default as a JSON value (numbers as int64 or
	// float64, or a json.Number when no float64 holds one as written),
	// computed once so calls need not convert it.
	DefaultJSON any
	Type        cty.Type
	Completions []string
	Enum        []string
	// Complete suggests values with a call (its args hold only "value",
	// the text typed so far); nil when there is none.
	Complete *CompleteCall
	// Sensitive keeps the value out of the server's logs and messages.
	Sensitive bool
	DeclRange hcl.Range
}

// CompleteCall is a compiled `complete` block.
type CompleteCall struct {
	Action adapter.Action
	Kind   string
	// Args is the argument set of the call: one string, value.
	Args *Args
}

// Validation is a condition over the arguments with its message.
type Validation struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	// Uses names the arguments the condition and message refer to;
	// UsesAll is set when they refer to args as a whole.
	Uses    []string
	UsesAll bool
}

// Tool is a compiled tool.
type Tool struct {
	Name, Title, Description string
	Access
	Args *Args
	// OutputSchema is declared with result.output_schema, or inferred
	// from a result.structured that builds an object literal.
	OutputSchema map[string]any
	// HeaderParams maps Mcp-Param-{Name} header names to the top-level
	// argument they mirror (properties of input_schema with x-mcp-header).
	HeaderParams map[string]string
	// OutputDeclared is set when OutputSchema was written in the
	// configuration; an inferred one holds by construction and is not
	// checked per call.
	OutputDeclared bool
	Annotations    map[string]any
	Icons          []Icon
	Timeout        time.Duration
	// Steps run before Action, in order, within the same deadline (see
	// Step); their answers are steps.<name> in Action, Answer and Content.
	Steps []*Step
	// Action runs the call; nil for a tool that answers from its result
	// block alone.
	Action adapter.Action
	Kind   string // adapter kind of Action, "" without one
	Answer
	// Content is the answer of a tool without a call, piece by piece.
	Content []*ContentItem
	// Questions are asked of the client before the call (elicitation,
	// sampling, roots), round by round.
	Questions []*Question
	// Task is set when the tool may or must run as a task.
	Task *TaskSpec
	// UI is the tool's ui block: its app and who may call it; nil without
	// one.
	UI        *ToolUI
	DeclRange hcl.Range

	output outputValidator
}

// Question is a compiled elicit, sample or roots block. Its expressions
// are HCL over the arguments.
type Question struct {
	// Kind is "elicit", "sample" or "roots".
	Kind string
	// Key names the question on the wire and in answers.<key>.
	Key   string
	Round int
	// elicit
	Message hcl.Expression
	Schema  map[string]any
	content outputValidator // Schema compiled, for checking answers
	// sample
	Prompt, SystemPrompt hcl.Expression
	MaxTokens            int
}

// ContentItem is one compiled content block; its expressions are HCL,
// evaluated with the tool's arguments. Absent ones are nil.
type ContentItem struct {
	Kind                                               string
	Text, Data, Blob, MimeType, URI, Name, Description hcl.Expression
}

// Answer is how a call's outcome becomes a result: error rules first, then
// the result mapping.
type Answer struct {
	Errors []*ErrorRule
	Result *ResultMap
	// Env is the Go type of the expr-lang environment of Errors and Result.
	Env reflect.Type
}

// ErrorRule is a compiled `error` block.
type ErrorRule struct {
	When    *eval.Program
	Message *eval.Template
}

// ResultMap is a compiled `result` block.
type ResultMap struct {
	Structured *eval.Program
	// Text is a program, or a template when the text holds {{ }} pieces.
	Text         *eval.Program
	TextTemplate *eval.Template
	MaxBytes     int
	// IsError makes the result an error result when it holds.
	IsError *eval.Program
	// MaxItems cuts lists in the structured value (a top-level list, or each
	// list-valued field of a top-level object) to this many items.
	MaxItems int
}

// Resource is a compiled resource with a fixed URI.
type Resource struct {
	URI, Name, Title, Description, MimeType string
	Access
	Size        int64
	Annotations map[string]any
	Icons       []Icon
	// Exactly one source of content: Text, Blob (base64), File or Action.
	Text, Blob, File string
	// Steps run before Action, in order (see Step).
	Steps  []*Step
	Action adapter.Action
	Kind   string
	Answer
	// App is set for the resource of an app block: its page is Text or
	// File, given App.Policy when read.
	App *App
	// CacheScope is the cacheScope of its resources/read result.
	CacheScope string
	DeclRange  hcl.Range
}

// Template is a compiled resource template.
type Template struct {
	URITemplate, Name, Title, Description, MimeType string
	Access
	Variables   []string
	Args        *Args
	Annotations map[string]any
	Icons       []Icon
	Text        hcl.Expression
	Blob        hcl.Expression
	// Steps run before Action (or before Text and Blob are evaluated),
	// in order (see Step).
	Steps  []*Step
	Action adapter.Action
	Kind   string
	Answer
	// CacheScope is as for a Resource.
	CacheScope string
	DeclRange  hcl.Range
}

// Prompt is a compiled prompt.
type Prompt struct {
	Name, Title, Description string
	Access
	Args     *Args
	Icons    []Icon
	Messages []*Message
	// Steps run before the messages are built, in order (see Step);
	// their answers are steps.<name> in the messages.
	Steps []*Step
	// Questions are asked of the client before the messages are built.
	Questions []*Question
	DeclRange hcl.Range
}

// Message is a compiled prompt message; its expressions are evaluated with
// the prompt's arguments.
type Message struct {
	Role string
	// Kind is "text", "image", "audio" or "resource".
	Kind     string
	Text     hcl.Expression
	Data     hcl.Expression
	MimeType string
	// URI is the embedded resource's URI; with no Text or Data, the
	// resource is read through the server's own resources. URIExpr is set
	// instead when the URI depends on the arguments.
	URI     string
	URIExpr hcl.Expression
}
