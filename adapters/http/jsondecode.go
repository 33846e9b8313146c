package httpadapter

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// decodeJSON decodes one JSON value into map[string]any, []any, string,
// bool, nil and numbers: an integer that fits in an int64 becomes an int
// (expr-lang's integer type), a larger one keeps its exact digits as a
// json.Number, and a number with a fraction or an exponent becomes a
// float64.
//
// It gives what encoding/json gives with UseNumber followed by that number
// conversion (fuzzed against it), about twice as fast: the input is checked
// with json.Valid first, so the parser below only walks valid JSON.
func decodeJSON(data []byte) (any, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v) // for the message
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	p := &jsonParser{data: data}
	p.space()
	return p.value(), nil
}

// jsonParser walks JSON already known to be valid.
type jsonParser struct {
	data []byte
	i    int
	// keys interns object keys: a list of objects repeats the same ones.
	keys map[string]string
}

func (p *jsonParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() any {
	switch c := p.data[p.i]; c {
	case '{':
		p.i++
		m := map[string]any{}
		p.space()
		if p.data[p.i] == '}' {
			p.i++
			return m
		}
		for {
			p.space()
			k := p.key()
			p.space()
			p.i++ // ':'
			p.space()
			m[k] = p.value()
			p.space()
			c := p.data[p.i]
			p.i++
			if c == '}' {
				return m
			}
		}
	case '[':
		p.i++
		a := []any{}
		p.space()
		if p.data[p.i] == ']' {
			p.i++
			return a
		}
		for {
			p.space()
			a = append(a, p.value())
			p.space()
			c := p.data[p.i]
			p.i++
			if c == ']' {
				return a
			}
		}
	case '"':
		return p.string()
	case 't':
		p.i += 4
		return true
	case 'f':
		p.i += 5
		return false
	case 'n':
		p.i += 4
		return nil
	}
	return p.number()
}

func (p *jsonParser) string() string {
	start := p.i
	p.i++
	simple := true
	for {
		c := p.data[p.i]
		if c == '"' {
			break
		}
		if c == '\\' {
			simple = false
			p.i += 2
			continue
		}
		if c >= utf8.RuneSelf {
			simple = false
		}
		p.i++
	}
	p.i++
	raw := p.data[start:p.i]
	if simple || utf8.Valid(raw) && !hasBackslash(raw) {
		return string(raw[1 : len(raw)-1])
	}
	// Escapes or invalid UTF-8 (which encoding/json turns into U+FFFD).
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// key reads an object key, reusing the string of an equal earlier key.
func (p *jsonParser) key() string {
	start := p.i
	end := start + 1
	for end < len(p.data) && p.data[end] != '"' && p.data[end] != '\\' {
		end++
	}
	if p.data[end] != '"' || end-start > 64 {
		return p.string()
	}
	if k, ok := p.keys[string(p.data[start+1:end])]; ok {
		p.i = end + 1
		return k
	}
	k := p.string()
	if p.keys == nil {
		p.keys = make(map[string]string, 16)
	}
	if len(p.keys) < 512 {
		p.keys[k] = k
	}
	return k
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

func (p *jsonParser) number() any {
	start := p.i
	integer := true
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c >= '0' && c <= '9' || c == '-' {
			p.i++
			continue
		}
		if c == '.' || c == 'e' || c == 'E' || c == '+' {
			integer = false
			p.i++
			continue
		}
		break
	}
	b := p.data[start:p.i]
	if integer && len(b) <= 18 {
		// At most 18 digits always fit in an int64.
		neg := b[0] == '-'
		if neg {
			b = b[1:]
		}
		var n int64
		for _, c := range b {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return int(n)
	}
	s := string(p.data[start:p.i])
	if integer {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && int64(int(n)) == n {
			return int(n)
		}
		return json.Number(s) // too large for int64: keep every digit
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return json.Number(s)
}
