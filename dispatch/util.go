package dispatch

import (
	"encoding/json"
	"slices"
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
