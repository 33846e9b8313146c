package langschema_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/langref"
	"github.com/mcpdecl/mcpdecl/langschema"
)

// TestEveryBlockAndAttributeHasReferenceText walks every block the
// language accepts and asks langref for its text and for the text of each
// of its attributes: what hover shows and the JSON Schema describes.
func TestEveryBlockAndAttributeHasReferenceText(t *testing.T) {
	langschema.Walk(langschema.Tree(), func(path []string, n *langschema.Node) {
		where := strings.Join(path, ".")
		d, ok := langref.Lookup(path)
		if !ok {
			t.Errorf("%s: no reference text; mark its description in docs/language.md with <!-- ref: %s -->", where, path[len(path)-1])
			return
		}
		if d.Block.Markdown == "" {
			t.Errorf("%s: the mark <!-- ref: %s --> is followed by no text", where, d.Key)
		}
		for _, a := range n.Attributes {
			if _, ok := d.Attributes[a.Name]; !ok {
				t.Errorf("%s: attribute %s has no row in the attribute table after <!-- ref: %s --> (%s)", where, a.Name, d.Key, d.Block.Anchor)
			}
		}
	})
}

// TestReferenceNamesOnlyWhatTheLanguageAccepts is the other way: every
// mark of docs/language.md describes blocks the language has, and every
// attribute its table names is taken by each of them.
func TestReferenceNamesOnlyWhatTheLanguageAccepts(t *testing.T) {
	used := map[string]bool{}
	langschema.Walk(langschema.Tree(), func(path []string, n *langschema.Node) {
		d, ok := langref.Lookup(path)
		if !ok {
			return
		}
		used[d.Key] = true
		for _, name := range d.Order {
			if _, ok := n.Attribute(name); ok || n.Block(name) != nil || n.AnyAttributes {
				continue
			}
			t.Errorf("<!-- ref: %s --> (%s) names the attribute %s, which %s does not take", d.Key, d.Block.Anchor, name, strings.Join(path, "."))
		}
	})
	for _, d := range langref.All() {
		if !used[d.Key] {
			t.Errorf("<!-- ref: %s --> (%s) describes no block the language has", d.Key, d.Block.Anchor)
		}
	}
	if len(used) < 10 {
		t.Fatalf("only %d marks were used: %v", len(used), slices.Sorted(func(yield func(string) bool) {
			for k := range used {
				if !yield(k) {
					return
				}
			}
		}))
	}
}
