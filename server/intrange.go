package server

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
)

// outOfRange lists the integer arguments (at any depth, as the schema
// declares them) whose values do not fit in 64 bits. JSON Schema's integer
// has no bounds, but every backend, the expression languages and the
// database drivers hold integers in 64 bits, where a larger value would
// wrap around or be sent as text.
func outOfRange(schema map[string]any, instance any) []string {
	var out []string
	walkIntegers(schema, instance, nil, func(path []string, n json.Number) {
		where := "arguments"
		if len(path) > 0 {
			where = "argument " + strings.Join(path, ".")
		}
		out = append(out, fmt.Sprintf("- %s: %s is too large; give a whole number between -9223372036854775808 and 9223372036854775807", where, shorten(string(n))))
	})
	sort.Strings(out)
	return out
}

// walkIntegers calls bad for each value the schema types as an integer
// that is outside the int64 range.
func walkIntegers(schema map[string]any, v any, path []string, bad func([]string, json.Number)) {
	if schema == nil {
		return
	}
	switch x := v.(type) {
	case json.Number:
		if schema["type"] == "integer" && !fitsInt64(x) {
			bad(path, x)
		}
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for name, e := range x {
			sub, _ := props[name].(map[string]any)
			walkIntegers(sub, e, append(path[:len(path):len(path)], name), bad)
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		for i, e := range x {
			walkIntegers(items, e, append(path[:len(path):len(path)], fmt.Sprint(i)), bad)
		}
	}
}

func fitsInt64(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	// 1e3 or 5.0 are integers too; only their size matters here.
	f, ok := new(big.Float).SetString(string(n))
	if !ok {
		return true // not a number: the schema reports it
	}
	// Out of range, Int64 gives the nearest bound, inexactly.
	i, acc := f.Int64()
	return acc == big.Exact || i != math.MinInt64 && i != math.MaxInt64
}

// shorten keeps a quoted value short enough for a message.
func shorten(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
