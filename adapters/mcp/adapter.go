// Package mcpadapter compiles `backend "mcp"` blocks and `mcp "backend"
// { ... }` call blocks: tools of other MCP servers called as backends, so
// that one mcpdecl fronts several servers under its own OAuth, scopes and
// audit.
//
// A backend reaches its server over stdio (command: a program started on
// the first call or when serving opens the backends, kept running,
// started again when it has died, stopped when the backend closes, that
// is on reload and shutdown) or over Streamable HTTP (url, with headers
// and a bearer token of its own, or OAuth 2 client credentials through
// adapters/internal/tokenclient, shared with the http adapter). A call names one remote tool and builds
// its arguments with HCL expressions, as an HTTP call builds its body.
//
// The client side of the protocol is the official Go SDK's
// (github.com/modelcontextprotocol/go-sdk): mcpdecl's own mcp package is
// a server only (it has no client, no stdio process handling, no
// Streamable HTTP client with its SSE streams and session resumption),
// and the SDK follows the protocol's revisions as they come, both eras
// included, which a second client written here would have to chase.
//
// Every call carries, in its _meta, the list of mcpdecl instances it has
// passed through (mcp.MetaHops) with this process's id appended; a call
// that arrives already listing this process, or listing MaxHops
// instances, is refused before anything is sent, so two configurations
// that front each other cannot call round in circles.
//
// Compiling does no I/O beyond looking the program up; Open starts the
// process or connects, Invoke calls the tool, and `mcpdecl check` lists
// the remote tools to check each call's tool and arguments against.
package mcpadapter

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Kind is the block type this adapter serves.
const Kind = "mcp"

// Adapter is the mcp adapter. The zero value is ready to use.
type Adapter struct{}

// New returns the mcp adapter.
func New() *Adapter { return &Adapter{} }

var _ adapter.Adapter = (*Adapter)(nil)

// Info describes the adapter. After a call, programs see the remote
// result: content (its blocks, as JSON objects), structured_content (its
// structuredContent, or nil), text (its text blocks joined by newlines)
// and is_error (its isError).
func (*Adapter) Info() adapter.Info {
	return adapter.Info{
		Name:         Kind,
		Summary:      "Calls a tool of another MCP server, over stdio or Streamable HTTP.",
		NeedsBackend: true,
		ResultEnv: []eval.EnvField{
			{Name: "content", Type: reflect.TypeFor[[]any]()},
			{Name: "structured_content", Type: eval.AnyType},
			{Name: "text", Type: reflect.TypeFor[string]()},
			{Name: "is_error", Type: reflect.TypeFor[bool]()},
		},
	}
}

// BackendSchema is the body schema of a `backend "mcp"` block.
var BackendSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"},
		{Name: "env"},
		{Name: "dir"},
		{Name: "path"},
		{Name: "url"},
		{Name: "headers"},
		{Name: "timeout"},
		{Name: "max_hops"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "auth"}},
}

var authSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "bearer"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "oauth2"}},
}

var oauth2Schema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "token_url", Required: true},
		{Name: "client_id", Required: true},
		{Name: "client_secret", Required: true},
		{Name: "scopes"},
		{Name: "resource"},
	},
}

// BackendBlocks are the bodies of the blocks inside a backend "mcp"
// block, by their path below it: what editors and the JSON Schema of the
// JSON syntax offer there (package langschema).
var BackendBlocks = map[string]*hcl.BodySchema{"auth": authSchema, "auth.oauth2": oauth2Schema}

// CallSchema is the body schema of an `mcp "backend" { ... }` block.
var CallSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "tool", Required: true},
		{Name: "arguments"},
		{Name: "timeout"},
	},
}

// CompileBackend checks a `backend "mcp"` block.
func (*Adapter) CompileBackend(b *adapter.BackendBlock) (adapter.Backend, hcl.Diagnostics) {
	return compileBackend(b)
}

// CompileCall checks an `mcp "backend" { ... }` block.
func (*Adapter) CompileCall(c *adapter.CallBlock) (adapter.Action, hcl.Diagnostics) {
	return compileCall(c)
}
