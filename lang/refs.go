package lang

import (
	"bytes"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/hclfast"
)

// Refs records the names under one root (args, var, local) that
// expressions refer to; All is set when one refers to the root as a whole
// or by a computed key, which may reach any name. Load fills them from the
// syntax tree, which it need not keep: lint reads what it needs of the
// references here.
type Refs struct {
	Names map[string]bool
	All   bool
}

// NewRefs returns empty Refs.
func NewRefs() *Refs { return &Refs{} }

// Has reports whether name is referred to.
func (r *Refs) Has(name string) bool { return r.All || r.Names[name] }

// Add records a reference to name.
func (r *Refs) Add(name string) {
	if r.Names == nil {
		r.Names = map[string]bool{}
	}
	r.Names[name] = true
}

// AddTraversal records a reference if it starts at root.
func (r *Refs) AddTraversal(tr hcl.Traversal, root string) {
	if tr.RootName() != root {
		return
	}
	if len(tr) < 2 {
		r.All = true
		return
	}
	switch step := tr[1].(type) {
	case hcl.TraverseAttr:
		r.Add(step.Name)
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
			r.Add(step.Key.AsString())
		} else {
			r.All = true
		}
	default:
		r.All = true
	}
}

// AddBody records the references to root anywhere in a native-syntax
// body: its attributes and nested blocks. Expressions are read through
// hclfast.Variables (hclsyntax's walker allocates for every node); a name a
// for expression binds is its own, not a reference to root.
func (r *Refs) AddBody(b *hclsyntax.Body, root string) {
	for _, a := range b.Attributes {
		r.AddExpr(a.Expr, root)
	}
	for _, blk := range b.Blocks {
		r.AddBody(blk.Body, root)
	}
}

// AddExpr records the references to root in expr.
func (r *Refs) AddExpr(e hcl.Expression, root string) {
	for _, tr := range hclfast.Variables(e) {
		r.AddTraversal(tr, root)
	}
}

// notArgUses are the blocks of a tool, template or prompt whose references
// to args do not make an argument useful: an argument only checked by
// validations (its own or the block's) still reaches nothing.
var notArgUses = []string{"arg", "validation"}

// argRefs records what the body of a block with arguments (a tool, a
// resource template, a prompt) reads of args outside its arg and
// validation blocks; nil for a body not in native syntax, whose
// references cannot all be found.
func argRefs(body hcl.Body) *Refs {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	r := NewRefs()
	for _, child := range b.Blocks {
		if !slices.Contains(notArgUses, child.Type) {
			r.AddBody(child.Body, "args")
		}
	}
	for _, a := range b.Attributes {
		r.AddExpr(a.Expr, "args")
	}
	return r
}

// noteSyntax records what lint reads of a decoded file's syntax tree.
func (cfg *Config) noteSyntax(f *hcl.File) {
	if b, ok := f.Body.(*hclsyntax.Body); ok {
		cfg.addValueRefs(b, f.Bytes)
	}
}

// addValueRefs records the references to variables and locals anywhere in
// a native-syntax body, whose text is src (lint reports those nothing
// refers to). A text without the words holds no reference: most pieces of
// a big file are walked no further.
func (cfg *Config) addValueRefs(b *hclsyntax.Body, src []byte) {
	if cfg.VarRefs == nil {
		cfg.VarRefs, cfg.LocalRefs = NewRefs(), NewRefs()
	}
	if !bytes.Contains(src, []byte("var")) && !bytes.Contains(src, []byte("local")) {
		return
	}
	var walk func(b *hclsyntax.Body)
	var trs []hcl.Traversal
	walk = func(b *hclsyntax.Body) {
		for _, a := range b.Attributes {
			trs = trs[:0]
			if !hclfast.AppendVariables(&trs, a.Expr) {
				trs = a.Expr.Variables()
			}
			for _, tr := range trs {
				switch tr.RootName() {
				case "var":
					cfg.VarRefs.AddTraversal(tr, "var")
				case "local":
					cfg.LocalRefs.AddTraversal(tr, "local")
				}
			}
		}
		for _, blk := range b.Blocks {
			walk(blk.Body)
		}
	}
	walk(b)
}

func (t *Tool) setArgRefs(r *Refs)             { t.ArgRefs = r }
func (t *ResourceTemplate) setArgRefs(r *Refs) { t.ArgRefs = r }
func (p *Prompt) setArgRefs(r *Refs)           { p.ArgRefs = r }
