package lsp

import (
	"slices"

	"github.com/mcpdecl/mcpdecl/langindex"
)

// tokenTypes is the semantic tokens legend: a token's type is its index
// here. The types are the protocol's predefined ones, which every theme
// colours.
var tokenTypes = []string{"parameter", "variable", "property", "function", "keyword", "operator", "number", "string"}

// tokenModifiers are the legend's modifiers, bit i for the i-th.
var tokenModifiers = []string{"defaultLibrary", "readonly"}

// tokenTypeOf is the legend entry of each langindex token kind: an
// argument is the tool's parameter; a step is read as a field of steps,
// one that the program cannot change.
var tokenTypeOf = map[langindex.TokenKind]struct {
	typ       string
	modifiers int
}{
	langindex.TokenArgument: {"parameter", 0},
	langindex.TokenStep:     {"property", 1 << 1},
	langindex.TokenVariable: {"variable", 0},
	langindex.TokenProperty: {"property", 0},
	langindex.TokenFunction: {"function", 0},
	langindex.TokenKeyword:  {"keyword", 0},
	langindex.TokenOperator: {"operator", 0},
	langindex.TokenNumber:   {"number", 0},
	langindex.TokenString:   {"string", 0},
}

// encodeTokens is the data of a semantic tokens answer: five integers a
// token (line and start relative to the token before, length, type,
// modifiers), in UTF-16 units, each token on one line: a token that
// spans lines (a string in a heredoc) is cut at each line's end, since
// clients need not take tokens that span lines.
func encodeTokens(t *text, tokens []langindex.Token) []int {
	out := make([]int, 0, 5*len(tokens))
	prevLine, prevStart, end := 0, 0, 0
	for _, tok := range tokens {
		legend, ok := tokenTypeOf[tok.Kind]
		if !ok || tok.Range.Start.Byte < end {
			continue // an unknown kind, or one overlapping the last (the protocol forbids overlaps)
		}
		typ := slices.Index(tokenTypes, legend.typ)
		mods := legend.modifiers
		if tok.Builtin {
			mods |= 1 << 0
		}
		for _, piece := range t.lineSpans(tok.Range.Start.Byte, tok.Range.End.Byte) {
			p := t.position(piece[0])
			length := utf16Len(t.src[piece[0]:piece[1]])
			if length == 0 {
				continue
			}
			start := p.Character
			if p.Line == prevLine {
				start -= prevStart
			}
			out = append(out, p.Line-prevLine, start, length, typ, mods)
			prevLine, prevStart = p.Line, p.Character
		}
		end = tok.Range.End.Byte
	}
	return out
}

// lineSpans cuts the bytes [from, to) at line ends: the part of each
// line, without its line break.
func (t *text) lineSpans(from, to int) [][2]int {
	from, to = max(0, min(from, len(t.src))), max(0, min(to, len(t.src)))
	var out [][2]int
	for from < to {
		lineEnd := to
		for i := from; i < to; i++ {
			if t.src[i] == '\n' {
				lineEnd = i
				break
			}
		}
		end := lineEnd
		if end > from && t.src[end-1] == '\r' {
			end--
		}
		out = append(out, [2]int{from, end})
		from = lineEnd + 1
	}
	return out
}
