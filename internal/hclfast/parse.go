// Package hclfast parses the common part of HCL's native syntax into the
// very AST hclsyntax.ParseConfig builds (same node types, field values,
// ranges and cty values), several times faster and allocating far
// less.
//
// hclsyntax lexes a whole file into a slice of tokens before parsing it;
// on a large configuration those slices and the recursive descent through
// every precedence level were most of a load's time and memory. Here the
// parser lexes as it goes, one token of lookahead, from the bytes.
//
// It does not report errors: on anything it does not handle, and on every
// syntax error, it gives up (ok=false) and the caller parses with hclsyntax,
// whose diagnostics are the reference. Template directives, for and splat
// expressions, argument expansion, strip markers, CR line ends and rarer
// Unicode (whose columns need grapheme clusters) are left to hclsyntax.
package hclfast

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ParseBody parses src, a whole configuration or a run of whole top-level
// items of one starting at start (a line start), as hclsyntax.ParseConfig
// would, and returns the file's body. ok is false when the text holds
// anything this parser does not handle or any syntax error; the body is
// then nil and the caller should use hclsyntax.
func ParseBody(src []byte, filename string, start hcl.Pos) (body *hclsyntax.Body, ok bool) {
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return nil, false // hclsyntax skips a BOM and moves the start
	}
	if bytes.IndexByte(src, '\r') >= 0 {
		return nil, false // CR LF is one column to hclsyntax; rare, left to it
	}
	c := cachePool.Get().(*caches)
	p := &parser{src: src, filename: filename, base: start, nl: true, caches: c}
	p.cur = cursor{line: start.Line, col: start.Column, lineCol: start.Column, lineASCII: true}
	defer func() {
		c.release()
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			body, ok = nil, false
		}
	}()
	return p.parseBody(tEOF), true
}

// bailout is the panic that unwinds a parse that cannot go on.
type bailout struct{}

func bail() { panic(bailout{}) }

type tokType uint8

const (
	tEOF tokType = iota
	tNewline
	tIdent
	tNumber
	tOQuote
	tOHeredoc
	tOBrace
	tCBrace
	tOBrack
	tCBrack
	tOParen
	tCParen
	tDot
	tComma
	tEqual
	tColon
	tQuestion
	tBang
	tPlus
	tMinus
	tStar
	tSlash
	tPercent
	tLT
	tGT
	tLE
	tGE
	tEqEq
	tNE
	tAnd
	tOr
)

// token is a lexed token: its kind and where it is (offsets into src).
type token struct {
	typ        tokType
	start, end int
}

// cursor is a position in src whose line and column are known; columns
// count characters, as hclsyntax's do for the text this parser accepts.
type cursor struct {
	off       int
	line, col int
	lineStart int // offset of the line's first byte
	lineCol   int // column of lineStart (the start column on the first line)
	// lineASCII: the line from lineStart to off is ASCII, one column a
	// byte, so an earlier offset on it is found without scanning again.
	lineASCII bool
}

type parser struct {
	src      []byte
	filename string
	base     hcl.Pos

	i  int  // offset of the next byte to lex
	nl bool // whether newlines are tokens (hclsyntax's newline stack top)

	peeked  bool
	peekAt  int
	peekNL  bool
	peekTok token
	prev    token // last token read
	prevSet bool
	cur     cursor

	*caches

	blocks slab[hclsyntax.Block]
	bodies slab[hclsyntax.Body]
}

// slab hands out pointers into chunks, for the nodes that are many and
// that the tree's users keep none of on their own (blocks and bodies: a
// body they keep is a copy hcl's PartialContent makes); nodes they keep
// (expressions, attributes) are allocated alone, as a chunk is kept whole
// for any one node in it. Chunks start small and double, so that a small
// piece of a file does not carry much unused room.
type slab[T any] struct {
	buf  []T
	next int
}

func (s *slab[T]) new() *T {
	if len(s.buf) == 0 {
		s.next = min(max(2*s.next, 4), 64)
		s.buf = make([]T, s.next)
	}
	v := &s.buf[0]
	s.buf = s.buf[1:]
	return v
}

// caches are what parses share: buffers, and the names, short strings
// and numbers, which repeat through a configuration and across the pieces
// of one, made once each (strings and cty values are immutable).
type caches struct {
	names    map[string]string
	strs     map[string]cty.Value
	nums     map[string]cty.Value
	scratch  []byte
	segments []segment
}

var cachePool = sync.Pool{New: func() any {
	return &caches{names: map[string]string{}, strs: map[string]cty.Value{}, nums: map[string]cty.Value{}}
}}

// release returns c to the pool, emptied when it has grown large (a file
// of many unique names) and without references into the parsed tree.
func (c *caches) release() {
	const most = 1 << 13
	if len(c.names) > most {
		clear(c.names)
	}
	if len(c.strs) > most {
		clear(c.strs)
	}
	if len(c.nums) > most {
		clear(c.nums)
	}
	clear(c.segments[:cap(c.segments)])
	c.segments = c.segments[:0]
	if cap(c.scratch) > 1<<16 {
		c.scratch = nil
	}
	cachePool.Put(c)
}

