package eval

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/google/go-cmp/cmp"
)

// numbersEnv is an environment with an open body and a typed status.
func numbersEnv() reflect.Type {
	return EnvType([]EnvField{
		{Name: "status", Type: reflect.TypeOf(0)},
		{Name: "body", Type: AnyType},
		{Name: "args", Type: EnvType([]EnvField{{Name: "n", Type: reflect.TypeOf(0.0)}})},
	})
}

func compileNumbers(t *testing.T, src string) *Program {
	t.Helper()
	attr, files := parseAttr(t, fmt.Sprintf("x = %q", src))
	p, diags := CompileProgram(attr, numbersEnv(), false, files)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags)
	}
	return p
}

func runNumbers(t *testing.T, p *Program, body any) any {
	t.Helper()
	env := reflect.New(numbersEnv()).Elem()
	env.Field(0).Set(reflect.ValueOf(200))
	env.Field(1).Set(reflect.ValueOf(body))
	out, err := vm.Run(p.Program, env.Interface())
	if err != nil {
		t.Fatalf("%s: %v", p.Source, err)
	}
	return out
}

// TestProgramsComputeWithExactNumbers: every place expr-lang computes
// with a number accepts a json.Number, and every place that only passes a
// value on keeps it as it is.
func TestProgramsComputeWithExactNumbers(t *testing.T) {
	body := map[string]any{
		"p": json.Number("304.80"), "q": json.Number("2"), "one": json.Number("1"), "neg": json.Number("-1.5"), "big": json.Number("99999999999999999999"),
		"list": []any{json.Number("3.5"), json.Number("1.25"), 2},
		"rows": []any{map[string]any{"v": json.Number("2.50")}, map[string]any{"v": json.Number("0.10")}},
	}
	tests := map[string]any{
		// passed on untouched
		"body.p":                       json.Number("304.80"),
		"[body.p, body.big][1]":        json.Number("99999999999999999999"),
		"map(body.rows, .v)":           []any{json.Number("2.50"), json.Number("0.10")},
		"filter(body.rows, .v > 1)":    []any{map[string]any{"v": json.Number("2.50")}},
		"body.p ?? 0":                  json.Number("304.80"),
		"status == 200 ? body.p : nil": json.Number("304.80"),
		"string(body.p)":               "304.80",
		"sortBy(body.rows, .v)[0].v":   json.Number("0.10"),
		// computed on the double (or int) value
		"body.p > 300 && body.p <= 304.8":  true,
		"body.p == 304.8":                  true,
		"body.q == 2 && body.q != 3":       true,
		"body.p + 1":                       305.8,
		"body.q * 2":                       4,
		"body.q / 4":                       0.5,
		"body.q % 2":                       0,
		"body.q ** 2":                      4.0,
		"-body.neg":                        1.5,
		"body.p - args.n":                  304.8,
		"body.q in [1, 2]":                 true,
		"1.25 in body.list":                true,
		"body.q in body.list":              true,
		"abs(body.neg)":                    1.5,
		"ceil(body.neg)":                   -1.0,
		"floor(body.p)":                    304.0,
		"round(body.p)":                    305.0,
		"int(body.p)":                      304,
		"float(body.q)":                    2.0,
		"max(body.p, 1)":                   304.8,
		"min(body.list)":                   1.25,
		"max(body.list)":                   3.5,
		"mean(body.list)":                  6.75 / 3,
		"median(body.list)":                2.0,
		"sum(body.list)":                   6.75,
		"sum(body.rows, .v)":               2.6,
		"sort(body.list)":                  []any{1.25, 2, 3.5},
		"count(body.rows, .v > 1)":         1,
		"reduce(body.rows, #acc + #.v, 0)": 2.6,
		"body.q..3":                        []int{2, 3},
		"body.big > 1e19":                  true,
		"body.list[body.q]":                2,
		"body.list[body.one:body.q]":       []any{json.Number("1.25")},
		"take(body.list, body.one)":        []any{json.Number("3.5")},
		"repeat('ab', body.q)":             "abab",
	}
	for src, want := range tests {
		p := compileNumbers(t, src)
		got := runNumbers(t, p, body)
		if f, ok := got.(float64); ok {
			if w, ok := want.(float64); ok && f-w < 1e-9 && w-f < 1e-9 {
				continue
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", src, diff)
		}
	}
}

// TestTypedOperandsAreNotWrapped: a comparison of values whose type is
// known at load time runs as expr-lang compiles it, with no conversion
// call on the way.
func TestTypedOperandsAreNotWrapped(t *testing.T) {
	for src, wantCalls := range map[string]int{
		"status == 404":                          0,
		"status >= 400 && args.n > 1":            0,
		"body.state == 'open'":                   0, // against a string, never a number
		"body == nil":                            0,
		"status in [200, 201]":                   0,
		"body.q in [1, 2]":                       1,
		"2 in [body.q, 3]":                       1,
		"body.total > 1":                         1,
		"map(body, #.title + ' by ' + #.author)": 0,
		"body.a + body.b":                        2,
	} {
		p := compileNumbers(t, src)
		calls := 0
		root := p.Node()
		ast.Walk(&root, callCounter(func() { calls++ }))
		if calls != wantCalls {
			t.Errorf("%s: %d conversion calls, want %d", src, calls, wantCalls)
		}
	}
}

type callCounter func()

func (c callCounter) Visit(node *ast.Node) {
	if call, ok := (*node).(*ast.CallNode); ok {
		if id, ok := call.Callee.(*ast.IdentifierNode); ok && (id.Value == numberFunc || id.Value == numbersFunc) {
			c()
		}
	}
}

func TestNumberOf(t *testing.T) {
	for in, want := range map[json.Number]any{
		"12": 12, "-0": 0, "304.80": 304.8, "1e3": 1000.0, "99999999999999999999": 1e20,
	} {
		if got := NumberOf(in); got != want {
			t.Errorf("NumberOf(%s) = %#v, want %#v", in, got, want)
		}
	}
	if got := NumberOf("text"); got != "text" {
		t.Errorf("NumberOf(string) = %#v, want it unchanged", got)
	}
}
