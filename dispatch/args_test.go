package dispatch

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestFitsInt64ByDigits: the digit count decides most values without
// arithmetic; each side of the boundary, in every notation, is right.
func TestFitsInt64ByDigits(t *testing.T) {
	for n, want := range map[string]bool{
		"9223372036854775807": true, "9223372036854775808": false, "-9223372036854775808": true,
		"9.2e18": true, "9.3e18": false, "0.92e19": true, "0.93e19": false, "0.00001e23": true,
		"1e19": false, "1000000000000000000000e-2": false, "100000000000000000000e-2": true,
		"0e400": true, "0.0": true, "-1E+18": true, "5.0": true, "1e-5": true,
	} {
		if got := fitsInt64(json.Number(n)); got != want {
			t.Errorf("fitsInt64(%s) = %v, want %v", n, got, want)
		}
	}
}

// TestReadableMessages: the validator's \u escapes of printable text
// (an emoji's joiner, a combining accent) are undone; control characters
// and a backslash the text itself holds stay escaped.
func TestReadableMessages(t *testing.T) {
	for in, want := range map[string]string{
		`value must be one of '👩\u200d💻', 'x'`: "value must be one of '👩\u200d💻', 'x'",
		`'e\u0301' does not match`:             "'e\u0301' does not match",
		`'a\nb' and '\\u200d' and '\x00'`:      `'a\nb' and '\\u200d' and '\x00'`,
		`'\u0007' '\U0001F600' '\u12'`:         "'\\u0007' '\U0001F600' '\\u12'",
	} {
		if got := readable(in); got != want {
			t.Errorf("readable(%s) = %+q, want %+q", in, got, want)
		}
	}
}

// TestSensitiveVariablesNotInStructured: a sensitive variable repeated by
// a backend inside structured content is replaced there too, keys
// included, and numbers keep their digits.
func TestSensitiveVariablesNotInStructured(t *testing.T) {
	const key = "KEY-77aa-secret"
	r := &ToolResult{Structured: json.RawMessage(`{"echo":{"` + key + `":["x ` + key + `", 1234]},"n":12345}`)}
	redactToolResult(r, []string{key})
	if string(r.Structured) != `{"echo":{"[redacted]":["x [redacted]",1234]},"n":12345}` {
		t.Errorf("structured content: %s", r.Structured)
	}
}

// TestShortNumbersAreInRange backs outOfRange's shortcut: a number literal
// that hasLongNumber lets pass fits an int64 (when whole) and a float64.
func TestShortNumbersAreInRange(t *testing.T) {
	for _, n := range []string{"999999999999999999", "-99999999999999999", "123456789012345.5", "-0.00000000000001", "0", "-0", "1.0"} {
		num := json.Number(n)
		if hasLongNumber(num) {
			t.Fatalf("%s counts as long", n)
		}
		if !fitsInt64(num) {
			t.Errorf("%s does not fit an int64", n)
		}
		if _, err := strconv.ParseFloat(n, 64); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, n := range []string{"9223372036854775808", "-9223372036854775809", "1e19", "1E400"} {
		if !hasLongNumber(map[string]any{"a": []any{json.Number(n)}}) {
			t.Errorf("%s does not count as long", n)
		}
	}
	if got := outOfRange(map[string]any{"properties": map[string]any{"id": map[string]any{"type": "integer"}}},
		map[string]any{"id": json.Number("9223372036854775808")}); len(got) != 1 {
		t.Errorf("outOfRange missed 2^63: %v", got)
	}
}
