package lint

import (
	"github.com/expr-lang/expr/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/table"
)

// uses records the names under one root (args, var, local) that
// expressions refer to; all is set when one refers to the root as a
// whole or by a computed key, which may reach any name.
type uses struct {
	names map[string]bool
	all   bool
}

func newUses() *uses { return &uses{names: map[string]bool{}} }

func (u *uses) has(name string) bool { return u.all || u.names[name] }

// addTraversal records a reference if it starts at root.
func (u *uses) addTraversal(tr hcl.Traversal, root string) {
	if tr.RootName() != root {
		return
	}
	if len(tr) < 2 {
		u.all = true
		return
	}
	switch step := tr[1].(type) {
	case hcl.TraverseAttr:
		u.names[step.Name] = true
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
			u.names[step.Key.AsString()] = true
		} else {
			u.all = true
		}
	default:
		u.all = true
	}
}

// addSyntax records the references to root anywhere in a native-syntax
// node: attributes, nested blocks, templates. Bodies are read directly
// and expressions through eval.Variables (hclsyntax's walker allocates for
// every node, and lint reads every tool of a big configuration this way);
// a name a for expression binds is its own, not a reference to root.
func (u *uses) addSyntax(n hclsyntax.Node, root string) {
	switch n := n.(type) {
	case *hclsyntax.Block:
		u.addBody(n.Body, root)
	case *hclsyntax.Body:
		u.addBody(n, root)
	case *hclsyntax.Attribute:
		u.addExpr(n.Expr, root)
	case hclsyntax.Expression:
		u.addExpr(n, root)
	}
}

func (u *uses) addBody(b *hclsyntax.Body, root string) {
	for _, a := range b.Attributes {
		u.addExpr(a.Expr, root)
	}
	for _, blk := range b.Blocks {
		u.addBody(blk.Body, root)
	}
}

func (u *uses) addExpr(e hcl.Expression, root string) {
	for _, tr := range eval.Variables(e) {
		u.addTraversal(tr, root)
	}
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
		u.all = true
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
			v.uses.names[key.Value] = true
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
