package dispatch

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpdecl/mcpdecl/eval"
)

// buildEnv makes the value of an expr-lang environment struct type from
// the call's fields and arguments. Values are converted to the field types
// the programs were compiled against; a value that does not fit is left at
// its zero value rather than failing the call. Exact numbers (json.Number)
// stay as they are where the type is open (a body, a row): the programs
// convert them only where they compute (see eval.NumberOf), so nothing is
// walked or copied here.
func buildEnv(envType reflect.Type, fields map[string]any, args map[string]any) any {
	v := reflect.New(envType).Elem()
	for i, name := range exprNames(envType) {
		if name == "args" {
			setValue(v.Field(i), args)
		} else {
			setValue(v.Field(i), fields[name])
		}
	}
	return v.Interface()
}

// exprNamesOf caches, per environment struct type, the expr-lang name of
// each field: reading them from the struct tags costs a parse per field.
var exprNamesOf sync.Map // reflect.Type → []string

// exprNames returns the expr-lang names of a struct type's fields, in
// field order.
func exprNames(t reflect.Type) []string {
	if names, ok := exprNamesOf.Load(t); ok {
		return names.([]string)
	}
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Tag.Get("expr")
	}
	exprNamesOf.Store(t, names)
	return names
}

// setValue sets dst to val. A nil val (an argument left out or sent as
// null) leaves dst its zero value, which is nil for the fields of values
// that may be null (see table's nullableGoType).
func setValue(dst reflect.Value, val any) {
	if val == nil {
		return
	}
	t := dst.Type()
	if n, ok := val.(json.Number); ok && (t.Kind() != reflect.Interface || t == eval.IntegerType) {
		val = eval.NumberOf(n) // a typed number field (an integer argument)
	}
	src := reflect.ValueOf(val)
	switch {
	case src.Type().AssignableTo(t):
		dst.Set(src) // rows, headers, body: as the adapter made them
	case t.Kind() == reflect.Struct:
		if m, ok := val.(map[string]any); ok {
			for i, name := range exprNames(t) {
				setValue(dst.Field(i), m[name])
			}
		}
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		if m, ok := val.(map[string]any); ok { // an object that may be null, and is not
			p := reflect.New(t.Elem())
			setValue(p.Elem(), m)
			dst.Set(p)
		}
	case t.Kind() == reflect.Slice && src.Kind() == reflect.Slice:
		out := reflect.MakeSlice(t, src.Len(), src.Len())
		for i := range src.Len() {
			setValue(out.Index(i), src.Index(i).Interface())
		}
		dst.Set(out)
	case t.Kind() == reflect.Map && src.Kind() == reflect.Map:
		out := reflect.MakeMapWithSize(t, src.Len())
		for _, k := range src.MapKeys() {
			e := reflect.New(t.Elem()).Elem()
			setValue(e, src.MapIndex(k).Interface())
			out.SetMapIndex(k.Convert(t.Key()), e)
		}
		dst.Set(out)
	case src.Type().ConvertibleTo(t) && kindsCompatible(src.Kind(), t.Kind()):
		dst.Set(src.Convert(t))
	}
}

// kindsCompatible refuses conversions reflect allows but that change
// meaning (a number to a string).
func kindsCompatible(from, to reflect.Kind) bool {
	isNum := func(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Float64 }
	return from == to || isNum(from) && isNum(to)
}

// formatValue renders a value inside a message: strings as they are,
// whole numbers without a decimal point, everything else as JSON.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return string(x) // as the backend wrote it
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64) // big.Float refuses NaN
		}
		if x == float64(int64(x)) {
			return fmt.Sprint(int64(x))
		}
		return new(big.Float).SetFloat64(x).Text('g', -1)
	case int, int64, bool:
		return fmt.Sprint(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(b))
}
