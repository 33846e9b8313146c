package server

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// outOfRange lists the integer and number arguments (at any depth, as the
// schema declares them) whose values do not fit in 64 bits. JSON Schema's
// numbers have no bounds, but the expression languages and the database
// drivers hold integers in an int64 and numbers in a float64, where a
// larger value would wrap around, become infinite or be sent as text.
func outOfRange(schema map[string]any, instance any) []string {
	var out []string
	walkNumbers(schema, instance, nil, func(path []string, n json.Number, integer bool) {
		where := "arguments"
		if len(path) > 0 {
			where = "argument " + strings.Join(path, ".")
		}
		allowed := "give a number between -1.7976931348623157e308 and 1.7976931348623157e308"
		if integer {
			allowed = "give a whole number between -9223372036854775808 and 9223372036854775807"
		}
		out = append(out, fmt.Sprintf("- %s: %s is too large; %s", where, shorten(string(n)), allowed))
	})
	sort.Strings(out)
	return out
}

// walkNumbers calls bad for each value the schema types as an integer
// that is outside the int64 range, or as a number that is outside the
// float64 range.
func walkNumbers(schema map[string]any, v any, path []string, bad func([]string, json.Number, bool)) {
	if schema == nil {
		return
	}
	switch x := v.(type) {
	case json.Number:
		switch schema["type"] {
		case "integer":
			if !fitsInt64(x) {
				bad(path, x, true)
			}
		case "number":
			if _, err := strconv.ParseFloat(string(x), 64); err != nil {
				bad(path, x, false)
			}
		}
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for name, e := range x {
			sub, _ := props[name].(map[string]any)
			walkNumbers(sub, e, append(path[:len(path):len(path)], name), bad)
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		for i, e := range x {
			walkNumbers(items, e, append(path[:len(path):len(path)], fmt.Sprint(i)), bad)
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
