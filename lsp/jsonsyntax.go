package lsp

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/langschema"
)

// A file in the JSON syntax is read here leniently, as it is while being
// typed: a missing comma, quote or closing brace does not stop the
// reading, which hcl's JSON parser does at the first error. What it
// reads becomes the native blocks the language tree says the objects
// are (an object is a block or an attribute as the schema says), so
// hover and completion answer on the JSON syntax with the code that
// answers on the native one.

// jsonValue is one value of a JSON text: an object, an array, a string,
// or anything else (a number, true, false, null, or a stray word).
type jsonValue struct {
	kind       byte // '{', '[', '"' or 'w'
	start, end int  // byte offsets; end is after the closing character, or where reading stopped
	closed     bool // the string, object or array has its closing character
	text       string
	members    []jsonMember // an object's
	elems      []*jsonValue // an array's
}

// jsonMember is an object's "key": value; value is nil when it is
// missing (the key is being typed).
type jsonMember struct {
	key   *jsonValue
	value *jsonValue
}

// jsonMaxDepth bounds the nesting read: deeper containers are read as
// stray characters, so no text can exhaust the stack.
const jsonMaxDepth = 200

type jsonReader struct {
	src   string
	pos   int
	depth int
	// focus (-1: none) and keepTop say which objects and arrays are
	// skimmed, their extent found but nothing inside them read: those
	// at the depth of a top-level block's body (its labels' objects,
	// for a type with two) that do not hold focus, or under a top-level
	// key keepTop refuses. A request about one place of a large file
	// reads the block there, not the thousand beside it.
	focus   int
	keepTop func(key string) bool
	topKey  string
	// from is where the value being read is named: its member's key, or
	// itself in an array. A skimmed value must not hold focus from there
	// on, so a hover on a label's key reads the block it names.
	from int
}

// skimDepth is the depth of a top-level block's body: the file's object,
// the block type's object of labels, the body.
const skimDepth = 3

// readJSON reads the first value of src, or nil when there is none.
func readJSON(src string) *jsonValue {
	return readJSONAround(src, -1, nil)
}

func readJSONAround(src string, focus int, keepTop func(string) bool) *jsonValue {
	r := &jsonReader{src: src, focus: focus, keepTop: keepTop}
	r.space()
	if r.pos >= len(src) {
		return nil
	}
	return r.value()
}

func (r *jsonReader) space() {
	for r.pos < len(r.src) {
		switch r.src[r.pos] {
		case ' ', '\t', '\r', '\n':
			r.pos++
		default:
			return
		}
	}
}

// value reads the value at r.pos, which is not past the end.
func (r *jsonReader) value() *jsonValue {
	switch c := r.src[r.pos]; {
	case (c == '{' || c == '[') && r.depth < jsonMaxDepth:
		r.depth++
		defer func() { r.depth-- }()
		if r.depth == skimDepth && (r.focus >= 0 || r.keepTop != nil) {
			if v := r.skim(); v != nil {
				return v
			}
		}
		if c == '{' {
			return r.object()
		}
		return r.array()
	case c == '"':
		return r.str()
	}
	return r.word()
}

// str reads a string; one without its closing quote ends at its line's
// end, as JSON strings hold no newline.
func (r *jsonReader) str() *jsonValue {
	v := &jsonValue{kind: '"', start: r.pos}
	i := r.pos + 1
	for i < len(r.src) && r.src[i] != '"' && r.src[i] != '\n' {
		if r.src[i] == '\\' && i+1 < len(r.src) && r.src[i+1] != '\n' {
			i++
		}
		i++
	}
	raw := r.src[v.start+1 : min(i, len(r.src))]
	if i < len(r.src) && r.src[i] == '"' {
		i++
		v.closed = true
	}
	r.pos, v.end = i, i
	v.text = raw
	if v.closed && strings.IndexByte(raw, '\\') >= 0 {
		var s string
		if json.Unmarshal([]byte(r.src[v.start:v.end]), &s) == nil {
			v.text = s
		}
	}
	return v
}

// word reads a number, true, false, null or a stray word; a character
// that can start none of them is read alone.
func (r *jsonReader) word() *jsonValue {
	v := &jsonValue{kind: 'w', start: r.pos}
	i := r.pos
	for i < len(r.src) && !strings.ContainsRune(" \t\r\n,:{}[]\"", rune(r.src[i])) {
		i++
	}
	if i == r.pos {
		i++
	}
	r.pos, v.end, v.text = i, i, r.src[v.start:i]
	return v
}

