package eval

import (
	"reflect"
	"strings"
	"testing"
)

// TestUnknownFunctionSuggestsBuiltin: a misspelt built-in function is
// called a function, and the closest built-in is suggested.
func TestUnknownFunctionSuggestsBuiltin(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`x = "lenght(body) > 0"`, `Unknown function lenght. Did you mean len?`},
		{`x = "length(body) > 0"`, `Unknown function length. Did you mean len?`},
		{`x = "uper(args.id) == 'A'"`, `Unknown function uper. Did you mean upper?`},
		{`x = "tojson(body) == '{}'"`, `Unknown function tojson. Did you mean toJSON?`},
		{`x = "frobnicate (body)"`, `Unknown function frobnicate.`},
	} {
		attr, files := parseAttr(t, c.src)
		_, diags := CompileProgram(attr, httpEnv(), true, files)
		if len(diags) != 1 || !strings.HasPrefix(diags[0].Detail, c.want) {
			t.Errorf("%s: got %v, want a detail starting %q", c.src, diags, c.want)
			continue
		}
		if !strings.Contains(diags[0].Detail, "expr-lang") {
			t.Errorf("%s: %q does not say where the functions are listed", c.src, diags[0].Detail)
		}
	}
	// An unknown name that is not called is still a name.
	attr, files := parseAttr(t, `x = "lenght > 0"`)
	_, diags := CompileProgram(attr, httpEnv(), true, files)
	if len(diags) != 1 || !strings.HasPrefix(diags[0].Detail, "Unknown name lenght. The names available here are") {
		t.Errorf("got %v", diags)
	}
}

// TestTypesInLanguageNames: the types in expr-lang's messages are those
// of the language, never Go's.
func TestTypesInLanguageNames(t *testing.T) {
	env := EnvType([]EnvField{
		{Name: "rows", Type: reflect.TypeFor[[]map[string]any]()},
		{Name: "columns", Type: reflect.TypeFor[[]string]()},
		{Name: "headers", Type: reflect.TypeFor[map[string]string]()},
		{Name: "status", Type: reflect.TypeFor[int]()},
		{Name: "ratio", Type: reflect.TypeFor[float64]()},
		{Name: "n", Type: NumberType},
		{Name: "body", Type: AnyType},
		{Name: "items", Type: reflect.TypeFor[[]any]()},
		{Name: "args", Type: EnvType([]EnvField{{Name: "id", Type: reflect.TypeOf("")}})},
		{Name: "pages", Type: reflect.SliceOf(EnvType([]EnvField{{Name: "status", Type: reflect.TypeOf(0)}}))},
	})
	for _, c := range []struct{ src, want string }{
		{`x = "rows"`, "Expected bool, but got list(object)."},
		{`x = "columns"`, "Expected bool, but got list(string)."},
		{`x = "headers"`, "Expected bool, but got map(string)."},
		{`x = "status"`, "Expected bool, but got integer."},
		{`x = "ratio"`, "Expected bool, but got number."},
		{`x = "items"`, "Expected bool, but got list(any)."},
		{`x = "args"`, "Expected bool, but got object."},
		{`x = "pages"`, "Expected bool, but got list(object)."},
		{`x = "status == 'a'"`, "(mismatched types integer and string)"},
	} {
		attr, files := parseAttr(t, c.src)
		_, diags := CompileProgram(attr, env, true, files)
		if len(diags) != 1 || !strings.Contains(diags[0].Detail, c.want) {
			t.Errorf("%s: got %v, want %q", c.src, diags, c.want)
			continue
		}
		for _, goName := range []string{"interface {}", "map[", "[]", "int64", "float64", "struct", "eval."} {
			if strings.Contains(diags[0].Detail, goName) {
				t.Errorf("%s: %q shows the Go type name %q", c.src, diags[0].Detail, goName)
			}
		}
	}
}

func TestLanguageTypeName(t *testing.T) {
	for goName, want := range map[string]string{
		"[]map[string]interface {}": "list(object)",
		"map[string]interface {}":   "object",
		"map[string][]string":       "map(list(string))",
		"[][]int":                   "list(list(integer))",
		"interface {}":              "any",
		"eval.Number":               "number",
		"json.Number":               "number",
		"bool":                      "bool",
		"string":                    "string",
	} {
		if got := readableTypes(goName); got != want {
			t.Errorf("readableTypes(%q) = %q, want %q", goName, got, want)
		}
	}
	// Words that merely contain a type name are left alone.
	for _, s := range []string{"print(x)", "strings in quotes", "interval", "a boolean"} {
		if got := readableTypes(s); got != s {
			t.Errorf("readableTypes(%q) = %q", s, got)
		}
	}
}