// advanceWide moves the cursor to end over text without a line feed that
// holds characters outside ASCII, each one column when hclsyntax counts
// it so (singleColumn), else the parse gives up.
func (p *parser) advanceWide(end int) {
	c := &p.cur
	for c.off < end {
		if b := p.src[c.off]; b < utf8.RuneSelf {
			c.off++
			c.col++
			continue
		}
		r, n := utf8.DecodeRune(p.src[c.off:])
		if r == utf8.RuneError && n <= 1 || !singleColumn(r) {
			bail()
		}
		c.off += n
		c.col++
		c.lineASCII = false
	}
}

// isASCII reports whether b is all ASCII, eight bytes at a time.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pos returns the position of offset off.
func (p *parser) pos(off int) hcl.Pos {
	c := &p.cur
	if off < c.lineStart {
		// Back to an earlier line: count the lines between.
		c.line -= bytes.Count(p.src[off:c.lineStart], []byte{'\n'})
		ls := bytes.LastIndexByte(p.src[:off], '\n') + 1
		c.lineStart = ls
		c.lineCol = 1
		if ls == 0 {
			c.lineCol = p.base.Column
		}
		c.off, c.col, c.lineASCII = ls, c.lineCol, true
	} else if off < c.off {
		if c.lineASCII {
			c.col -= c.off - off
			c.off = off
			return hcl.Pos{Line: c.line, Column: c.col, Byte: p.base.Byte + off}
		}
		c.off, c.col, c.lineASCII = c.lineStart, c.lineCol, true
	}
	src := p.src
	for c.off < off {
		line := src[c.off:off]
		end := bytes.IndexByte(line, '\n')
		if end < 0 {
			end = len(line)
		}
		if isASCII(line[:end]) {
			c.off += end
			c.col += end
		} else {
			p.advanceWide(c.off + end)
		}
		if c.off < off { // at a line feed
			c.line++
			c.off++
			c.col = 1
			c.lineStart, c.lineCol, c.lineASCII = c.off, 1, true
		}
	}
	return hcl.Pos{Line: c.line, Column: c.col, Byte: p.base.Byte + off}
}

// singleColumn reports whether r is a character hclsyntax surely counts
// as one column whatever surrounds it: not combining, not joining, not a
// part of Hangul syllables, emoji sequences or regional-indicator pairs.
// Other characters are rare in configurations and left to hclsyntax.
func singleColumn(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0x2FF, // Latin-1 and Latin extended
		r >= 0x370 && r <= 0x482,   // Greek, Cyrillic letters
		r >= 0x2010 && r <= 0x2027, // dashes, quotes, ellipsis
		r >= 0x2030 && r <= 0x205E,
		r >= 0x20A0 && r <= 0x20C0,                             // currency
		r >= 0x2100 && r <= 0x2BFF,                             // letterlike, arrows, math, boxes
		r >= 0x3041 && r <= 0x3096, r >= 0x30A0 && r <= 0x30FF, // kana
		r >= 0x4E00 && r <= 0x9FFF: // CJK ideographs
		return true
	}
	return false
}

func (p *parser) rng(start, end int) hcl.Range {
	return hcl.Range{Filename: p.filename, Start: p.pos(start), End: p.pos(end)}
}

func (p *parser) tokRange(t token) hcl.Range { return p.rng(t.start, t.end) }

// peek returns the next token in the current newline mode.
func (p *parser) peek() token {
	if p.peeked && p.peekAt == p.i && p.peekNL == p.nl {
		return p.peekTok
	}
	t := p.lex()
	p.peeked, p.peekAt, p.peekNL, p.peekTok = true, p.i, p.nl, t
	return t
}

func (p *parser) read() token {
	t := p.peek()
	p.i = t.end
	p.prev, p.prevSet = t, true
	return t
}

// expect reads a token of type typ, or gives up.
func (p *parser) expect(typ tokType) token {
	t := p.read()
	if t.typ != typ {
		bail()
	}
	return t
}

// lex lexes the token at p.i in the main mode, skipping spaces, comments
// and (when newlines are not tokens) newlines. A line comment ending in a
// newline stands for that newline, with the comment's range, as in
// hclsyntax's peeker.
func (p *parser) lex() token {
	src := p.src
	i := p.i
	for {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i >= len(src) {
			return token{typ: tEOF, start: len(src), end: len(src)}
		}
		c := src[i]
		switch {
		case c == '\n':
			if p.nl {
				return token{typ: tNewline, start: i, end: i + 1}
			}
			i++
			continue
		case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := bytes.IndexByte(src[i:], '\n')
			if end < 0 {
				i = len(src) // no newline: the comment is skipped
				continue
			}
			if p.nl {
				return token{typ: tNewline, start: i, end: i + end + 1}
			}
			i += end + 1
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				bail()
			}
			i += end + 4
			continue
		}
		return p.lexToken(i)
	}
}

