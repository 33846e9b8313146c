package diagtext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// rangeOf returns the range of the first occurrence of part in src, with
// lines and columns counted as HCL counts them (columns in characters).
func rangeOf(t *testing.T, name, src, part string) hcl.Range {
	t.Helper()
	i := strings.Index(src, part)
	if i < 0 {
		t.Fatalf("%q not in the source", part)
	}
	return hcl.Range{Filename: name, Start: posAt(src, i), End: posAt(src, i+len(part))}
}

func posAt(src string, off int) hcl.Pos {
	before := src[:off]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndex(before, "\n")+1:])) + 1
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

// TestTextDiagnostics checks the text rendering exactly: the clickable
// header, the block context, the carets under the range (also after tabs,
// with wide characters, over several lines, for an empty range and with
// CRLF line ends), and the wrapped detail.
func TestTextDiagnostics(t *testing.T) {
	const src = "tool \"x\" {\n\tdescription = \"héllo ${args.nme}\"\n  result {\r\n    text = \"'y'\"\r\n  }\n}\n"
	file, diags := hclsyntax.ParseConfig([]byte(src), "x.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"x.hcl": file}
	block := rangeOf(t, "x.hcl", src, src[:len(src)-1])
	eof := hcl.Range{Filename: "x.hcl", Start: posAt(src, len(src)), End: posAt(src, len(src))}
	crlf := rangeOf(t, "x.hcl", src, `"'y'"`)
	cases := []struct {
		name string
		diag *hcl.Diagnostic
		want string
	}{{
		name: "tab and wide characters before the range",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared argument",
			Detail: "No argument named \"nme\".", Subject: ptr(rangeOf(t, "x.hcl", src, "args.nme"))},
		want: "x.hcl:2:25: error: Reference to undeclared argument [MCPD012]\n" +
			"  in tool \"x\":\n" +
			"    2 | \tdescription = \"héllo ${args.nme}\"\n" +
			"      | \t                       ^^^^^^^^\n" +
			"  No argument named \"nme\".\n\n",
	}, {
		name: "a range over a whole block shows its first lines",
		diag: &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unused tool", Subject: &block},
		want: "x.hcl:1:1: warning: Unused tool\n" +
			"  in tool \"x\":\n" +
			"    1 | tool \"x\" {\n" +
			"      | ^^^^^^^^^^\n" +
			"    2 | \tdescription = \"héllo ${args.nme}\"\n" +
			"      | \t^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
			"    3 |   result {\n" +
			"      |   ^^^^^^^^\n" +
			"      | ...\n\n",
	}, {
		name: "a range over two lines: the indentation of the second is not marked",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "S", Subject: ptr(rangeOf(t, "x.hcl", src, "result {\r\n    text"))},
		want: "x.hcl:3:3: error: S\n" +
			"  in tool \"x\":\n" +
			"    3 |   result {\n" +
			"      |   ^^^^^^^^\n" +
			"    4 |     text = \"'y'\"\n" +
			"      |     ^^^^\n\n",
	}, {
		name: "CRLF line ends are not shown",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "S", Subject: &crlf},
		want: "x.hcl:4:12: error: S\n" +
			"  in tool \"x\":\n" +
			"    4 |     text = \"'y'\"\n" +
			"      |            ^^^^^\n\n",
	}, {
		name: "an empty range at the end of the file gets one caret",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unclosed", Subject: &eof},
		want: "x.hcl:7:1: error: Unclosed\n" +
			"    7 | \n" +
			"      | ^\n\n",
	}, {
		name: "no place in a file",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read configuration", Detail: "stat y.hcl: no such file."},
		want: "error: Cannot read configuration [MCPD018]\n  stat y.hcl: no such file.\n\n",
	}, {
		name: "source not at hand: the header alone",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "S", Detail: "D",
			Subject: &hcl.Range{Filename: "gone.hcl", Start: hcl.Pos{Line: 3, Column: 5, Byte: 40}, End: hcl.Pos{Line: 3, Column: 6, Byte: 41}}},
		want: "gone.hcl:3:5: error: S\n  D\n\n",
	}, {
		name: "a range beyond the file shows no snippet",
		diag: &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "S",
			Subject: &hcl.Range{Filename: "x.hcl", Start: hcl.Pos{Line: 90, Column: 1, Byte: 900}, End: hcl.Pos{Line: 90, Column: 2, Byte: 901}}},
		want: "x.hcl:90:1: error: S\n\n",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			writeTextDiagnostic(&buf, c.diag, files)
			if got := buf.String(); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func ptr(r hcl.Range) *hcl.Range { return &r }

// TestTextDiagnosticsCount: the closing line counts errors and warnings,
// and nothing at all is written for no diagnostics.
func TestTextDiagnosticsCount(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, nil, nil); err != nil || buf.Len() != 0 {
		t.Fatalf("no diagnostics wrote %q, %v", buf.String(), err)
	}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "A"},
		{Severity: hcl.DiagWarning, Summary: "B"},
		{Severity: hcl.DiagWarning, Summary: "C"},
	}
	if err := WriteText(&buf, diags, nil); err != nil {
		t.Fatal(err)
	}
	want := "error: A\n\nwarning: B\n\nwarning: C\n\n1 error, 2 warnings.\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestWrapIndented(t *testing.T) {
	got := wrapIndented("one two three four\n\nfive averyveryverylongword six\n", "  ", 12)
	want := "  one two\n  three four\n\n  five\n  averyveryverylongword\n  six\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
