package langindex

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSemanticTokens(t *testing.T) {
	files := map[string][]byte{"t.hcl": []byte(`tool "t" {
  arg "q" {
    type = string
  }
  step "s" {
    http "api" {
      path = "/"
    }
  }
  http "api" {
    path = "/${args.q}"
  }
  error {
    when    = "status == 404 && len(args.q) > 0 or steps.s.body?.x == nil"
    message = "\u00e9 \"{{ upper(args.q) }}\" {{ 'a' + mine(#unclosed"
  }
  result {
    text = <<-EOT
      {{ map(body, #.title) }}
    EOT
  }
}
`)}
	type tok struct{ Text, Kind string }
	builtins := map[string]bool{"len": true, "upper": true, "map": true} // not mine
	want := []tok{
		{"status", "variable"}, {"==", "operator"}, {"404", "number"}, {"&&", "operator"},
		{"len", "function"}, {"(", ""}, {"args", "variable"}, {".", "operator"}, {"q", "argument"}, {")", ""},
		{">", "operator"}, {"0", "number"}, {"or", "keyword"},
		{"steps", "variable"}, {".", "operator"}, {"s", "step"}, {".", "operator"}, {"body", "property"},
		{"?.", "operator"}, {"x", "property"}, {"==", "operator"}, {"nil", "keyword"},
		{"{{", "operator"}, {"upper", "function"}, {"(", ""}, {"args", "variable"}, {".", "operator"}, {"q", "argument"}, {")", ""}, {"}}", "operator"},
		// An unclosed piece is read to the end, as far as it lexes.
		{"{{", "operator"}, {"'a'", "string"}, {"+", "operator"}, {"mine", "function"}, {"(", ""}, {"#", "operator"}, {"unclosed", "variable"},
		{"{{", "operator"}, {"map", "function"}, {"(", ""}, {"body", "variable"}, {",", "operator"}, {"#", "operator"}, {".", "operator"}, {"title", "property"}, {")", ""}, {"}}", "operator"},
	}
	var wantTokens []tok
	for _, w := range want {
		if w.Kind != "" { // brackets are left to the editor
			wantTokens = append(wantTokens, w)
		}
	}
	var got []tok
	for _, tk := range Build(files).SemanticTokens("t.hcl") {
		if tk.Range.Start.Line != tk.Range.End.Line {
			t.Errorf("token %q spans lines", textOf(files, tk.Range))
		}
		text := textOf(files, tk.Range)
		got = append(got, tok{text, string(tk.Kind)})
		if tk.Builtin != builtins[text] {
			t.Errorf("%q: builtin %v", text, tk.Builtin)
		}
	}
	if diff := cmp.Diff(wantTokens, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
}
