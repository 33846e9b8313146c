package mcp

import (
	"encoding/json"
	"unicode/utf8"
)

// jsonReader reads one JSON text in place: it checks the grammar as
// encoding/json does (json.Valid; FuzzDecodeMatchesReference holds them
// together, nesting limit included) and hands values out as slices of the
// text, so that a request body is checked and decoded in a single pass
// without reflection. Every method reports false on a syntax error, after
// which the reader is abandoned.
type jsonReader struct {
	b []byte
	i int
}

// maxJSONDepth is encoding/json's nesting limit: deeper input is not JSON
// to it, so it must not be JSON here either.
const maxJSONDepth = 10000

func (r *jsonReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte (0 at the end).
func (r *jsonReader) peek() byte {
	r.space()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// atEnd reports whether only white space is left.
func (r *jsonReader) atEnd() bool {
	r.space()
	return r.i == len(r.b)
}

// raw reads one value of a container at depth and returns its text.
func (r *jsonReader) raw(depth int) ([]byte, bool) {
	r.space()
	start := r.i
	ok := r.skip(depth)
	return r.b[start:r.i], ok
}

// skip checks one value of a container at depth and moves past it.
func (r *jsonReader) skip(depth int) bool {
	switch c := r.peek(); {
	case c == '{':
		return r.skipObject(depth + 1)
	case c == '[':
		return r.skipArray(depth + 1)
	case c == '"':
		_, _, ok := r.str()
		return ok
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	}
	return false
}

// object reads the object at r.i (its depth given), calling member with
// each key and the reader at the key's value, which member must consume.
// Keys are unquoted as encoding/json unquotes them.
func (r *jsonReader) object(depth int, member func(key []byte) bool) bool {
	if depth > maxJSONDepth {
		return false
	}
	r.i++ // '{'
	if r.peek() == '}' {
		r.i++
		return true
	}
	for {
		if r.peek() != '"' {
			return false
		}
		lit, plain, ok := r.str()
		if !ok || r.peek() != ':' {
			return false
		}
		r.i++
		r.space()
		key := lit[1 : len(lit)-1]
		if !plain {
			key = []byte(unquote(lit, false))
		}
		if !member(key) {
			return false
		}
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

// skipObject is object without looking at keys or values.
func (r *jsonReader) skipObject(depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	r.i++ // '{'
	if r.peek() == '}' {
		r.i++
		return true
	}
	for {
		if r.peek() != '"' {
			return false
		}
		if _, _, ok := r.str(); !ok || r.peek() != ':' {
			return false
		}
		r.i++
		if !r.skip(depth) {
			return false
		}
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

func (r *jsonReader) skipArray(depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	r.i++ // '['
	if r.peek() == ']' {
		r.i++
		return true
	}
	for {
		if !r.skip(depth) {
			return false
		}
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return true
		default:
			return false
		}
	}
}

func (r *jsonReader) literal(word string) bool {
	if len(r.b)-r.i < len(word) || string(r.b[r.i:r.i+len(word)]) != word {
		return false
	}
	r.i += len(word)
	return true
}

// plainByte marks the bytes a string holds as they are: printable ASCII
// but the quote and the backslash. str skips runs of them with one table
// load a byte, and leaves the rest (the end, escapes, control bytes,
// UTF-8) to its switch.
var plainByte = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads the string literal at r.i and returns it with its quotes.
// plain means no escapes and valid UTF-8: the value is the text between
// the quotes.
func (r *jsonReader) str() (lit []byte, plain, ok bool) {
	start := r.i
	r.i++ // '"'
	plain = true
	for r.i < len(r.b) {
		b, i := r.b, r.i // locals: the loop then keeps them in registers
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		if r.i = i; i == len(b) {
			break
		}
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start:r.i], plain, true
		case c == '\\':
			if !r.escape() {
				return nil, false, false
			}
			plain = false
		case c < ' ':
			return nil, false, false
		default: // the rest of ASCII is plainByte's
			rn, size := utf8.DecodeRune(r.b[r.i:])
			if rn == utf8.RuneError && size == 1 {
				plain = false
			}
			r.i += size
		}
	}
	return nil, false, false
}

// escape checks one backslash escape and moves past it.
func (r *jsonReader) escape() bool {
	if r.i+1 >= len(r.b) {
		return false
	}
	switch r.b[r.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		r.i += 2
		return true
	case 'u':
		if r.i+6 > len(r.b) {
			return false
		}
		for _, h := range r.b[r.i+2 : r.i+6] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		r.i += 6
		return true
	}
	return false
}

// number reads a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *jsonReader) number() bool {
	if r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case r.i < len(r.b) && r.b[r.i] >= '1' && r.b[r.i] <= '9':
		r.digits()
	default:
		return false
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if r.digits() == 0 {
			return false
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if r.digits() == 0 {
			return false
		}
	}
	return true
}

func (r *jsonReader) digits() int {
	start := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	return r.i - start
}

// unquote is the value of a checked string literal. A plain one is its
// text; any other goes through encoding/json, which resolves escapes and
// turns invalid UTF-8 and lone surrogates into U+FFFD.
func unquote(lit []byte, plain bool) string {
	if plain {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	_ = json.Unmarshal(lit, &s) // cannot fail: lit was checked
	return s
}

// objectMember finds the value of key in obj, a checked JSON text, as
// decoding it into a map would: keys unquoted and compared exactly, the
// last of duplicates winning, nothing found when obj is not an object.
func objectMember(obj []byte, key string) (val []byte, found bool) {
	r := jsonReader{b: obj}
	if r.peek() != '{' {
		return nil, false
	}
	ok := r.object(1, func(k []byte) bool {
		v, ok := r.raw(1)
		if ok && string(k) == key {
			val, found = v, true
		}
		return ok
	})
	if !ok || !r.atEnd() {
		return nil, false
	}
	return val, found
}
