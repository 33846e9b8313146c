package table

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// CompactSyntax replaces the expressions the table evaluates per call with
// copies made now (eval.Compact), once the load is over and before its
// garbage is collected, so that they sit together instead of each
// pinning a page of the parsed file. It changes no value, range or
// message. Serving calls it; a table only validated is dropped at once
// and need not.
func (t *Table) CompactSyntax() {
	for _, tool := range t.Tools {
		compactArgs(tool.Args)
		compactSteps(tool.Steps)
		compactAction(tool.Action)
		for _, c := range tool.Content {
			for _, e := range []*hcl.Expression{&c.Text, &c.Data, &c.Blob, &c.MimeType, &c.URI, &c.Name, &c.Description} {
				*e = eval.Compact(*e)
			}
		}
		compactQuestions(tool.Questions)
	}
	for _, r := range t.Resources {
		compactSteps(r.Steps)
		compactAction(r.Action)
	}
	for _, tpl := range t.Templates {
		compactArgs(tpl.Args)
		compactSteps(tpl.Steps)
		compactAction(tpl.Action)
		tpl.Text, tpl.Blob = eval.Compact(tpl.Text), eval.Compact(tpl.Blob)
	}
	for _, p := range t.Prompts {
		compactArgs(p.Args)
		compactSteps(p.Steps)
		compactQuestions(p.Questions)
		for _, m := range p.Messages {
			m.Text, m.Data, m.URIExpr = eval.Compact(m.Text), eval.Compact(m.Data), eval.Compact(m.URIExpr)
		}
	}
}

func compactArgs(a *Args) {
	if a == nil {
		return
	}
	for _, v := range a.Validations {
		v.Condition, v.ErrorMessage = eval.Compact(v.Condition), eval.Compact(v.ErrorMessage)
	}
	for _, arg := range a.List {
		if arg.Complete != nil {
			compactAction(arg.Complete.Action)
		}
	}
}

func compactSteps(steps []*Step) {
	for _, s := range steps {
		compactAction(s.Action)
		if s.ForEach != nil {
			s.ForEach.Expr = eval.Compact(s.ForEach.Expr)
		}
	}
}

func compactQuestions(qs []*Question) {
	for _, q := range qs {
		q.Message, q.Prompt, q.SystemPrompt = eval.Compact(q.Message), eval.Compact(q.Prompt), eval.Compact(q.SystemPrompt)
	}
}

// compactAction compacts the expressions of an adapter's call, when its
// adapter knows how (adapter.SyntaxCompacter).
func compactAction(a adapter.Action) {
	if c, ok := a.(adapter.SyntaxCompacter); ok {
		c.CompactSyntax()
	}
}
