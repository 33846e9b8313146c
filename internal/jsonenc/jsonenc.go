// Package jsonenc appends JSON for the values a tool call produces (the
// generic maps, lists, strings and numbers that decoded answers and
// expressions are made of) without reflection.
//
// Its output is byte for byte what encoding/json.Marshal gives for the same
// value: map keys sorted, HTML characters escaped, invalid UTF-8 replaced,
// floats in the same notation. Values of other types are handed to
// encoding/json, so any value can be appended. The package imports only
// the standard library, so the protocol layer can use it.
package jsonenc

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// Marshal returns the JSON encoding of v, in a slice of its own exact
// size: the encoding grows in a reused buffer, so a large value costs one
// allocation, not one per doubling.
func Marshal(v any) ([]byte, error) {
	buf := scratch.Get().(*[]byte)
	b, err := Append((*buf)[:0], v)
	var out []byte
	if err == nil {
		out = append(make([]byte, 0, len(b)), b...)
	}
	if cap(b) <= maxScratch {
		*buf = b
		scratch.Put(buf)
	}
	return out, err
}

// maxScratch bounds the buffers kept for reuse, so one huge answer does
// not pin its memory.
const maxScratch = 1 << 20

var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Append appends the JSON encoding of v to dst.
func Append(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case uint64:
		return strconv.AppendUint(dst, x, 10), nil
	case float64:
		return appendFloat(dst, x, 64)
	case float32:
		return appendFloat(dst, float64(x), 32)
	case json.Number:
		return appendNumber(dst, x)
	case map[string]any:
		return appendMap(dst, x)
	case []any:
		return appendList(dst, x)
	case []string:
		return appendStrings(dst, x)
	case []map[string]any:
		return appendMaps(dst, x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

func appendMap(dst []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(dst, "null"...), nil
	}
	var small [16]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		if dst, err = Append(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

func appendList(dst []byte, list []any) ([]byte, error) { return appendEach(dst, list, Append) }

func appendMaps(dst []byte, list []map[string]any) ([]byte, error) {
	return appendEach(dst, list, appendMap)
}

func appendStrings(dst []byte, list []string) ([]byte, error) {
	return appendEach(dst, list, func(dst []byte, s string) ([]byte, error) { return AppendString(dst, s), nil })
}

// appendEach writes a list with elem writing each element; a nil list is
// null, as encoding/json writes it.
func appendEach[T any](dst []byte, list []T, elem func([]byte, T) ([]byte, error)) ([]byte, error) {
	if list == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	var err error
	for i, e := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = elem(dst, e); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

// appendFloat writes f as encoding/json does: the shortest representation
// that reads back as the same value, with an exponent only for very small
// or very large magnitudes, and a two-digit exponent kept short.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, bits))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// e-07 → e-7
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// appendNumber writes a json.Number as its digits; the empty number is 0
// and anything that is not a JSON number is an error, as in encoding/json.
func appendNumber(dst []byte, n json.Number) ([]byte, error) {
	if n == "" {
		return append(dst, '0'), nil
	}
	if !validNumber(string(n)) {
		return dst, fmt.Errorf("json: invalid number literal %q", string(n))
	}
	return append(dst, n...), nil
}

// validNumber reports whether s is a number in JSON's grammar.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

const hex = "0123456789abcdef"

// safe marks the ASCII bytes written as they are inside a string.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendString appends s as a JSON string, escaped as encoding/json does
// (HTML characters, U+2028 and U+2029 as \u escapes; invalid UTF-8 as
// U+FFFD).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