// lexToken lexes the token starting at i, which is not a space, newline
// or comment.
func (p *parser) lexToken(i int) token {
	src := p.src
	c := src[i]
	one := func(t tokType) token { return token{typ: t, start: i, end: i + 1} }
	two := func(t tokType) token { return token{typ: t, start: i, end: i + 2} }
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		j := i + 1
		for j < len(src) && isIdentCont(src[j]) {
			j++
		}
		if j < len(src) && src[j] >= utf8.RuneSelf {
			bail() // a Unicode identifier character
		}
		return token{typ: tIdent, start: i, end: j}
	case c >= '0' && c <= '9':
		return token{typ: tNumber, start: i, end: numberEnd(src, i)}
	case c == '"':
		return one(tOQuote)
	case c == '{':
		return one(tOBrace)
	case c == '}':
		return one(tCBrace)
	case c == '[':
		return one(tOBrack)
	case c == ']':
		return one(tCBrack)
	case c == '(':
		return one(tOParen)
	case c == ')':
		return one(tCParen)
	case c == '.':
		if next == '.' {
			bail() // ... expansion
		}
		return one(tDot)
	case c == ',':
		return one(tComma)
	case c == '=':
		switch next {
		case '=':
			return two(tEqEq)
		case '>':
			bail() // => belongs to for expressions
		}
		return one(tEqual)
	case c == ':':
		if next == ':' {
			bail() // namespaced function
		}
		return one(tColon)
	case c == '?':
		return one(tQuestion)
	case c == '!':
		if next == '=' {
			return two(tNE)
		}
		return one(tBang)
	case c == '+':
		return one(tPlus)
	case c == '-':
		return one(tMinus)
	case c == '*':
		return one(tStar)
	case c == '/':
		return one(tSlash)
	case c == '%':
		return one(tPercent)
	case c == '<':
		switch next {
		case '=':
			return two(tLE)
		case '<':
			return p.lexHeredocOpen(i)
		}
		return one(tLT)
	case c == '>':
		if next == '=' {
			return two(tGE)
		}
		return one(tGT)
	case c == '&' && next == '&':
		return two(tAnd)
	case c == '|' && next == '|':
		return two(tOr)
	}
	bail()
	panic("unreachable")
}

// lexHeredocOpen lexes <<EOT or <<-EOT and its newline.
func (p *parser) lexHeredocOpen(i int) token {
	src := p.src
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	if j >= len(src) || !(src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] == '_') {
		bail()
	}
	for j < len(src) && isIdentCont(src[j]) {
		j++
	}
	if j >= len(src) || src[j] != '\n' {
		bail()
	}
	return token{typ: tOHeredoc, start: i, end: j + 1}
}

