package table

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
)

func contains(list []string, s string) bool { return slices.Contains(list, s) }

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

func isNonNegativeInt(v any) bool {
	f, ok := toFloat(v)
	return ok && f >= 0 && f == float64(int64(f))
}

// JSONValue converts a Go value built by expr-lang or decoded from JSON to
// the forms the schema validator reads (map[string]any, []any,
// json.Number, string, bool, nil) without encoding it as text first.
func JSONValue(v any) any {
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
			out[k] = JSONValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = JSONValue(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = JSONValue(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		out := make(map[string]any, rv.Len())
		for _, k := range rv.MapKeys() {
			out[fmt.Sprint(k.Interface())] = JSONValue(rv.MapIndex(k).Interface())
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
	return JSONValue(out)
}

// mustJSON encodes values built from JSON-ready parts; a failure is a bug.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("table: cannot encode a value built for JSON: " + err.Error())
	}
	return b
}
