package server

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strings"
)

// buildEnv makes the value of an expr-lang environment struct type from
// the call's fields and arguments. Values are converted to the field types
// the programs were compiled against; a value that does not fit is left at
// its zero value rather than failing the call.
func buildEnv(envType reflect.Type, fields map[string]any, args map[string]any) any {
	v := reflect.New(envType).Elem()
	for i := range envType.NumField() {
		name := envType.Field(i).Tag.Get("expr")
		var val any
		if name == "args" {
			val = args
		} else {
			val = fields[name]
		}
		setValue(v.Field(i), val)
	}
	return v.Interface()
}

func setValue(dst reflect.Value, val any) {
	if val == nil {
		return
	}
	if n, ok := val.(json.Number); ok {
		val = numberValue(n)
	}
	src := reflect.ValueOf(val)
	t := dst.Type()
	switch {
	case t.Kind() == reflect.Interface:
		dst.Set(reflect.ValueOf(normalize(val)))
	case t.Kind() == reflect.Struct:
		if m, ok := val.(map[string]any); ok {
			for i := range t.NumField() {
				setValue(dst.Field(i), m[t.Field(i).Tag.Get("expr")])
			}
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

// normalize converts json.Number values nested in maps and slices so that
// expr-lang compares them as numbers. It changes maps and slices in place
// (they belong to the one call being answered) and writes only where a
// json.Number is replaced, so values shared between calls, which hold
// none, are only read.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		return numberValue(x)
	case map[string]any:
		for k, e := range x {
			switch ev := e.(type) {
			case json.Number:
				x[k] = numberValue(ev)
			case map[string]any, []any:
				normalize(ev)
			}
		}
	case []any:
		for i, e := range x {
			switch ev := e.(type) {
			case json.Number:
				x[i] = numberValue(ev)
			case map[string]any, []any:
				normalize(ev)
			}
		}
	}
	return v
}

// numberValue is an int when the number is whole and fits, else a float64.
func numberValue(n json.Number) any {
	if i, err := n.Int64(); err == nil {
		return int(i)
	}
	f, _ := n.Float64()
	return f
}

// formatValue renders a value inside a message: strings as they are,
// whole numbers without a decimal point, everything else as JSON.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
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
