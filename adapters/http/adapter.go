// Package httpadapter compiles `backend "http"` blocks and `http "<backend>"
// { ... }` call blocks, and runs the calls.
//
// A backend holds what every call to one API shares: the base URL, default
// headers, authentication, TLS settings, timeouts, retries and the response
// size limit. A call says what to send: method, path, query, headers and
// body. Each ${...} in the path is path-escaped and each query value
// query-escaped when the call runs, so an argument cannot change the shape of
// the URL.
//
// # Load time
//
// adapter.go, backend.go and call.go check the blocks and produce [Backend]
// and [Action] values. They perform no I/O.
//
// # Run time
//
// Each backend owns one resty client (one connection pool), built by
// [Backend.Open] or by the first call: TLS files read, proxy from the
// environment, no cookie jar, redirects followed at most [MaxRedirects] times
// and only to the backend's own scheme and host, resty's own retries and
// debug log off.
//
// [Action.Invoke] builds the request from the arguments (request.go):
//   - the path: literal parts copied, each interpolation path-escaped as one
//     segment value; an empty value that would leave a segment empty, a
//     value holding "/" or "\" in any percent-encoding, and a segment that
//     would be "." or ".." once decoded, are refused. The URL must keep the
//     backend's scheme and host, and this is checked before sending;
//   - names of query parameters, form fields and headers are fixed at load
//     time (a computed map must have an object type);
//   - the query: values query-escaped, lists repeated (k=a&k=b), null left
//     out, in the order written; an api_key "in query" is added last;
//   - headers, later ones winning: the backend's (with static auth), the
//     forwarded inbound ones (only those listed, never hop-by-hop ones),
//     the body's Content-Type, the call's own. A value with CR, LF or another
//     control character is refused, never sent. An OAuth2 token is added
//     unless a forwarded or call header set Authorization;
//   - the body: JSON (a null body sends none), form-encoded, or raw text.
//
// Then it sends the request (invoke.go). The deadline (the tool's timeout,
// else the call's, else the backend's; the caller's if shorter) covers every
// attempt and every wait. Only the methods of retry.methods are retried, on transport
// errors that may pass (refused or closed connections, not TLS or DNS "no
// such host") and on the statuses of retry.on_status; the wait is jittered
// between min_wait and an exponentially growing cap at most max_wait, or
// what Retry-After asks (seconds or an HTTP date), and a wait that would end
// past the deadline is not started: the call answers with what it has. An
// OAuth2 token the API refuses with 401 is dropped and the call made once
// more with a new one.
//
// Answers larger than max_response_bytes (after decompression) are refused
// with a CallError, not cut: a cut JSON document cannot be decoded, and a
// silently shortened answer could mislead the model. Answers are described
// by their Content-Type (answer.go): JSON is decoded with integers as int
// (expr-lang's integer type) and every other number as json.Number (the
// digits the API wrote); text as a string; anything else as Media. Failures to get an answer are *adapter.CallError values whose
// messages say what happened and whether retrying may help, and never hold
// a URL, a header or a credential (errors.go).
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
			{Name: "headers", Type: reflect.TypeFor[map[string]string](), LowerKeys: true},
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
		{Type: "token_exchange"},
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

var tokenExchangeSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "token_url", Required: true},
		{Name: "client_id", Required: true},
		{Name: "client_secret", Required: true},
		{Name: "audience"},
		{Name: "resource"},
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

// BackendBlocks are the bodies of the blocks inside a backend "http"
// block, by their path below it ("auth.oauth2"): what editors and the JSON
// Schema of the JSON syntax offer there (package langschema).
var BackendBlocks = map[string]*hcl.BodySchema{
	"retry":                     retrySchema,
	"auth":                      authSchema,
	"auth." + AuthBasic:         basicSchema,
	"auth." + AuthAPIKey:        apiKeySchema,
	"auth." + AuthOAuth2:        oauth2Schema,
	"auth." + AuthTokenExchange: tokenExchangeSchema,
	"tls":                       tlsSchema,
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