func isIdentCont(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// numberEnd returns the end of the number literal at i: a digit, then
// digits, dots and exponents, not ending in a dot (the lexer's longest
// match).
func numberEnd(src []byte, i int) int {
	j := i + 1
	end := j
	for j < len(src) {
		switch c := src[j]; {
		case isDigit(c):
			j++
			end = j
		case c == '.':
			j++
		case c == 'e' || c == 'E':
			k := j + 1
			if k < len(src) && (src[k] == '+' || src[k] == '-') {
				k++
			}
			if k < len(src) && isDigit(src[k]) {
				j = k + 1
				end = j
				continue
			}
			return end
		default:
			return end
		}
	}
	return end
}

// parseBody parses body items up to the end token (a closing brace or the
// end of the text), as hclsyntax's ParseBody.
func (p *parser) parseBody(end tokType) *hclsyntax.Body {
	var startRange hcl.Range
	if p.prevSet {
		startRange = p.tokRange(p.prev)
	} else {
		startRange = p.tokRange(p.peek())
	}
	attrs := hclsyntax.Attributes{}
	blocks := hclsyntax.Blocks{}
	var endRange hcl.Range
	for {
		next := p.peek()
		if next.typ == end {
			endRange = p.tokRange(next)
			p.read()
			break
		}
		switch next.typ {
		case tNewline:
			p.read()
			continue
		case tIdent:
		default:
			bail()
		}
		ident := p.read()
		switch p.peek().typ {
		case tEqual:
			a := p.parseAttribute(ident, false)
			if _, dup := attrs[a.Name]; dup {
				bail()
			}
			attrs[a.Name] = a
		case tOQuote, tOBrace, tIdent:
			blocks = append(blocks, p.parseBlock(ident))
		default:
			bail()
		}
	}
	b := p.bodies.new()
	*b = hclsyntax.Body{
		Attributes: attrs,
		Blocks:     blocks,
		SrcRange:   hcl.RangeBetween(startRange, endRange),
		EndRange:   hcl.Range{Filename: p.filename, Start: endRange.End, End: endRange.End},
	}
	return b
}

func (p *parser) parseAttribute(ident token, singleLine bool) *hclsyntax.Attribute {
	eq := p.read()
	expr := p.parseExpression()
	endRange := p.tokRange(p.prev)
	if !singleLine {
		switch p.peek().typ {
		case tNewline, tEOF:
			p.read()
		default:
			bail()
		}
	}
	identRange := p.tokRange(ident)
	a := new(hclsyntax.Attribute)
	*a = hclsyntax.Attribute{
		Name:        p.name(ident.start, ident.end),
		Expr:        expr,
		SrcRange:    hcl.RangeBetween(identRange, endRange),
		NameRange:   identRange,
		EqualsRange: p.tokRange(eq),
	}
	return a
}

func (p *parser) parseBlock(ident token) *hclsyntax.Block {
	var labels []string
	var labelRanges []hcl.Range
	var oBrace token
labels:
	for {
		switch t := p.peek(); t.typ {
		case tOBrace:
			oBrace = p.read()
			break labels
		case tOQuote:
			label, r := p.parseQuotedLabel()
			labels = append(labels, label)
			labelRanges = append(labelRanges, r)
		case tIdent:
			p.read()
			labels = append(labels, p.name(t.start, t.end))
			labelRanges = append(labelRanges, p.tokRange(t))
		default:
			bail()
		}
	}
	var body *hclsyntax.Body
	switch p.peek().typ {
	case tNewline, tEOF, tCBrace:
		body = p.parseBody(tCBrace)
	default:
		// One line, one attribute: name { a = 1 }.
		name := p.expect(tIdent)
		if p.peek().typ != tEqual {
			bail()
		}
		a := p.parseAttribute(name, true)
		body = p.bodies.new()
		*body = hclsyntax.Body{
			Attributes: hclsyntax.Attributes{a.Name: a},
			SrcRange:   a.SrcRange,
			EndRange:   hcl.Range{Filename: p.filename, Start: a.SrcRange.End, End: a.SrcRange.End},
		}
		p.expect(tCBrace)
	}
	cBraceRange := p.tokRange(p.prev)
	switch p.peek().typ {
	case tNewline, tEOF:
		p.read()
	default:
		bail()
	}
	b := p.blocks.new()
	*b = hclsyntax.Block{
		Type:            p.name(ident.start, ident.end),
		Labels:          labels,
		Body:            body,
		TypeRange:       p.tokRange(ident),
		LabelRanges:     labelRanges,
		OpenBraceRange:  p.tokRange(oBrace),
		CloseBraceRange: cBraceRange,
	}
	return b
}

// parseQuotedLabel parses a block label in quotes: escapes, but no
// template sequences.
func (p *parser) parseQuotedLabel() (string, hcl.Range) {
	open := p.read()
	src := p.src
	buf := p.scratch[:0]
	j := open.end
	for {
		if j >= len(src) {
			bail()
		}
		switch c := src[j]; c {
		case '"':
			p.scratch = buf
			p.i = j + 1
			p.prev = token{typ: tOQuote, start: j, end: j + 1}
			return p.intern(buf), p.rng(open.start, j+1)
		case '\n', '\r':
			bail()
		case '\\':
			var n int
			buf, n = escape(buf, src[j:])
			j += n
		case '$', '%':
			if j+1 < len(src) && src[j+1] == '{' {
				bail() // a template sequence in a label is an error
			}
			if j+2 < len(src) && src[j+1] == c && src[j+2] == '{' {
				if j+3 < len(src) && src[j+3] == '~' {
					bail()
				}
				buf = append(buf, c, '{')
				j += 3
				continue
			}
			buf = append(buf, c)
			j++
		default:
			buf = append(buf, c)
			j++
		}
	}
}

// escape decodes the backslash escape at the start of s into buf and
// returns how many bytes it took; an escape hclsyntax would reject makes
// the parse give up.
func escape(buf, s []byte) ([]byte, int) {
	if len(s) < 2 {
		bail()
	}
	switch s[1] {
	case 'n':
		return append(buf, '\n'), 2
	case 'r':
		return append(buf, '\r'), 2
	case 't':
		return append(buf, '\t'), 2
	case '"':
		return append(buf, '"'), 2
	case '\\':
		return append(buf, '\\'), 2
	case 'u', 'U':
		n := 4
		if s[1] == 'U' {
			n = 8
		}
		if len(s) < 2+n {
			bail()
		}
		for _, h := range s[2 : 2+n] {
			if !(isDigit(h) || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				bail()
			}
		}
		v, err := strconv.ParseUint(string(s[2:2+n]), 16, 32)
		if err != nil || utf8.RuneLen(rune(v)) < 0 {
			bail()
		}
		return utf8.AppendRune(buf, rune(v)), 2 + n
	}
	bail()
	panic("unreachable")
}

func (p *parser) parseExpression() hclsyntax.Expression {
	startTok := p.peek()
	cond := p.parseBinary(0)
	if p.peek().typ != tQuestion {
		return cond
	}
	p.read()
	trueExpr := p.parseExpression()
	p.expect(tColon)
	falseExpr := p.parseExpression()
	return &hclsyntax.ConditionalExpr{
		Condition:   cond,
		TrueResult:  trueExpr,
		FalseResult: falseExpr,
		SrcRange:    hcl.RangeBetween(p.tokRange(startTok), falseExpr.Range()),
	}
}

// binaryOp returns the operation of a token and its precedence level
// (hclsyntax's binaryOps, lowest first), or nil.
func binaryOp(t tokType) (*hclsyntax.Operation, int) {
	switch t {
	case tOr:
		return hclsyntax.OpLogicalOr, 0
	case tAnd:
		return hclsyntax.OpLogicalAnd, 1
	case tEqEq:
		return hclsyntax.OpEqual, 2
	case tNE:
		return hclsyntax.OpNotEqual, 2
	case tGT:
		return hclsyntax.OpGreaterThan, 3
	case tGE:
		return hclsyntax.OpGreaterThanOrEqual, 3
	case tLT:
		return hclsyntax.OpLessThan, 3
	case tLE:
		return hclsyntax.OpLessThanOrEqual, 3
	case tPlus:
		return hclsyntax.OpAdd, 4
	case tMinus:
		return hclsyntax.OpSubtract, 4
	case tStar:
		return hclsyntax.OpMultiply, 5
	case tSlash:
		return hclsyntax.OpDivide, 5
	case tPercent:
		return hclsyntax.OpModulo, 5
	}
	return nil, -1
}

// parseBinary parses operators of level min and above by precedence
// climbing; all are left-associative, so the tree is the one hclsyntax's
// level-by-level descent makes.
func (p *parser) parseBinary(min int) hclsyntax.Expression {
	lhs := p.parseWithTraversals()
	for {
		op, level := binaryOp(p.peek().typ)
		if op == nil || level < min {
			return lhs
		}
		p.read()
		rhs := p.parseBinary(level + 1)
		lhs = &hclsyntax.BinaryOpExpr{
			LHS:      lhs,
			Op:       op,
			RHS:      rhs,
			SrcRange: hcl.RangeBetween(lhs.Range(), rhs.Range()),
		}
	}
}

func (p *parser) parseWithTraversals() hclsyntax.Expression {
	return p.parseTraversals(p.parseTerm())
}

func (p *parser) parseTraversals(from hclsyntax.Expression) hclsyntax.Expression {
	ret := from
	for {
		switch p.peek().typ {
		case tDot:
			dot := p.read()
			t := p.read()
			var step hcl.Traverser
			r := p.rng(dot.start, t.end)
			switch t.typ {
			case tIdent:
				step = hcl.TraverseAttr{Name: p.name(t.start, t.end), SrcRange: r}
			case tNumber:
				text := p.src[t.start:t.end]
				if bytes.IndexByte(text, '.') >= 0 {
					bail()
				}
				step = hcl.TraverseIndex{Key: p.number(text), SrcRange: r}
			default:
				bail() // .* splats and errors
			}
			ret = p.relative(ret, step, r)
		case tOBrack:
			open := p.read()
			if p.peek().typ == tStar {
				bail() // [*] splat
			}
			saved := p.nl
			p.nl = false
			key := p.parseExpression()
			closeTok := p.expect(tCBrack)
			p.nl = saved
			r := p.rng(open.start, closeTok.end)
			if lit, ok := key.(*hclsyntax.LiteralValueExpr); ok {
				ret = p.relative(ret, hcl.TraverseIndex{Key: lit.Val, SrcRange: r}, r)
			} else if tmpl, ok := key.(*hclsyntax.TemplateExpr); ok && tmpl.IsStringLiteral() {
				v, _ := tmpl.Value(nil)
				ret = p.relative(ret, hcl.TraverseIndex{Key: v, SrcRange: r}, r)
			} else {
				ret = &hclsyntax.IndexExpr{
					Collection:   ret,
					Key:          key,
					SrcRange:     hcl.RangeBetween(from.Range(), r),
					OpenRange:    p.tokRange(open),
					BracketRange: r,
				}
			}
		default:
			return ret
		}
	}
}

// relative extends a traversal in place, or starts a relative one on expr,
// as hclsyntax's makeRelativeTraversal.
func (p *parser) relative(expr hclsyntax.Expression, step hcl.Traverser, r hcl.Range) hclsyntax.Expression {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		e.Traversal = append(e.Traversal, step)
		e.SrcRange = hcl.RangeBetween(e.SrcRange, r)
		return e
	case *hclsyntax.RelativeTraversalExpr:
		e.Traversal = append(e.Traversal, step)
		e.SrcRange = hcl.RangeBetween(e.SrcRange, r)
		return e
	}
	return &hclsyntax.RelativeTraversalExpr{
		Source:    expr,
		Traversal: hcl.Traversal{step},
		SrcRange:  hcl.RangeBetween(expr.Range(), r),
	}
}

