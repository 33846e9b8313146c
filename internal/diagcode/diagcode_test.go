package diagcode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{"Invalid type", "Invalid type", true},
		{"Invalid type", "Invalid types", false},
		{"Invalid %s", "Invalid tool name", true},
		{"Invalid %s", "Invalid ", false},
		{"Invalid %s name", "Invalid tool name", true},
		{"Invalid %s name", "Invalid %s name", true},
		{"Invalid %s name", "Invalid name", false},
		{"%s not available here", "Step not available here", true},
		{"Unexpected %s block", "Unexpected \"x\" block", true},
	} {
		if got := match(c.pattern, c.s); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

func TestOf(t *testing.T) {
	for _, c := range []struct {
		d    hcl.Diagnostic
		want string
	}{
		{hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate tool name"}, Duplicate},
		{hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared argument"}, Reference},
		{hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid expression"}, Expression},
		// The parser's "Invalid expression" is marked where it is made.
		{*Mark(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid expression"}}, Syntax)[0], Syntax},
		{hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Something new"}, ""},
		// Warnings have no class: a lint finding says its own code.
		{hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Duplicate tool name"}, ""},
		{hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "x", Extra: &Extra{Code: "MCPD101"}}, "MCPD101"},
	} {
		if got := Of(&c.d); got != c.want {
			t.Errorf("Of(%d %q) = %q, want %q", c.d.Severity, c.d.Summary, got, c.want)
		}
	}
}

// TestEverySummaryInTheSourceHasAClass reads the packages that report
// errors about a configuration and finds every error summary written in
// them (an hcl.Diagnostic of severity DiagError, or a helper that makes
// one); each must have a class. A new error without one fails here.
func TestEverySummaryInTheSourceHasAClass(t *testing.T) {
	// helpers are the functions that make an error from a summary, with
	// the summary's argument.
	helpers := map[string]int{"refDiag": 1, "fileDiag": 0, "testDiag": 0, "errorf": 1, "check.Error": 0}
	n := 0
	for _, dir := range []string{"lang", "eval", "table", "adapter", "adapters", "testrun", "lint"} {
		err := filepath.WalkDir(filepath.Join("..", "..", dir), func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			check := func(n ast.Node, summary string) {
				if OfSummary(summary) == "" {
					t.Errorf("%s: the error %q has no class: add it to the table in summaries.go", fset.Position(n.Pos()), summary)
				}
			}
			ast.Inspect(f, func(node ast.Node) bool {
				switch x := node.(type) {
				case *ast.CompositeLit:
					var isErr bool
					var summary string
					var found bool
					for _, el := range x.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						switch key, _ := kv.Key.(*ast.Ident); {
						case key == nil:
						case key.Name == "Severity":
							sel, ok := kv.Value.(*ast.SelectorExpr)
							isErr = ok && sel.Sel.Name == "DiagError"
						case key.Name == "Summary":
							summary, found = literal(kv.Value)
						}
					}
					if isErr && found {
						n++
						check(x, summary)
					}
				case *ast.CallExpr:
					name := ""
					switch fn := x.Fun.(type) {
					case *ast.Ident:
						name = fn.Name
					case *ast.SelectorExpr:
						if id, ok := fn.X.(*ast.Ident); ok {
							name = id.Name + "." + fn.Sel.Name
						}
					}
					if i, ok := helpers[name]; ok && len(x.Args) > i {
						if summary, ok := literal(x.Args[i]); ok {
							n++
							check(x, summary)
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 150 {
		t.Errorf("only %d error summaries found in the source", n)
	}
}

// literal is the text of a string literal, or the format of
// fmt.Sprintf("...", ...).
func literal(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		}
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
			return literal(x.Args[0])
		}
	}
	return "", false
}

// TestEveryClassDocumented: docs/lint.md's table of error codes has a
// row for each class, in the order of the codes, with its name.
func TestEveryClassDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "\n## Error codes\n")
	if !ok {
		t.Fatal("docs/lint.md has no section ## Error codes")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	at := 0
	for _, c := range Classes {
		row := "\n| [" + c.Code + "](#" + strings.ToLower(c.Code) + ") | `" + c.Name + "` |"
		i := strings.Index(table, row)
		if i < 0 {
			t.Errorf("docs/lint.md's table of error codes has no row starting %q", strings.TrimSpace(row))
			continue
		}
		if i < at {
			t.Errorf("docs/lint.md lists %s out of order", c.Code)
		}
		at = i
	}
}

// TestHintKeepsTheCode: a hint set before or after the code leaves the
// code where Of finds it, and an error with a hint but no code is still
// classed by its summary.
func TestHintKeepsTheCode(t *testing.T) {
	r := hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 5, Byte: 4}}
	before := Suggest(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Something"}, "args.query", r)
	Mark(hcl.Diagnostics{before}, Type)
	after := Suggest(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Something", Extra: &Extra{Code: Value}}, "x", r)
	byText := Relate(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown reference"}, r, r)
	if Of(before) != Type || Of(after) != Value || Of(byText) != Reference {
		t.Errorf("codes %q %q %q", Of(before), Of(after), Of(byText))
	}
	if h := HintOf(before); h == nil || h.Replacement != "args.query" || *h.Range != r {
		t.Errorf("hint %+v", h)
	}
	if h := HintOf(byText); h == nil || len(h.Related) != 2 || h.Replacement != "" {
		t.Errorf("related %+v", h)
	}
	other := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown reference", Extra: "not ours"}
	if Suggest(other, "x", r); HintOf(other) != nil || other.Extra != "not ours" {
		t.Errorf("another Extra was changed: %+v", other.Extra)
	}
}
