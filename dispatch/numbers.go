package dispatch

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// outOfRange lists the integer and number arguments (at any depth, as the
// schema declares them) whose values do not fit in 64 bits. JSON Schema's
// numbers have no bounds, but the expression languages and the database
// drivers hold integers in an int64 and numbers in a float64, where a
// larger value would wrap around, become infinite or be sent as text.
func outOfRange(schema map[string]any, instance any) []violation {
	if !hasLongNumber(instance) {
		return nil // the common case, without the schema's lookups
	}
	var out []violation
	walkNumbers(schema, instance, nil, func(path []string, n json.Number, integer bool) {
		out = append(out, violation{loc: path, big: n, integer: integer})
	})
	return out
}

// hasLongNumber reports whether a decoded JSON value holds a number that
// could be outside the 64-bit ranges: one of 19 characters or more, or
// with an exponent. Any shorter literal is an integer of at most 18
// digits or a float64 of ordinary size.
func hasLongNumber(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return len(x) >= 19 || strings.ContainsAny(string(x), "eE")
	case map[string]any:
		for _, e := range x {
			if hasLongNumber(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasLongNumber(e) {
				return true
			}
		}
	}
	return false
}

// tooLarge is the message for a number outside the range of its type.
func tooLarge(n json.Number, integer bool) string {
	allowed := "give a number between -1.7976931348623157e308 and 1.7976931348623157e308"
	if integer {
		allowed = "give a whole number between -9223372036854775808 and 9223372036854775807"
	}
	return shorten(string(n)) + " is too large; " + allowed
}

// Bounds on the numbers a client may send. JSON sets none, but the schema
// validator checks integers, multiples and ranges in exact rational
// arithmetic whose cost grows with the digits and the exponent (1e999999
// costs tens of milliseconds, a few hundred bytes of them seconds). No
// value an argument can use comes near: float64 ends at 1.8e308, and 100
// digits hold any decimal a database column keeps in practice.
const (
	maxNumberDigits   = 100
	maxNumberExponent = 400
)

// absurdNumbers lists the numbers anywhere in a decoded JSON value (any
// type, declared or not) that are beyond those bounds.
func absurdNumbers(v any) []violation {
	if !hasAbsurdNumber(v) {
		return nil // the common case, without building locations
	}
	var out []violation
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		switch x := v.(type) {
		case json.Number:
			if why := absurdNumber(string(x)); why != "" {
				out = append(out, violation{loc: append([]string(nil), path...), text: shorten(string(x)) + why})
			}
		case map[string]any:
			for name, e := range x {
				walk(e, append(path, name))
			}
		case []any:
			for i, e := range x {
				walk(e, append(path, strconv.Itoa(i)))
			}
		}
	}
	walk(v, nil)
	return out
}

func hasAbsurdNumber(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return absurdNumber(string(x)) != ""
	case map[string]any:
		for _, e := range x {
			if hasAbsurdNumber(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasAbsurdNumber(e) {
				return true
			}
		}
	}
	return false
}

// absurdNumber says what is wrong with a JSON number literal that is
// beyond the bounds, or "" when it is within them.
func absurdNumber(n string) string {
	mantissa, exp := n, ""
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		mantissa, exp = n[:i], strings.TrimLeft(n[i+1:], "+-")
	}
	digits := 0
	for i := 0; i < len(mantissa); i++ {
		if mantissa[i] >= '0' && mantissa[i] <= '9' {
			digits++
		}
	}
	if digits > maxNumberDigits {
		return fmt.Sprintf(" has more than %d digits; send such a value as a string", maxNumberDigits)
	}
	e := 0
	for i := 0; i < len(exp); i++ {
		if e = e*10 + int(exp[i]-'0'); e > maxNumberExponent {
			return fmt.Sprintf(" has an exponent beyond ±%d; give a number of ordinary size", maxNumberExponent)
		}
	}
	return ""
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
	// Most values are clearly inside or outside by their count of digits,
	// which costs no arithmetic; only 19-digit ones need the exact test.
	switch order := integerDigits(string(n)); {
	case order < 19:
		return true
	case order > 19:
		return false
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

// integerDigits is the number of digits before the point of a JSON
// number literal's value (0 for zero and for values below 1), from its
// text alone; exponents are within ±maxNumberExponent by then.
func integerDigits(n string) int {
	mantissa, exp, _ := strings.Cut(strings.ToLower(strings.TrimLeft(n, "-")), "e")
	whole, frac, _ := strings.Cut(mantissa, ".")
	whole = strings.TrimLeft(whole, "0")
	order := len(whole)
	if whole == "" {
		trimmed := strings.TrimLeft(frac, "0")
		if trimmed == "" {
			return 0 // zero
		}
		order = -(len(frac) - len(trimmed)) // 0.001 is 10^-3 ≤ x < 10^-2
	}
	e, _ := strconv.Atoi(strings.TrimPrefix(exp, "+"))
	return max(order+e, 0)
}

// shorten keeps a quoted value short enough for a message.
func shorten(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
