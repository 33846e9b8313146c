package hostconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// node is one JSON value of a parsed file with its place in the text, so
// that an edit can replace or extend it and leave every other byte alone.
type node struct {
	kind       byte // '{', '[', '"' or 'l' (number, true, false, null)
	start, end int  // the value's bytes: src[start:end]
	members    []*member
	// closing is the offset of the closing '}' of an object.
	closing int
	// trailingComma is the offset of a comma after the last member (JSON
	// with comments allows one), or -1.
	trailingComma int
	value         any // the decoded value, comments left out
}

// member is one "key": value of an object.
type member struct {
	key      string
	keyStart int
	value    *node
}

// parser reads JSON with comments (// and /* */) and trailing commas, as
// VS Code's and Cursor's files may hold, keeping offsets.
type parser struct {
	src []byte
	pos int
}

// SyntaxError says where a file stops being JSON.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

func parse(src []byte) (*node, error) {
	p := &parser{src: src}
	if err := p.skip(); err != nil {
		return nil, err
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.pos < len(src) {
		return nil, p.errorf("unexpected %q after the document", src[p.pos])
	}
	return n, nil
}

func (p *parser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range p.src[:min(p.pos, len(p.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// skip passes white space and comments.
func (p *parser) skip() error {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			if i := bytes.IndexByte(p.src[p.pos:], '\n'); i >= 0 {
				p.pos += i + 1
			} else {
				p.pos = len(p.src)
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			i := bytes.Index(p.src[p.pos+2:], []byte("*/"))
			if i < 0 {
				return p.errorf("unterminated comment")
			}
			p.pos += i + 4
		case c == 0xEF && bytes.HasPrefix(p.src[p.pos:], []byte("\xEF\xBB\xBF")) && p.pos == 0:
			p.pos += 3 // a byte order mark, as Windows editors write
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value() (*node, error) {
	if p.pos >= len(p.src) {
		return nil, p.errorf("unexpected end of file")
	}
	switch p.src[p.pos] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.str()
	default:
		return p.literal()
	}
}

func (p *parser) object() (*node, error) {
	n := &node{kind: '{', start: p.pos, trailingComma: -1}
	obj := map[string]any{}
	p.pos++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			break
		}
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return nil, p.errorf("expected a quoted key or '}'")
		}
		if len(n.members) > 0 && n.trailingComma < 0 {
			return nil, p.errorf("expected ',' or '}'")
		}
		n.trailingComma = -1
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.errorf("expected ':' after a key")
		}
		p.pos++
		if err := p.skip(); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		key := k.value.(string)
		n.members = append(n.members, &member{key: key, keyStart: k.start, value: v})
		obj[key] = v.value
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			n.trailingComma = p.pos
			p.pos++
		}
	}
	n.closing = p.pos
	p.pos++
	n.end, n.value = p.pos, obj
	return n, nil
}

func (p *parser) array() (*node, error) {
	n := &node{kind: '[', start: p.pos, trailingComma: -1}
	arr := []any{}
	p.pos++
	comma := true
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			break
		}
		if !comma {
			return nil, p.errorf("expected ',' or ']'")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v.value)
		if err := p.skip(); err != nil {
			return nil, err
		}
		comma = p.pos < len(p.src) && p.src[p.pos] == ','
		if comma {
			p.pos++
		}
	}
	p.pos++
	n.end, n.value = p.pos, arr
	return n, nil
}

func (p *parser) str() (*node, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal(p.src[start:p.pos], &s); err != nil {
				p.pos = start
				return nil, p.errorf("invalid string")
			}
			return &node{kind: '"', start: start, end: p.pos, value: s}, nil
		case '\n':
			p.pos = start
			return nil, p.errorf("a string does not end on its line")
		}
		p.pos++
	}
	p.pos = start
	return nil, p.errorf("unterminated string")
}

func (p *parser) literal() (*node, error) {
	start := p.pos
	for p.pos < len(p.src) && !strings.ContainsRune(" \t\r\n,]}/", rune(p.src[p.pos])) {
		p.pos++
	}
	var v any
	if p.pos == start || json.Unmarshal(p.src[start:p.pos], &v) != nil {
		p.pos = start
		return nil, p.errorf("expected a value")
	}
	return &node{kind: 'l', start: start, end: p.pos, value: v}, nil
}

// lookup returns the last member named key (later keys win, as in
// JSON.parse), or nil.
func (n *node) lookup(key string) *member {
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i]
		}
	}
	return nil
}