func (p *parser) number(text []byte) cty.Value {
	if v, ok := p.nums[string(text)]; ok {
		return v
	}
	v, err := cty.ParseNumberVal(string(text))
	if err != nil {
		bail()
	}
	p.nums[string(text)] = v
	return v
}

// name returns src[start:end] as a string, made once per distinct name
// (intern: once per distinct text).
func (p *parser) name(start, end int) string { return p.intern(p.src[start:end]) }

func (p *parser) intern(b []byte) string {
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	p.names[s] = s
	return s
}

// stringVal returns the cty string of b; short ones, which repeat (enum
// values, methods, defaults), are made once.
func (p *parser) stringVal(b []byte) cty.Value {
	if len(b) > 32 {
		return cty.StringVal(string(b))
	}
	if v, ok := p.strs[string(b)]; ok {
		return v
	}
	v := cty.StringVal(string(b))
	p.strs[string(b)] = v
	return v
}

func (p *parser) literal(v cty.Value, r hcl.Range) *hclsyntax.LiteralValueExpr {
	e := new(hclsyntax.LiteralValueExpr)
	*e = hclsyntax.LiteralValueExpr{Val: v, SrcRange: r}
	return e
}

func (p *parser) parseTerm() hclsyntax.Expression {
	t := p.peek()
	switch t.typ {
	case tOParen:
		open := p.read()
		saved := p.nl
		p.nl = false
		expr := p.parseExpression()
		closeTok := p.expect(tCParen)
		p.nl = saved
		return &hclsyntax.ParenthesesExpr{Expression: expr, SrcRange: p.rng(open.start, closeTok.end)}
	case tNumber:
		p.read()
		return p.literal(p.number(p.src[t.start:t.end]), p.tokRange(t))
	case tIdent:
		p.read()
		if p.peek().typ == tOParen {
			return p.parseCall(t)
		}
		name := p.src[t.start:t.end]
		switch string(name) {
		case "true":
			return p.literal(cty.True, p.tokRange(t))
		case "false":
			return p.literal(cty.False, p.tokRange(t))
		case "null":
			return p.literal(cty.NullVal(cty.DynamicPseudoType), p.tokRange(t))
		}
		r := p.tokRange(t)
		// Room for the steps that usually follow (args.a, var.b.c), so
		// the traversal is not grown one step at a time.
		trav := make(hcl.Traversal, 1, 1+2*boolInt(p.peek().typ == tDot))
		trav[0] = hcl.TraverseRoot{Name: p.name(t.start, t.end), SrcRange: r}
		e := new(hclsyntax.ScopeTraversalExpr)
		*e = hclsyntax.ScopeTraversalExpr{Traversal: trav, SrcRange: r}
		return e
	case tOQuote, tOHeredoc:
		p.read()
		return p.parseTemplate(t)
	case tMinus, tBang:
		p.read()
		operand := p.parseWithTraversals()
		op := hclsyntax.OpNegate
		if t.typ == tBang {
			op = hclsyntax.OpLogicalNot
		}
		sym := p.tokRange(t)
		return &hclsyntax.UnaryOpExpr{
			Op:          op,
			Val:         operand,
			SrcRange:    hcl.RangeBetween(sym, operand.Range()),
			SymbolRange: sym,
		}
	case tOBrack:
		return p.parseTuple()
	case tOBrace:
		return p.parseObject()
	}
	bail()
	panic("unreachable")
}

