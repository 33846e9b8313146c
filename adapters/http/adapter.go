// Package httpadapter compiles `backend "http"` blocks and `http "<backend>"
// { ... }` call blocks.
//
// A backend holds what every call to one API shares: the base URL, default
// headers, authentication, TLS settings, timeouts, retries and the response
// size limit. A call says what to send: method, path, query, headers and
// body. Each ${...} in the path is path-escaped and each query value
// query-escaped when the call runs, so an argument cannot change the shape of
// the URL.
//
// This package holds the load-time half: schemas, checks and the compiled
// [Backend] and [Action] values that the runtime uses.
package httpadapter

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Kind is the block type this adapter serves.
const Kind = "http"

// Adapter is the HTTP adapter. The zero value is ready to use.
type Adapter struct{}

// New returns the HTTP adapter.
func New() *Adapter { return &Adapter{} }

var _ adapter.Adapter = (*Adapter)(nil)

// Info describes the adapter.
func (*Adapter) Info() adapter.Info {
	return adapter.Info{
		Name:         Kind,
		Summary:      "Calls an HTTP API declared in a backend \"http\" block.",
		NeedsBackend: true,
		ResultEnv: []eval.EnvField{
			{Name: "status", Type: reflect.TypeFor[int]()},
			{Name: "headers", Type: reflect.TypeFor[map[string]string]()},
			{Name: "body", Type: eval.AnyType},
			{Name: "text", Type: reflect.TypeFor[string]()},
		},
	}
}

// BackendSchema is the body schema of a `backend "http"` block.
var BackendSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "base_url", Required: true},
		{Name: "headers"},
		{Name: "timeout"},
		{Name: "max_response_bytes"},
		{Name: "forward_headers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "retry"},
		{Type: "auth"},
		{Type: "tls"},
	},
}

var retrySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "attempts"},
		{Name: "min_wait"},
		{Name: "max_wait"},
		{Name: "on_status"},
		{Name: "methods"},
	},
}

var authSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "bearer"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "basic"},
		{Type: "api_key"},
		{Type: "oauth2"},
	},
}

var basicSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "username", Required: true},
		{Name: "password", Required: true},
	},
}

var apiKeySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "in"},
		{Name: "name", Required: true},
		{Name: "value", Required: true},
	},
}

var oauth2Schema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "token_url", Required: true},
		{Name: "client_id", Required: true},
		{Name: "client_secret", Required: true},
		{Name: "scopes"},
	},
}

var tlsSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "ca_file"},
		{Name: "cert_file"},
		{Name: "key_file"},
		{Name: "insecure_skip_verify"},
	},
}

// CallSchema is the body schema of an `http "<backend>" { ... }` block.
var CallSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "method"},
		{Name: "path"},
		{Name: "query"},
		{Name: "headers"},
		{Name: "body"},
		{Name: "form"},
		{Name: "raw_body"},
		{Name: "content_type"},
		{Name: "timeout"},
	},
}

// CompileBackend checks a `backend "http"` block.
func (*Adapter) CompileBackend(b *adapter.BackendBlock) (adapter.Backend, hcl.Diagnostics) {
	return compileBackend(b)
}

// CompileCall checks an `http "<backend>" { ... }` block.
func (*Adapter) CompileCall(c *adapter.CallBlock) (adapter.Action, hcl.Diagnostics) {
	return compileCall(c)
}
