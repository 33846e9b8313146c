package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/english"
)

// Tool is a `tool` block: an MCP tool, its arguments, the call it makes and
// how the answer becomes a result.
type Tool struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	Title       *hcl.Attribute `hcl:"title,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	Timeout     *hcl.Attribute `hcl:"timeout,optional"`
	// Scopes lists the auth scopes a caller's token needs (HTTP with an
	// auth block only).
	Scopes *hcl.Attribute `hcl:"scopes,optional"`
	// InputSchema is a JSON Schema given verbatim instead of arg blocks.
	InputSchema *hcl.Attribute `hcl:"input_schema,optional"`
	Icons       []*Icon        `hcl:"icon,block"`
	Annotations []*Annotations `hcl:"annotations,block"`
	Args        []*Arg         `hcl:"arg,block"`
	// ArgRefs is what the block reads of its arguments outside its arg
	// and validation blocks, recorded at load (nil in JSON syntax).
	ArgRefs     *Refs
	Validations []*Validation  `hcl:"validation,block"`
	HTTP        []*labeledCall `hcl:"http,block"`
	SQL         []*labeledCall `hcl:"sql,block"`
	Shell       []*shellCall   `hcl:"shell,block"`
	MCP         []*labeledCall `hcl:"mcp,block"`
	// Steps are calls made before Call, in order; their answers are
	// steps.<name> in Call, the result and the error rules.
	Steps []*Step `hcl:"step,block"`
	// Call is the one call block, set by Load; nil when there is none.
	Call   *Call
	Result []*Result    `hcl:"result,block"`
	Errors []*ErrorRule `hcl:"error,block"`
	// Content blocks give the answer of a tool without a call, in order:
	// text, images, audio, resource links and embedded resources.
	Content []*Content `hcl:"content,block"`
	// Elicit asks the user for input or confirmation before the call.
	Elicit []*Elicit `hcl:"elicit,block"`
	// Sample asks the client's model for a completion before the call.
	Sample []*Sample `hcl:"sample,block"`
	// Roots asks the client for its roots (MCP roots/list) before the call.
	Roots []*Roots `hcl:"roots,block"`
	Lint  []*Lint  `hcl:"lint,block"`
	// UI links the tool to an app and says who may call it (see app.go);
	// at most one.
	UI []*ToolUI `hcl:"ui,block"`
	// Task lets the tool run as a task (see task.go); at most one.
	Task      []*TaskBlock `hcl:"task,block"`
	DeclRange hcl.Range    `hcl:",def_range"`
}

// Roots is a `roots` block: a request for the client's roots.
type Roots struct {
	Key       *hcl.Attribute `hcl:"key,optional"`
	Round     *hcl.Attribute `hcl:"round,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// Sample is a `sample` block: a prompt sent to the client's language model
// (MCP sampling) before the call.
type Sample struct {
	Key          *hcl.Attribute `hcl:"key,optional"`
	Round        *hcl.Attribute `hcl:"round,optional"`
	Prompt       *hcl.Attribute `hcl:"prompt"`
	SystemPrompt *hcl.Attribute `hcl:"system_prompt,optional"`
	MaxTokens    *hcl.Attribute `hcl:"max_tokens,optional"`
	DeclRange    hcl.Range      `hcl:",def_range"`
}

// Elicit is an `elicit` block: a question to the user (MCP elicitation)
// asked before the call, with the JSON Schema of the answer form.
type Elicit struct {
	// Key names the question among a 2026-07-28 result's inputRequests.
	Key *hcl.Attribute `hcl:"key,optional"`
	// Round orders questions: round 2 is asked once round 1 is answered.
	Round           *hcl.Attribute `hcl:"round,optional"`
	Message         *hcl.Attribute `hcl:"message"`
	RequestedSchema *hcl.Attribute `hcl:"requested_schema"`
	DeclRange       hcl.Range      `hcl:",def_range"`
}