func (p *parser) parseCall(name token) hclsyntax.Expression {
	open := p.read()
	saved := p.nl
	p.nl = false
	var args []hclsyntax.Expression
	var closeTok token
	for {
		if p.peek().typ == tCParen {
			closeTok = p.read()
			break
		}
		args = append(args, p.parseExpression())
		sep := p.read()
		if sep.typ == tCParen {
			closeTok = sep
			break
		}
		if sep.typ != tComma {
			bail()
		}
		if p.peek().typ == tCParen {
			closeTok = p.read()
			break
		}
	}
	p.nl = saved
	return &hclsyntax.FunctionCallExpr{
		Name:            p.name(name.start, name.end),
		Args:            args,
		NameRange:       p.tokRange(name),
		OpenParenRange:  p.tokRange(open),
		CloseParenRange: p.tokRange(closeTok),
	}
}

// startsFor reports whether the next token (newlines aside) is the word
// "for", which opens a for expression.
func (p *parser) startsFor() bool {
	saved := p.nl
	p.nl = false
	t := p.peek()
	p.nl = saved
	return t.typ == tIdent && p.name(t.start, t.end) == "for"
}

func (p *parser) parseTuple() hclsyntax.Expression {
	open := p.read()
	saved := p.nl
	p.nl = false
	if p.startsFor() {
		bail()
	}
	var exprs []hclsyntax.Expression
	var closeTok token
	for {
		if p.peek().typ == tCBrack {
			closeTok = p.read()
			break
		}
		exprs = append(exprs, p.parseExpression())
		next := p.read()
		if next.typ == tCBrack {
			closeTok = next
			break
		}
		if next.typ != tComma {
			bail()
		}
	}
	p.nl = saved
	openRange := p.tokRange(open)
	return &hclsyntax.TupleConsExpr{
		Exprs:     exprs,
		SrcRange:  hcl.RangeBetween(openRange, p.tokRange(closeTok)),
		OpenRange: openRange,
	}
}

