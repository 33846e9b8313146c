package lint

import (
	"github.com/expr-lang/expr/ast"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// uses are the references to one root (args) that lang recorded from the
// syntax, with those lint adds from the compiled expr-lang programs.
type uses struct{ *lang.Refs }

func newUses() *uses { return &uses{lang.NewRefs()} }

// usesFrom starts from a copy of what Load recorded.
func usesFrom(r *lang.Refs) *uses {
	u := newUses()
	u.Merge(r)
	return u
}

// addProgram records the arguments an expr-lang program reads: args.x and
// args['x'] name one; args alone (toJSON(args)) may read any.
func (u *uses) addProgram(p *eval.Program) {
	if p == nil || p.Program == nil {
		return
	}
	v := &argsVisitor{uses: u}
	node := p.Node()
	ast.Walk(&node, v)
	if v.idents > v.members {
		u.All = true
	}
}

func (u *uses) addTemplate(t *eval.Template) {
	if t == nil {
		return
	}
	for _, part := range t.Parts {
		u.addProgram(part.Program)
	}
}

type argsVisitor struct {
	uses            *uses
	idents, members int
}

func (v *argsVisitor) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if n.Value == "args" {
			v.idents++
		}
	case *ast.MemberNode:
		id, ok := n.Node.(*ast.IdentifierNode)
		if !ok || id.Value != "args" {
			return
		}
		if key, ok := n.Property.(*ast.StringNode); ok {
			v.uses.Add(key.Value)
			v.members++
		}
	}
}

// addAnswer records the arguments the error rules and result block of an
// answer read.
func (u *uses) addAnswer(a *table.Answer) {
	for _, e := range a.Errors {
		u.addProgram(e.When)
		u.addTemplate(e.Message)
	}
	if r := a.Result; r != nil {
		u.addProgram(r.Structured)
		u.addProgram(r.Text)
		u.addTemplate(r.TextTemplate)
		u.addProgram(r.IsError)
	}
}

// addSteps records the arguments the steps' expr-lang conditions and
// error rules read (their calls are HCL, found in the syntax).
func (u *uses) addSteps(steps []*table.Step) {
	for _, s := range steps {
		u.addProgram(s.When)
		for _, e := range s.Errors {
			u.addProgram(e.When)
			u.addTemplate(e.Message)
		}
	}
}