// Content is a `content "<kind>"` block of a tool: one piece of the
// answer, built from the arguments. Kinds: text, image, audio,
// resource_link and resource.
type Content struct {
	Kind        string         `hcl:"kind,label"`
	KindRange   hcl.Range      `hcl:"kind,label_range"`
	Text        *hcl.Attribute `hcl:"text,optional"`
	Data        *hcl.Attribute `hcl:"data,optional"`
	Blob        *hcl.Attribute `hcl:"blob,optional"`
	MimeType    *hcl.Attribute `hcl:"mime_type,optional"`
	URI         *hcl.Attribute `hcl:"uri,optional"`
	Name        *hcl.Attribute `hcl:"name,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	DeclRange   hcl.Range      `hcl:",def_range"`
}

type labeledCall struct {
	Backend      string    `hcl:"backend,label"`
	BackendRange hcl.Range `hcl:"backend,label_range"`
	Body         hcl.Body  `hcl:",remain"`
	DeclRange    hcl.Range `hcl:",def_range"`
	TypeRange    hcl.Range `hcl:",type_range"`
}

type shellCall struct {
	Body      hcl.Body  `hcl:",remain"`
	DeclRange hcl.Range `hcl:",def_range"`
	TypeRange hcl.Range `hcl:",type_range"`
}

// Call is one call block: which kind of backend runs it, which backend (by
// name, empty for a shell call without one) and its still undecoded body,
// which the adapter for Kind decodes with its own schema.
type Call struct {
	Kind         string
	Backend      string
	BackendRange hcl.Range
	Body         hcl.Body
	DeclRange    hcl.Range
	TypeRange    hcl.Range
}

// CallKinds lists the call block types of the language.
var CallKinds = []string{"http", "sql", "shell", "mcp"}

// allCalls returns every call block in source order. The language has four
// call kinds: `http "backend" {}`, `sql "backend" {}`, `shell {}` and
// `mcp "backend" {}`.
func allCalls(httpCalls, sqlCalls []*labeledCall, shellCalls []*shellCall, mcpCalls []*labeledCall) []*Call {
	var out []*Call
	for _, b := range mcpCalls {
		out = append(out, &Call{Kind: "mcp", Backend: b.Backend, BackendRange: b.BackendRange, Body: b.Body, DeclRange: b.DeclRange, TypeRange: b.TypeRange})
	}
	for _, b := range httpCalls {
		out = append(out, &Call{Kind: "http", Backend: b.Backend, BackendRange: b.BackendRange, Body: b.Body, DeclRange: b.DeclRange, TypeRange: b.TypeRange})
	}
	for _, b := range sqlCalls {
		out = append(out, &Call{Kind: "sql", Backend: b.Backend, BackendRange: b.BackendRange, Body: b.Body, DeclRange: b.DeclRange, TypeRange: b.TypeRange})
	}
	for _, b := range shellCalls {
		out = append(out, &Call{Kind: "shell", Body: b.Body, DeclRange: b.DeclRange, TypeRange: b.TypeRange})
	}
	sortByPos(out)
	return out
}

func sortByPos(calls []*Call) {
	for i := 1; i < len(calls); i++ {
		for j := i; j > 0 && calls[j].DeclRange.Start.Byte < calls[j-1].DeclRange.Start.Byte; j-- {
			calls[j], calls[j-1] = calls[j-1], calls[j]
		}
	}
}

// oneCall returns the first call block (nil when there is none) and reports
// any further call block in what (split says what to do instead), and with
// required set, a missing one.
func oneCall(all []*Call, what string, decl hcl.Range, required bool, hint, split string) (*Call, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if len(all) == 0 && required {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing call block",
			Detail:   fmt.Sprintf("%s needs one call block: http \"<backend>\" { ... }, sql \"<backend>\" { ... }, shell { ... } or mcp \"<backend>\" { ... }.%s", what, hint),
			Subject:  decl.Ptr(),
		})
	}
	for _, extra := range all[min(1, len(all)):] {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "More than one call block",
			Detail:   fmt.Sprintf("%s already calls %s at %s; each may make one call. %s", what, all[0].Kind, all[0].DeclRange, split),
			Subject:  extra.TypeRange.Ptr(),
			Context:  extra.DeclRange.Ptr(),
		})
	}
	if len(all) == 0 {
		return nil, diags
	}
	return all[0], diags
}

// single reports duplicates of a block that may appear at most once and
// returns the first, or nil.
func single[T any](blocks []*T, rangeOf func(*T) hcl.Range, kind, where string) (*T, hcl.Diagnostics) {
	if len(blocks) == 0 {
		return nil, nil
	}
	var diags hcl.Diagnostics
	first := rangeOf(blocks[0])
	for _, b := range blocks[1:] {
		r := rangeOf(b)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Duplicate %s block", kind),
			Detail:   fmt.Sprintf("%s already has %s block at %s; merge the two into one.", where, english.A(kind), first),
			Subject:  r.Ptr(),
		})
	}
	return blocks[0], diags
}
