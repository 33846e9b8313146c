package httpadapter

import (
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Param is one entry of query, form or headers written as an object: a
// static name and a value expression evaluated per call. Lists send the
// parameter once per element; null leaves it out.
type Param = check.Item

// Body kinds of a call.
const (
	BodyJSON = "body"
	BodyForm = "form"
	BodyRaw  = "raw_body"
)

// Action is a compiled `http "<backend>" { ... }` block.
type Action struct {
	// Owner names the enclosing block, e.g. `tool "search"`.
	Owner string
	Range hcl.Range
	// Backend is nil only when the call named no known backend (which is
	// itself reported).
	Backend *Backend
	Method  string
	// Path is the path template: literal parts and interpolations, each
	// interpolation path-escaped at call time. Empty means the base URL.
	Path []eval.Part
	// PathSource is Path for listings: "/books/{args.isbn}".
	PathSource string
	// Query, Form and Headers are written as objects; the *Expr variants
	// hold the whole expression when it was written otherwise (merge(...)).
	Query       []Param
	QueryExpr   hcl.Expression
	Form        []Param
	FormExpr    hcl.Expression
	Headers     []Param
	HeadersExpr hcl.Expression
	// BodyKind is BodyJSON, BodyForm, BodyRaw or "" for no body.
	BodyKind string
	// Body is sent as JSON; RawBody as text with ContentType.
	Body        hcl.Expression
	RawBody     hcl.Expression
	ContentType string
	// Timeout overrides the backend's; 0 keeps it.
	Timeout time.Duration

	// partSrc is the source text of each interpolation in Path, for
	// messages; empty for literal parts.
	partSrc []string
	// multiSegment marks the interpolations of Path that are a resource
	// template's reserved-expansion variable ({+path}): their values are
	// split at "/" and each piece checked and escaped as one segment.
	multiSegment []bool
	// queryNames, formNames and headerNames are the names QueryExpr,
	// FormExpr and HeadersExpr may produce, fixed at load time.
	queryNames, formNames, headerNames map[string]bool
	// summary names the call in traces and metrics (Summary).
	summary *adapter.CallSummary
}

var (
	_ adapter.Action         = (*Action)(nil)
	_ adapter.ReadOnlyAction = (*Action)(nil)
)

// ChangesNothing implements adapter.ReadOnlyAction: GET, HEAD and OPTIONS are
// safe methods, which change nothing on the server by HTTP's rules.
func (a *Action) ChangesNothing() bool {
	return a.Method == "GET" || a.Method == "HEAD" || a.Method == "OPTIONS"
}

// Describe returns the call's static settings.
func (a *Action) Describe() map[string]any {
	d := map[string]any{"kind": Kind, "method": a.Method, "path": a.PathSource}
	if a.Backend != nil {
		d["backend"] = a.Backend.Name
	}
	names := func(ps []Param, whole hcl.Expression) any {
		if whole != nil {
			return "computed"
		}
		out := make([]any, len(ps))
		for i, p := range ps {
			out[i] = p.Name
		}
		return out
	}
	if len(a.Query) > 0 || a.QueryExpr != nil {
		d["query"] = names(a.Query, a.QueryExpr)
	}
	if len(a.Headers) > 0 || a.HeadersExpr != nil {
		d["headers"] = names(a.Headers, a.HeadersExpr)
	}
	if a.BodyKind != "" {
		d["body"] = a.BodyKind
	}
	if a.ContentType != "" {
		d["content_type"] = a.ContentType
	}
	if a.Timeout > 0 {
		d["timeout"] = a.Timeout.String()
	}
	return d
}

var _ adapter.SyntaxCompacter = (*Action)(nil)

// CompactSyntax implements adapter.SyntaxCompacter.
func (a *Action) CompactSyntax() {
	for i := range a.Path {
		a.Path[i].Expr = eval.Compact(a.Path[i].Expr)
		a.Path[i].Literal = strings.Clone(a.Path[i].Literal)
	}
	for _, ps := range [][]Param{a.Query, a.Form, a.Headers} {
		for i := range ps {
			ps[i].Expr = eval.Compact(ps[i].Expr)
			ps[i].Name = strings.Clone(ps[i].Name)
		}
	}
	a.QueryExpr, a.FormExpr, a.HeadersExpr = eval.Compact(a.QueryExpr), eval.Compact(a.FormExpr), eval.Compact(a.HeadersExpr)
	a.Body, a.RawBody = eval.Compact(a.Body), eval.Compact(a.RawBody)
}
