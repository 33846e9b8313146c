package lsp

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapters/all"
)

// configNames are the names a configuration declares at its top level,
// read from every file of the document's configuration.
type configNames struct {
	variables []string
	locals    []string
	backends  map[string][]string // by kind
	claims    []argInfo           // the auth block's claim blocks
}

func (s *Server) namesOf(doc *document) configNames {
	overlay := s.docs.overlay()
	names := configNames{backends: map[string][]string{}}
	for _, path := range unitFiles(doc.path, overlay) {
		src, ok := overlay[path]
		if !ok {
			var err error
			if src, err = os.ReadFile(path); err != nil {
				continue
			}
		}
		if isJSONSyntax(path) {
			names.add(readJSONSyntax(string(src), -1, declarations).body, string(src))
			continue
		}
		f, _ := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
		if f == nil {
			continue
		}
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		names.add(body, string(src))
	}
	slices.Sort(names.variables)
	slices.Sort(names.locals)
	return names
}

func (n *configNames) add(body *hclsyntax.Body, src string) {
	for _, b := range body.Blocks {
		switch {
		case b.Type == "variable" && len(b.Labels) == 1:
			n.variables = append(n.variables, b.Labels[0])
		case b.Type == "locals":
			for name := range b.Body.Attributes {
				n.locals = append(n.locals, name)
			}
		case b.Type == "backend" && len(b.Labels) == 2:
			n.backends[b.Labels[0]] = append(n.backends[b.Labels[0]], b.Labels[1])
		case b.Type == "auth":
			n.claims = append(n.claims, claimsOf(b, src)...)
		}
	}
}

// unitFiles are the files of path's configuration.
func unitFiles(path string, overlay map[string][]byte) []string {
	u := unitOf(path, overlay)
	if u.key == filepath.Dir(path) {
		return folderFiles(u.key, overlay)
	}
	return u.paths
}

// argInfo is an arg block of the tool (or prompt, template) around the
// cursor.
type argInfo struct {
	name, typ, description string
}

// argsOf are the arg blocks of the outermost block around the cursor.
func argsOf(blocks []*hclsyntax.Block, src string) []argInfo {
	if len(blocks) == 0 {
		return nil
	}
	var out []argInfo
	for _, b := range blocks[0].Body.Blocks {
		if b.Type != "arg" || len(b.Labels) != 1 {
			continue
		}
		a := argInfo{name: b.Labels[0]}
		if attr, ok := b.Body.Attributes["type"]; ok {
			a.typ = typeText(attr.Expr, src)
		}
		if attr, ok := b.Body.Attributes["description"]; ok {
			if v, diags := attr.Expr.Value(nil); !diags.HasErrors() && v.Type().FriendlyName() == "string" {
				a.description = v.AsString()
			}
		}
		out = append(out, a)
	}
	return out
}

// stepInfo is a step of the tool around the cursor, with the kind of
// call it makes.
type stepInfo struct {
	name, kind string
}

func stepsOf(blocks []*hclsyntax.Block) []stepInfo {
	if len(blocks) == 0 {
		return nil
	}
	kinds := all.Registry().Names()
	var out []stepInfo
	for _, b := range blocks[0].Body.Blocks {
		if b.Type != "step" || len(b.Labels) != 1 {
			continue
		}
		st := stepInfo{name: b.Labels[0]}
		for _, inner := range b.Body.Blocks {
			if slices.Contains(kinds, inner.Type) {
				st.kind = inner.Type
			}
		}
		out = append(out, st)
	}
	return out
}

// resultFields are what the answer of a call of kind holds
// (steps.NAME.body for http).
func resultFields(kind string) []string {
	a, ok := all.Registry().Lookup(kind)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range a.Info().ResultEnv {
		out = append(out, f.Name)
	}
	return out
}

func sourceOf(r hcl.Range, src string) string {
	if r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return src[r.Start.Byte:r.End.Byte]
}

// claimsOf are the claim blocks of an auth block, with their types.
func claimsOf(auth *hclsyntax.Block, src string) []argInfo {
	var out []argInfo
	for _, b := range auth.Body.Blocks {
		if b.Type != "claim" || len(b.Labels) != 1 {
			continue
		}
		c := argInfo{name: b.Labels[0]}
		if attr, ok := b.Body.Attributes["type"]; ok {
			c.typ = typeText(attr.Expr, src)
		}
		out = append(out, c)
	}
	return out
}

// typeText is a type as written: its source, or in the JSON syntax the
// string that holds it ("integer" is integer).
func typeText(expr hclsyntax.Expression, src string) string {
	if lit, ok := expr.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
		return lit.Val.AsString()
	}
	return sourceOf(expr.Range(), src)
}
