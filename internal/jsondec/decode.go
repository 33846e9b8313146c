// Package jsondec decodes JSON text into Go's generic values in one
// checking pass, for the answers of backends and the arguments of clients.
// It gives what encoding/json gives (fuzzed against it) but reads the text
// in place: no reader buffer that grows with the input, and strings without
// escapes are slices of the text rather than copies. Besides the standard
// library it imports only the leaf internal/rule, for the number rule.
package jsondec

import (
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// maxDepth is encoding/json's nesting limit, kept so that both accept the
// same documents.
const maxDepth = 10000

// Decode decodes one JSON value into map[string]any, []any, string,
// bool, nil and numbers: an integer that fits in an int64 becomes an int
// (expr-lang's integer type); every other number (a larger integer, one
// with a fraction or an exponent, -0) keeps the digits the API wrote as a
// json.Number, so that 304.80 is passed on as 304.80, not 304.8, and
// 12345678901234567.89 is not rounded to a double. Programs convert a
// json.Number only where they compute with it (eval.NumberOf).
//
// It gives what encoding/json gives with UseNumber followed by that number
// conversion (fuzzed against it), checking and decoding in one pass. Strings
// without escapes are slices of text, so an answer's strings cost no copies;
// the caller keeps text anyway (it is the answer's text field).
func Decode(text string) (any, error) {
	return decode(&jsonParser{s: text})
}

// DecodeNumbers is Decode with every number a json.Number holding the
// digits as written, as encoding/json gives with UseNumber: for values that
// are validated (against a JSON Schema) before anything computes with them.
func DecodeNumbers(text string) (any, error) {
	return decode(&jsonParser{s: text, numbers: true})
}

func decode(p *jsonParser) (any, error) {
	text := p.s
	p.space()
	v, ok := p.value(0)
	p.space()
	if ok && p.i != len(p.s) {
		return nil, errors.New("more than one JSON value, or text after it")
	}
	if !ok {
		var v any
		err := json.Unmarshal([]byte(text), &v) // for its message
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	return v, nil
}

// jsonParser reads JSON from s; each method reports false on a syntax
// error, after which the parser is abandoned.
type jsonParser struct {
	s       string
	i       int
	numbers bool // every number a json.Number
}

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte (0 at the end).
func (p *jsonParser) next() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *jsonParser) value(depth int) (any, bool) {
	if p.i >= len(p.s) {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, ok := p.string()
		return s, ok
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *jsonParser) object(depth int) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	p.i++ // '{'
	m := map[string]any{}
	if p.next() == '}' {
		p.i++
		return m, true
	}
	for {
		if p.next() != '"' {
			return nil, false
		}
		k, ok := p.string()
		if !ok || p.next() != ':' {
			return nil, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		m[k] = v
		switch p.next() {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *jsonParser) array(depth int) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	p.i++ // '['
	a := []any{}
	if p.next() == ']' {
		p.i++
		return a, true
	}
	for {
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		switch p.next() {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, true
		default:
			return nil, false
		}
	}
}

func (p *jsonParser) literal(word string) bool {
	if len(p.s)-p.i < len(word) || p.s[p.i:p.i+len(word)] != word {
		return false
	}
	p.i += len(word)
	return true
}

// string reads a string literal. One without escapes and in valid UTF-8 is
// a slice of the text; any other goes through encoding/json, which turns
// invalid UTF-8 into U+FFFD.
func (p *jsonParser) string() (string, bool) {
	start := p.i
	p.i++ // '"'
	plain := true
	for {
		if p.i >= len(p.s) {
			return "", false
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			lit := p.s[start:p.i]
			if plain {
				return lit[1 : len(lit)-1], true
			}
			var s string
			if json.Unmarshal([]byte(lit), &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			if !p.escape() {
				return "", false
			}
			plain = false
		case c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			p.i += size
		}
	}
}

// escape checks one backslash escape and moves past it.
func (p *jsonParser) escape() bool {
	if p.i+1 >= len(p.s) {
		return false
	}
	switch p.s[p.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.i += 2
		return true
	case 'u':
		if p.i+6 > len(p.s) {
			return false
		}
		for _, h := range []byte(p.s[p.i+2 : p.i+6]) {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		p.i += 6
		return true
	}
	return false
}

// number reads a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *jsonParser) number() (any, bool) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && p.s[p.i] >= '1' && p.s[p.i] <= '9':
		p.digits()
	default:
		return nil, false
	}
	integer := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return nil, false
		}
		integer = false
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return nil, false
		}
		integer = false
	}
	if p.numbers {
		return json.Number(p.s[start:p.i]), true
	}
	return numberValue(p.s[start:p.i], integer), true
}

func (p *jsonParser) digits() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// numberValue converts a valid JSON number: an int when it is whole and
// fits (rule.Int), else its digits. -0 keeps its digits too: no int is
// negative zero.
func numberValue(s string, integer bool) any {
	if integer && s != "-0" {
		if n, ok := rule.Int(s); ok {
			return n
		}
	}
	return json.Number(s)
}
