package server

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// buildEnv makes the value of an expr-lang environment struct type from
// the call's fields and arguments. Values are converted to the field types
// the programs were compiled against; a value that does not fit is left at
// its zero value rather than failing the call. plain says the fields hold
// no json.Number (adapter.Result.PlainNumbers), so they are not searched.
func buildEnv(envType reflect.Type, fields map[string]any, args map[string]any, plain bool) any {
	v := reflect.New(envType).Elem()
	for i := range envType.NumField() {
		name := envType.Field(i).Tag.Get("expr")
		f := v.Field(i)
		switch val := fields[name]; {
		case name == "args":
			setValue(f, args)
		case plain && val != nil && f.Kind() == reflect.Interface:
			f.Set(reflect.ValueOf(val))
		default:
			setValue(f, val)
		}
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

// jsonValue converts a Go value built by expr-lang or decoded from JSON to
// the forms the schema validator reads (map[string]any, []any,
// json.Number, string, bool, nil) without encoding it as text first.
func jsonValue(v any) any {
	switch x := v.(type) {
	case nil, string, bool, json.Number:
		return x
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = jsonValue(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		out := make(map[string]any, rv.Len())
		for _, k := range rv.MapKeys() {
			out[fmt.Sprint(k.Interface())] = jsonValue(rv.MapIndex(k).Interface())
		}
		return out
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return json.Number(strconv.FormatUint(rv.Uint(), 10))
	case reflect.Float32:
		return json.Number(strconv.FormatFloat(rv.Float(), 'g', -1, 32))
	}
	// Anything else (a struct) goes through its JSON encoding.
	var out any
	_ = json.Unmarshal(mustJSON(v), &out)
	return jsonValue(out)
}
