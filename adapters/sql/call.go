package sqladapter

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

func compileCall(c *adapter.CallBlock) (*Action, hcl.Diagnostics) {
	s := c.Scope
	act := &Action{Owner: c.Owner, Range: c.DeclRange, MaxRows: DefaultMaxRows, ReadOnly: true}
	dialect := SQLite
	backendName, backendRO := "", true
	if b, ok := c.Backend.(*Backend); ok {
		act.Backend = b
		act.MaxRows, act.ReadOnly = b.MaxRows, b.ReadOnly
		b.noteToolTimeout(c.Timeout)
		dialect, backendName, backendRO = b.Driver, b.Name, b.ReadOnly
	}

	content, diags := c.Body.Content(CallSchema)
	a := content.Attributes
	n, d := check.Int(s, a["max_rows"], int64(act.MaxRows), 1)
	diags = append(diags, d...)
	act.MaxRows = int(n)

	ro, known, d := check.Bool(s, a["read_only"], act.ReadOnly)
	diags = append(diags, d...)
	checkAsRO := act.ReadOnly // the statement is checked as the call means it
	if known && !ro && backendRO {
		diags = append(diags, check.Error("Write call on read-only backend",
			fmt.Sprintf("The backend %q is read-only, so a call cannot set read_only = false. A call may only tighten its backend: set read_only = false on the backend as well to allow writes.", backendName),
			a["read_only"].Expr.Range()))
		checkAsRO = false // reported once, above, not again at the statement
	} else if known {
		act.ReadOnly, checkAsRO = ro, ro
	}

	if attr := a["query"]; attr != nil {
		act.Query, d = compileQueryAttr(s, attr, dialect, checkAsRO)
		diags = append(diags, d...)
	}
	act.summary = act.summarize()
	return act, diags
}

// compileQueryAttr compiles the query attribute and type-checks each bound
// parameter. A query that is not a template but a static string (file(),
// var.x) is compiled as plain text.
func compileQueryAttr(s *adapter.Scope, attr *hcl.Attribute, d Dialect, readOnly bool) (*Query, hcl.Diagnostics) {
	if !isTemplate(attr.Expr) && !refersToCall(s, attr.Expr) {
		v, known, diags := check.Static(s, attr, cty.String)
		if diags.HasErrors() {
			return nil, diags
		}
		if !known {
			return nil, append(diags, check.Error("Query not known at load time",
				"query must be known when the config is loaded, so that it can be checked. Write the SQL in the config or read it with file().",
				attr.Expr.Range()))
		}
		q, qd := CompileText(v.AsString(), attr.Expr.Range(), d, readOnly)
		if q != nil {
			q.Range = attr.Expr.Range()
		}
		return q, append(diags, qd...)
	}
	q, diags := CompileQuery(attr.Expr, d, readOnly, s.Files)
	if q == nil {
		return nil, diags
	}
	q.Range = attr.Expr.Range()
	for _, p := range q.Params {
		v, pd := s.CheckExpr(p, attr, cty.DynamicPseudoType)
		diags = append(diags, pd...)
		if !pd.HasErrors() && !check.IsPrimitive(v.Type()) {
			diags = append(diags, check.Error("Invalid SQL parameter",
				fmt.Sprintf("A bound parameter takes one string, number or bool; this value is %s. Bind each element separately, or pass JSON with jsonencode() and unpack it in SQL.", v.Type().FriendlyName()),
				p.Range()))
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return q, diags
}

func isTemplate(e hcl.Expression) bool {
	switch e.(type) {
	case *hclsyntax.TemplateExpr, *hclsyntax.LiteralValueExpr:
		return true
	}
	return false
}

// refersToCall reports whether e uses a value of the call: the arguments,
// or another root the scope adds (the answers of steps), which must then
// be bound as parameters like arguments.
func refersToCall(s *adapter.Scope, e hcl.Expression) bool {
	for _, tr := range e.Variables() {
		root := tr.RootName()
		if _, extra := s.Extra[root]; root == "args" || extra {
			return true
		}
	}
	return false
}
