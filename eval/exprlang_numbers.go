package eval

import (
	"encoding/json"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"

	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Exact numbers in expr-lang programs.
//
// A backend's number that a double cannot hold as written (a NUMERIC
// 304.80, 12345678901234567.89, an integer past 64 bits) reaches the
// programs as a json.Number: its digits, as the backend wrote them. Paths,
// field access, map/filter and {{ }} pieces pass it on untouched, so the
// answer carries the same digits. expr-lang itself knows only Go's number
// types, so where a program computes with a value of unknown type
// (arithmetic, comparisons, the numeric builtins), the compiler wraps the
// operand in a conversion ([NumberOf]) that turns a json.Number into an
// int or a float64 there and leaves every other value as it is. Operands
// whose type is known at load time (status, a typed argument) are not
// wrapped, and no answer is walked before the programs run.

const (
	numberFunc  = "$number"  // one value: a json.Number becomes an int or a float64
	numbersFunc = "$numbers" // a value or a list of them, each converted
)

var jsonNumberType = reflect.TypeFor[json.Number]()

// numberOptions are the compile options that make programs compute with
// exact numbers.
var numberOptions = []expr.Option{
	expr.Function(numberFunc, func(a ...any) (any, error) { return NumberOf(a[0]), nil }, new(func(any) any)),
	expr.Function(numbersFunc, func(a ...any) (any, error) { return numbersOf(a[0]), nil }, new(func(any) any)),
	expr.Patch(numberPatch{}),
}

// NumberOf converts a json.Number to what expr-lang computes with: an int
// when it is whole and fits, else the nearest float64. Any other value is
// returned as it is.
func NumberOf(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, ok := rule.Int(string(n)); ok {
		return i
	}
	f, _ := n.Float64() // out of range gives ±Inf, which JSON output refuses
	return f
}

// numbersOf is NumberOf for a value that may be a list (the arguments of
// sum, max, min, mean, median, sort). A list holding a json.Number is
// copied; one without is returned as it is.
func numbersOf(v any) any {
	list, ok := v.([]any)
	if !ok {
		return NumberOf(v)
	}
	for i, e := range list {
		switch e.(type) {
		case json.Number, []any:
			out := make([]any, len(list))
			copy(out, list[:i])
			for j := i; j < len(list); j++ {
				out[j] = numbersOf(list[j])
			}
			return out
		}
	}
	return list
}

// numberPatch wraps the operands that may hold a json.Number where
// expr-lang computes with them. It runs after the type check, so each
// node knows its static type.
type numberPatch struct{}

// computing lists the binary operators that need numbers.
var computing = map[string]bool{
	"==": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true,
	"+": true, "-": true, "*": true, "/": true, "%": true, "**": true, "^": true, "..": true,
}

// scalarBuiltins take numbers; listBuiltins take numbers or lists of them.
var (
	scalarBuiltins = map[string]bool{
		"abs": true, "ceil": true, "floor": true, "round": true, "int": true, "float": true,
		"bitand": true, "bitor": true, "bitxor": true, "bitnand": true, "bitnot": true,
		"bitshl": true, "bitshr": true, "bitushr": true, "take": true, "repeat": true,
	}
	listBuiltins = map[string]bool{"max": true, "min": true, "mean": true, "median": true, "sort": true, "sum": true}
)

func (numberPatch) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BinaryNode:
		patchBinary(n)
	case *ast.UnaryNode:
		if n.Operator == "-" || n.Operator == "+" {
			wrap(&n.Node, numberFunc)
		}
	case *ast.BuiltinNode:
		patchBuiltin(n)
	case *ast.MemberNode:
		// list[i] with an index from an answer (a JSON column's numbers
		// are all json.Number); a key (a string) passes unchanged.
		if _, key := n.Property.(*ast.StringNode); !key {
			wrap(&n.Property, numberFunc)
		}
	case *ast.SliceNode:
		if n.From != nil {
			wrap(&n.From, numberFunc)
		}
		if n.To != nil {
			wrap(&n.To, numberFunc)
		}
	}
}

func patchBinary(n *ast.BinaryNode) {
	switch {
	case n.Operator == "in":
		// 'key' in body is a key lookup; a number in a list compares.
		if !notNumber(n.Left) {
			wrap(&n.Left, numberFunc)
			wrap(&n.Right, numbersFunc)
		}
	case computing[n.Operator]:
		// Against a string, a bool or nil a number is never equal, less
		// or addable, converted or not: leave those as they are.
		if notNumber(n.Left) || notNumber(n.Right) {
			return
		}
		wrap(&n.Left, numberFunc)
		wrap(&n.Right, numberFunc)
	}
}

func patchBuiltin(n *ast.BuiltinNode) {
	switch {
	case scalarBuiltins[n.Name]:
		for i := range n.Arguments {
			wrap(&n.Arguments[i], numberFunc)
		}
	case n.Name == "sortBy" && len(n.Arguments) >= 2:
		wrapPredicate(n.Arguments[1])
	case listBuiltins[n.Name]:
		// sum(list, .price) converts what the predicate gives; sum(list)
		// and the others convert the list's items.
		if n.Name == "sum" && len(n.Arguments) == 2 {
			wrapPredicate(n.Arguments[1])
			return
		}
		for i := range n.Arguments {
			wrap(&n.Arguments[i], numbersFunc)
		}
	}
}

func wrapPredicate(node ast.Node) {
	if p, ok := node.(*ast.PredicateNode); ok {
		wrap(&p.Node, numberFunc)
	}
}

// wrap puts the operand at *node inside a call of fn when its type is not
// known to be a plain Go value.
func wrap(node *ast.Node, fn string) {
	if list, ok := (*node).(*ast.ArrayNode); ok && fn == numbersFunc {
		// A list written out: its items, so that [1, 2] stays a constant.
		for i := range list.Nodes {
			wrap(&list.Nodes[i], numberFunc)
		}
		return
	}
	if !mayBeExact(*node) {
		return
	}
	call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: fn}, Arguments: []ast.Node{*node}}
	call.SetLocation((*node).Location())
	ast.Patch(node, call)
}

// mayBeExact reports whether a node's value may be a json.Number, or a
// list holding some: its type is unknown at load time (a body, a row's
// column), or is json.Number itself.
func mayBeExact(node ast.Node) bool {
	if _, isNil := node.(*ast.NilNode); isNil {
		return false
	}
	t := node.Type()
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Interface
	}
	return t == jsonNumberType
}

// notNumber reports whether a node is known to be no number: a string, a
// bool, nil, or a concatenation with a string (#.title + ' by ' + #.author
// is text, or an error, whatever #.author holds).
func notNumber(node ast.Node) bool {
	switch n := node.(type) {
	case *ast.NilNode:
		return true
	case *ast.BinaryNode:
		if n.Operator == "+" && (notNumber(n.Left) || notNumber(n.Right)) {
			return true
		}
	}
	k := node.Type().Kind()
	return k == reflect.String && node.Type() != jsonNumberType || k == reflect.Bool
}