func (p *parser) parseObject() hclsyntax.Expression {
	open := p.read()
	if p.startsFor() {
		bail()
	}
	saved := p.nl
	p.nl = true
	var items []hclsyntax.ObjectConsItem
	var closeTok token
	for {
		next := p.peek()
		if next.typ == tNewline {
			p.read()
			continue
		}
		if next.typ == tCBrace {
			closeTok = p.read()
			break
		}
		forceNonLiteral := next.typ == tOParen
		key := p.parseExpression()
		if sep := p.read(); sep.typ != tEqual && sep.typ != tColon {
			bail()
		}
		value := p.parseExpression()
		items = append(items, hclsyntax.ObjectConsItem{
			KeyExpr:   &hclsyntax.ObjectConsKeyExpr{Wrapped: key, ForceNonLiteral: forceNonLiteral},
			ValueExpr: value,
		})
		next = p.read()
		if next.typ == tCBrace {
			closeTok = next
			break
		}
		if next.typ != tComma && next.typ != tNewline {
			bail()
		}
	}
	p.nl = saved
	openRange := p.tokRange(open)
	return &hclsyntax.ObjectConsExpr{
		Items:     items,
		SrcRange:  hcl.RangeBetween(openRange, p.tokRange(closeTok)),
		OpenRange: openRange,
	}
}

// segment is a piece of a template: literal text (start..end in src, to
// be unescaped), or an interpolation's expression.
type segment struct {
	start, end  int
	expr        hclsyntax.Expression
	lineLeading bool // a heredoc literal that begins a line
}

// parseTemplate parses a quoted template or a heredoc whose opener has
// been read, as hclsyntax's parseTemplateInner: literal runs become one
// string LiteralValueExpr each, and a lone interpolation is wrapped.
func (p *parser) parseTemplate(open token) hclsyntax.Expression {
	heredoc := open.typ == tOHeredoc
	var closeTok token
	// Interpolations may hold templates of their own, which must not
	// share this one's segments.
	segs := p.segments[:0]
	p.segments = nil
	if heredoc {
		segs, closeTok = p.scanHeredoc(open, segs)
	} else {
		segs, closeTok = p.scanQuoted(segs)
	}
	p.prev, p.prevSet = closeTok, true
	srcRange := p.rng(open.start, closeTok.end)

	if len(segs) == 1 && segs[0].expr != nil {
		p.segments = segs[:0]
		return &hclsyntax.TemplateWrapExpr{Wrapped: segs[0].expr, SrcRange: srcRange}
	}
	minSpaces := -1
	if heredoc && p.src[open.start+2] == '-' {
		minSpaces = p.flushIndent(segs)
	}
	var parts []hclsyntax.Expression
	if len(segs) == 0 {
		// hclsyntax puts an empty literal at the end of the token after the
		// opener, which is then the closer.
		end := p.pos(closeTok.end)
		parts = []hclsyntax.Expression{p.literal(cty.StringVal(""), hcl.Range{Filename: p.filename, Start: end, End: end})}
	}
	for k := 0; k < len(segs); {
		if segs[k].expr != nil {
			parts = append(parts, segs[k].expr)
			k++
			continue
		}
		buf := p.scratch[:0]
		first := k
		var start int
		for ; k < len(segs) && segs[k].expr == nil; k++ {
			s := segs[k]
			if minSpaces > 0 && s.lineLeading && !p.blankLine(s) {
				s.start += minSpaces
			}
			if k == first {
				start = s.start
			}
			buf = p.unescape(buf, s.start, s.end, !heredoc)
		}
		end := segs[k-1].end
		parts = append(parts, p.literal(p.stringVal(buf), p.rng(start, end)))
		p.scratch = buf
	}
	p.segments = segs[:0]
	e := new(hclsyntax.TemplateExpr)
	*e = hclsyntax.TemplateExpr{Parts: parts, SrcRange: srcRange}
	return e
}

// unescape appends the value of template literal text to buf: $${ and
// %%{ stand for ${ and %{, and in quoted templates backslash escapes.
func (p *parser) unescape(buf []byte, start, end int, quoted bool) []byte {
	src := p.src[:end]
	for j := start; j < end; {
		switch c := src[j]; {
		case c == '\\' && quoted:
			var n int
			buf, n = escape(buf, src[j:])
			j += n
		case (c == '$' || c == '%') && j+2 < end && src[j+1] == c && src[j+2] == '{':
			buf = append(buf, c, '{')
			j += 3
		default:
			buf = append(buf, c)
			j++
		}
	}
	return buf
}