// object reads an object. A closing bracket ends it unread (the array
// around reads it); anything but a key where a key goes is read and
// dropped.
func (r *jsonReader) object() *jsonValue {
	v := &jsonValue{kind: '{', start: r.pos}
	r.pos++
	for {
		r.space()
		if r.pos >= len(r.src) {
			break
		}
		switch c := r.src[r.pos]; c {
		case '}':
			r.pos++
			v.closed = true
			v.end = r.pos
			return v
		case ']':
			v.end = r.pos
			return v
		case ',', ':':
			r.pos++
			continue
		case '{', '[':
			r.value()
			continue
		}
		r.from = r.pos
		m := jsonMember{key: r.value()}
		if r.depth == 1 {
			r.topKey = m.key.text
		}
		r.space()
		if r.pos < len(r.src) && r.src[r.pos] == ':' {
			r.pos++
			r.space()
			if r.pos < len(r.src) && !strings.ContainsRune(",}]", rune(r.src[r.pos])) {
				m.value = r.value()
			}
		}
		v.members = append(v.members, m)
	}
	v.end = r.pos
	return v
}

// skim passes over the object or array at r.pos, counting brackets
// outside strings, and returns it without its content; or, when it is
// to be read (it holds the focus, or its top-level key is kept), nil
// with r.pos unmoved.
func (r *jsonReader) skim() *jsonValue {
	if r.keepTop != nil && r.keepTop(r.topKey) {
		return nil
	}
	v := &jsonValue{kind: r.src[r.pos], start: r.pos}
	depth := 0
	i := r.pos
	for ; i < len(r.src); i++ {
		switch r.src[i] {
		case '"':
			for i++; i < len(r.src) && r.src[i] != '"' && r.src[i] != '\n'; i++ {
				if r.src[i] == '\\' && i+1 < len(r.src) && r.src[i+1] != '\n' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		if depth == 0 {
			i++
			v.closed = true
			break
		}
	}
	v.end = min(i, len(r.src))
	if r.focus >= r.from && (v.holds(r.focus) || r.focus <= v.start) {
		return nil
	}
	r.pos = v.end
	return v
}

// array reads an array; a closing brace ends it unread.
func (r *jsonReader) array() *jsonValue {
	v := &jsonValue{kind: '[', start: r.pos}
	r.pos++
	for {
		r.space()
		if r.pos >= len(r.src) {
			break
		}
		switch r.src[r.pos] {
		case ']':
			r.pos++
			v.closed = true
			v.end = r.pos
			return v
		case '}':
			v.end = r.pos
			return v
		case ',', ':':
			r.pos++
			continue
		}
		r.from = r.pos
		v.elems = append(v.elems, r.value())
	}
	v.end = r.pos
	return v
}

// holds says offset is inside v: between a string's quotes or a
// container's brackets, or at the end of one not closed.
func (v *jsonValue) holds(offset int) bool {
	if v.kind == 'w' {
		return v.start <= offset && offset <= v.end
	}
	return v.start < offset && (offset < v.end || !v.closed && offset == v.end)
}

// jsonSyntax is a JSON-syntax file read as native blocks.
type jsonSyntax struct {
	src  string
	root *jsonValue
	body *hclsyntax.Body
	// objects says what each object read as a block's body or as the
	// labels of a block type is; other objects are attributes' values.
	objects map[*jsonValue]jsonObject
}

// jsonObject is what an object is: the body of block (nil for the file's
// top level), or the labels of a block of type node, with those before
// them.
type jsonObject struct {
	body   bool
	block  *hclsyntax.Block
	node   *langschema.Node
	labels []string
}

// readJSONSyntax reads src as native blocks, skimming (see jsonReader)
// what does not hold focus (-1: read all) or is under a top-level key
// keepTop refuses (nil: none).
func readJSONSyntax(src string, focus int, keepTop func(string) bool) *jsonSyntax {
	j := &jsonSyntax{src: src, root: readJSONAround(src, focus, keepTop), objects: map[*jsonValue]jsonObject{}}
	j.body = &hclsyntax.Body{Attributes: hclsyntax.Attributes{}}
	if j.root != nil && j.root.kind == '{' {
		j.objects[j.root] = jsonObject{body: true}
		j.body = j.bodyOf(j.root, langschema.Tree(), nil)
	}
	return j
}

func (j *jsonSyntax) rng(from, to int) hcl.Range {
	return hcl.Range{Start: hcl.Pos{Byte: from}, End: hcl.Pos{Byte: to}}
}

// keyRange is a key's name, without its quotes.
func (j *jsonSyntax) keyRange(k *jsonValue) hcl.Range {
	if k.kind != '"' {
		return j.rng(k.start, k.end)
	}
	end := k.end
	if k.closed {
		end--
	}
	return j.rng(k.start+1, end)
}

// bodyOf reads an object as the body of a block of node (nil: unknown,
// all attributes); also is what every kind of a backend takes.
func (j *jsonSyntax) bodyOf(obj *jsonValue, node, also *langschema.Node) *hclsyntax.Body {
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, SrcRange: j.rng(obj.start, obj.end)}
	for _, m := range obj.members {
		if m.value == nil {
			continue
		}
		var child *langschema.Node
		if node != nil {
			if child = node.Block(m.key.text); child == nil && also != nil {
				child = also.Block(m.key.text)
			}
		}
		if child != nil && (m.value.kind == '{' || m.value.kind == '[') {
			body.Blocks = append(body.Blocks, j.blocks(child, m.key, m.value, nil, nil)...)
			continue
		}
		body.Attributes[m.key.text] = &hclsyntax.Attribute{
			Name:      m.key.text,
			Expr:      j.expr(m.value),
			SrcRange:  j.rng(m.key.start, m.value.end),
			NameRange: j.keyRange(m.key),
		}
	}
	return body
}

// blocks reads the blocks of type node written under key: its labels
// are the keys of nested objects, and an array holds several.
func (j *jsonSyntax) blocks(node *langschema.Node, key, v *jsonValue, labels []string, labelRanges []hcl.Range) hclsyntax.Blocks {
	var out hclsyntax.Blocks
	switch {
	case v.kind == '[':
		for _, e := range v.elems {
			out = append(out, j.blocks(node, key, e, labels, labelRanges)...)
		}
	case v.kind != '{':
	case len(labels) < len(node.Labels):
		j.objects[v] = jsonObject{node: node, labels: labels}
		for _, m := range v.members {
			if m.value != nil {
				out = append(out, j.blocks(node, key, m.value, append(labels[:len(labels):len(labels)], m.key.text),
					append(labelRanges[:len(labelRanges):len(labelRanges)], j.keyRange(m.key)))...)
			}
		}
	default:
		bodyNode, also := node, (*langschema.Node)(nil)
		if node.ByKind != nil && len(labels) > 0 {
			if k, ok := node.ByKind[labels[0]]; ok {
				bodyNode, also = k, node
			}
		}
		closing := j.rng(v.end, v.end)
		if v.closed {
			closing = j.rng(v.end-1, v.end)
		}
		b := &hclsyntax.Block{
			Type:            node.Type,
			Labels:          labels,
			Body:            j.bodyOf(v, bodyNode, also),
			TypeRange:       j.keyRange(key),
			LabelRanges:     labelRanges,
			OpenBraceRange:  j.rng(v.start, v.start+1),
			CloseBraceRange: closing,
		}
		j.objects[v] = jsonObject{body: true, block: b}
		out = append(out, b)
	}
	return out
}

// expr is a value as an expression: a string, number or boolean as its
// value (a string holding ${ or %{ is a template, unknown here), an
// object or array unknown; its range is the value's text.
func (j *jsonSyntax) expr(v *jsonValue) hclsyntax.Expression {
	val := cty.DynamicVal
	switch {
	case v.kind == '"' && !strings.Contains(v.text, "${") && !strings.Contains(v.text, "%{"):
		val = cty.StringVal(v.text)
	case v.text == "true" || v.text == "false":
		val = cty.BoolVal(v.text == "true")
	case v.text == "null":
		val = cty.NullVal(cty.DynamicPseudoType)
	case v.kind == 'w':
		if f, ok := new(big.Float).SetString(v.text); ok {
			val = cty.NumberVal(f)
		}
	}
	return &hclsyntax.LiteralValueExpr{Val: val, SrcRange: j.rng(v.start, v.end)}
}

// jsonSpot is what the cursor is in: a key (being typed, or where one
// may be typed) of object, or a string value of the member named member.
type jsonSpot struct {
	object *jsonValue
	key    *jsonValue // the key under the cursor; nil where a key may start
	inKey  bool
	str    *jsonValue
	member string
}

// at finds the cursor's spot.
func (j *jsonSyntax) at(offset int) jsonSpot {
	var spot jsonSpot
	v := j.root
	for v != nil {
		switch v.kind {
		case '"':
			if v.holds(offset) {
				spot.str = v
			}
			return spot
		case '[':
			if !v.holds(offset) {
				return spot
			}
			var next *jsonValue
			for _, e := range v.elems {
				if e.holds(offset) {
					next = e
				}
			}
			v = next
		case '{':
			if !v.holds(offset) {
				return spot
			}
			spot.object = v
			var next *jsonValue
			for _, m := range v.members {
				switch {
				case m.key.holds(offset):
					spot.key, spot.inKey = m.key, true
					return spot
				case m.value != nil && m.value.holds(offset):
					spot.member, next = m.key.text, m.value
				}
			}
			if next == nil {
				// Between members: a key may start after the opening
				// brace, a comma, or on a line of its own (a comma
				// forgotten), not after a key or a value.
				before := strings.TrimRight(j.src[v.start:offset], " \t")
				last := before[len(before)-1]
				spot.inKey = last == '{' || last == ',' || last == '\n'
				return spot
			}
			v = next
		default:
			return spot
		}
	}
	return spot
}

// nativeBefore is the line the native syntax would have before the
// cursor in a string value: `name = "` and the string's text so far,
// which is what completion and hover read (the program attributes, the
// ${ } and {{ }} around the cursor).
func (j *jsonSyntax) nativeBefore(spot jsonSpot, offset int) (string, bool) {
	if spot.str == nil || spot.member == "" {
		return "", false
	}
	return spot.member + ` = "` + j.src[spot.str.start+1:offset], true
}
