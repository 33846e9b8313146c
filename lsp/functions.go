package lsp

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr/builtin"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/mcpdecl/mcpdecl/eval"
)

// funcInfo is a function a configuration may call, for completion and
// hover: its signature and, where the library gives one, what it does.
type funcInfo struct {
	name, signature, doc string
}

// programFunctions are expr-lang's built-in functions, read from
// expr-lang itself so a new release brings its new ones: what the
// programs in strings (when, result.text, {{ }} pieces) may call. now is
// disabled by eval (a program's answer must not depend on the clock), and
// names starting with $ are the compiler's own. Like configFunctions, the
// table is made on first use, not when mcpdecl starts.
var programFunctions = sync.OnceValue(func() map[string]funcInfo {
	out := map[string]funcInfo{}
	for _, f := range builtin.Builtins {
		if f.Name == "now" || strings.HasPrefix(f.Name, "$") {
			continue
		}
		out[f.Name] = funcInfo{name: f.Name, signature: builtinSignature(f)}
	}
	return out
})

// builtinSignature is a builtin's first Go signature, with the name in
// place of func ("len(any) int"); a predicate (filter, map, all, ...)
// takes a list and a predicate, which expr-lang types only when called.
func builtinSignature(f *builtin.Function) string {
	if f.Predicate {
		return f.Name + "(list, predicate)"
	}
	if len(f.Types) == 0 {
		return f.Name + "(...)"
	}
	return f.Name + strings.TrimPrefix(goSignature(f.Types[0]), "func")
}

func goSignature(t reflect.Type) string {
	if t.Kind() != reflect.Func {
		return t.String()
	}
	var params []string
	for i := range t.NumIn() {
		p := t.In(i).String()
		if t.IsVariadic() && i == t.NumIn()-1 {
			p = "..." + t.In(i).Elem().String()
		}
		params = append(params, strings.ReplaceAll(p, "interface {}", "any"))
	}
	sig := "func(" + strings.Join(params, ", ") + ")"
	if t.NumOut() > 0 {
		sig += " " + strings.ReplaceAll(t.Out(0).String(), "interface {}", "any")
	}
	return sig
}

// configFunctions are the functions of HCL expressions (outside strings,
// and inside ${ }): eval's table, mcpdecl's own and cty's curated ones.
var configFunctions = sync.OnceValue(func() map[string]funcInfo {
	table := eval.Functions("", &eval.Env{})
	out := map[string]funcInfo{}
	for _, name := range eval.FunctionNames() {
		fn, ok := table[name]
		if !ok {
			continue
		}
		out[name] = funcInfo{name: name, signature: ctySignature(name, fn), doc: fn.Description()}
	}
	return out
})

func ctySignature(name string, fn function.Function) string {
	var params []string
	for _, p := range fn.Params() {
		params = append(params, p.Name+" "+p.Type.FriendlyName())
	}
	if v := fn.VarParam(); v != nil {
		params = append(params, "..."+v.Name+" "+v.Type.FriendlyName())
	}
	return name + "(" + strings.Join(params, ", ") + ")"
}

// functionItems are completion items for a function table, sorted.
func functionItems(table map[string]funcInfo, what string) []completionItem {
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]completionItem, 0, len(names))
	for _, n := range names {
		f := table[n]
		item := completionItem{Label: n, Kind: itemFunction, Detail: f.signature + " · " + what}
		if f.doc != "" {
			item.Documentation = &markupContent{Kind: "markdown", Value: f.doc}
		}
		out = append(out, item)
	}
	return out
}