// scanLiteral scans template literal text from j up to the next ${, the
// closing quote (quoted) or the end of the line (heredoc, which includes
// the newline). It returns the end of the text.
func (p *parser) scanLiteral(j int, quoted bool) int {
	src := p.src
	for j < len(src) {
		switch c := src[j]; c {
		case '"':
			if quoted {
				return j
			}
			j++
		case '\n':
			if quoted {
				bail()
			}
			return j + 1
		case '\r':
			bail()
		case '\\':
			if quoted {
				if j+1 >= len(src) {
					bail()
				}
				// Validated when unescaped; skip the selector so an
				// escaped quote does not end the string.
				j += 2
				continue
			}
			j++
		case '$', '%':
			if j+1 >= len(src) {
				bail()
			}
			switch src[j+1] {
			case '{':
				if c == '%' {
					bail() // template directive
				}
				return j
			case '\n':
				bail() // how hclsyntax splits this line is not worth following
			case c:
				if j+2 < len(src) && src[j+2] == '{' {
					if j+3 < len(src) && src[j+3] == '~' {
						bail()
					}
					j += 3
					continue
				}
			}
			j++
		default:
			j++
		}
	}
	bail()
	panic("unreachable")
}

// interp parses the interpolation whose ${ is at j and returns its
// expression; p.i is then after its closing brace.
func (p *parser) interp(j int) hclsyntax.Expression {
	if j+2 < len(p.src) && p.src[j+2] == '~' {
		bail()
	}
	p.i = j + 2
	saved := p.nl
	p.nl = false
	expr := p.parseExpression()
	p.expect(tCBrace)
	p.nl = saved
	return expr
}

func (p *parser) scanQuoted(segs []segment) ([]segment, token) {
	j := p.i
	for {
		end := p.scanLiteral(j, true)
		if end > j {
			segs = append(segs, segment{start: j, end: end})
		}
		if p.src[end] == '"' {
			p.i = end + 1
			return segs, token{typ: tOQuote, start: end, end: end + 1}
		}
		segs = append(segs, segment{expr: p.interp(end)})
		j = p.i
	}
}

func (p *parser) scanHeredoc(open token, segs []segment) ([]segment, token) {
	src := p.src
	marker := src[open.start+2 : open.end-1]
	if marker[0] == '-' {
		marker = marker[1:]
	}
	j := open.end
	lineStart := true
	for {
		if lineStart {
			eol := bytes.IndexByte(src[j:], '\n')
			if eol < 0 {
				bail()
			}
			line := src[j : j+eol]
			if bytes.IndexByte(line, '$') < 0 && bytes.IndexByte(line, '%') < 0 &&
				bytes.Equal(bytes.TrimSpace(line), marker) {
				p.i = j + eol
				return segs, token{typ: tOHeredoc, start: j, end: j + eol}
			}
		}
		end := p.scanLiteral(j, false)
		if end > j {
			segs = append(segs, segment{start: j, end: end, lineLeading: lineStart})
		}
		if src[end-1] == '\n' && end > j {
			lineStart = true
			j = end
			continue
		}
		segs = append(segs, segment{expr: p.interp(end), lineLeading: lineStart && end == j})
		lineStart = false
		j = p.i
	}
}

// flushIndent returns how many leading spaces a <<- heredoc drops from its
// lines, as hclsyntax's flushHeredocTemplateParts: the fewest that any line
// starting a literal has, lines of only spaces aside; a line starting with
// an interpolation counts as none.
func (p *parser) flushIndent(segs []segment) int {
	const none = int(^uint(0) >> 1)
	minSpaces := none
	for _, s := range segs {
		if !s.lineLeading {
			continue
		}
		spaces := 0
		if s.expr == nil {
			text := p.src[s.start:s.end]
			for _, b := range text {
				if b >= utf8.RuneSelf {
					bail() // the count is of characters; left to hclsyntax
				}
			}
			if p.blankLine(s) {
				continue
			}
			for spaces < len(text) && isSpace(text[spaces]) {
				spaces++
			}
		}
		minSpaces = min(minSpaces, spaces)
	}
	if minSpaces == none {
		return 0
	}
	return minSpaces
}

// blankLine reports whether a line-leading literal is only spaces up to
// its newline; such lines neither count for nor lose the flush indent.
// (hclsyntax looks at the line's first token, which ends at a $ or %:
// a line with either is not blank in both views.)
func (p *parser) blankLine(s segment) bool {
	text := p.src[s.start:s.end]
	for _, b := range text {
		if !isSpace(b) {
			return false
		}
	}
	return len(text) > 0 && text[len(text)-1] == '\n'
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}
