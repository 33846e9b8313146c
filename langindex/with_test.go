package langindex

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// With gives the same answers as building from scratch, and leaves the
// index it came from as it was.
func TestWith(t *testing.T) {
	files, idx := fixture(t)
	edited := strings.Replace(string(files["more.hcl"]), `tool "other"`, `tool "another"`, 1)
	edited = strings.Replace(edited, "var.base_url", "var.base_url, local.page", 1)
	next := idx.With("more.hcl", []byte(edited))
	files2 := map[string][]byte{}
	for k, v := range files {
		files2[k] = v
	}
	files2["more.hcl"] = []byte(edited)
	fresh := Build(files2)

	page := spot{"main.hcl", "page = 20", "page"}
	if diff := cmp.Diff(fresh.References("main.hcl", page.pos(t, files), true), next.References("main.hcl", page.pos(t, files), true)); diff != "" {
		t.Errorf("With differs from Build (-Build +With):\n%s", diff)
	}
	if got := len(next.References("main.hcl", page.pos(t, files), true)); got != 4 {
		t.Errorf("local.page: %d references after the edit, want 4", got)
	}
	if got := len(idx.References("main.hcl", page.pos(t, files), true)); got != 3 {
		t.Errorf("local.page: %d references in the index before the edit, want 3 (it changed)", got)
	}
	// The toolset's "other" names no tool any more.
	other := spot{"main.hcl", `"other", "oth*"`, "other"}
	if r, ok := next.Definition("main.hcl", other.pos(t, files)); ok {
		t.Errorf(`"other" is still defined, at %s`, r)
	}
	if _, ok := idx.Definition("main.hcl", other.pos(t, files)); !ok {
		t.Error(`"other" lost its definition in the index before the edit`)
	}
	// A file removed takes its names along.
	gone := next.With("more.hcl", nil)
	if _, ok := gone.Definition("more.hcl", hcl.Pos{Line: 1, Column: 7, Byte: 6}); ok {
		t.Error("a removed file still has definitions")
	}
	if got := gone.Files(); !cmp.Equal(got, []string{"auth.hcl", "json.hcl.json", "json_test.hcl.json", "main.hcl", "main_test.hcl"}) {
		t.Errorf("files after removing more.hcl: %v", got)
	}
}

func TestSymbols(t *testing.T) {
	_, idx := fixture(t)
	var b bytes.Buffer
	var write func(indent string, syms []*Symbol)
	write = func(indent string, syms []*Symbol) {
		for _, s := range syms {
			b.WriteString(indent + string(s.Kind) + " " + s.Name + "\n")
			write(indent+"  ", s.Children)
		}
	}
	write("", idx.Symbols("main.hcl"))
	want := `variable base_url
locals locals
  local page
backend api
tool search
  argument query
  argument limit
  step lookup
app dash
toolset books
limit per_caller
resource_template book
  argument isbn
  argument lang
prompt plan
  argument query
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
}

// An editor refuses an outline whose names lie outside their blocks: in
// both syntaxes, each symbol's range holds its name, and its children.
func TestSymbolRanges(t *testing.T) {
	_, idx := fixture(t)
	var check func(parent *Symbol, syms []*Symbol)
	check = func(parent *Symbol, syms []*Symbol) {
		for _, s := range syms {
			if !within(s.NameRange, s.Range) {
				t.Errorf("%s %s: its range %s does not hold its name %s", s.Kind, s.Name, s.Range, s.NameRange)
			}
			if parent != nil && !within(s.Range, parent.Range) {
				t.Errorf("%s %s: its range %s is outside its parent's %s", s.Kind, s.Name, s.Range, parent.Range)
			}
			check(s, s.Children)
		}
	}
	for _, f := range idx.Files() {
		check(nil, idx.Symbols(f))
	}
	json := idx.Symbols("json.hcl.json")
	if len(json) != 2 || json[0].Name != "lookup" || len(json[0].Children) != 1 || json[1].Kind != KindLocals {
		t.Errorf("JSON outline: %+v", json)
	}
}

func within(inner, outer hcl.Range) bool {
	return inner.Filename == outer.Filename && outer.Start.Byte <= inner.Start.Byte && inner.End.Byte <= outer.End.Byte
}
