package lsp

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpdecl/mcpdecl/langindex"
)

// token is a langindex token over the bytes [from, to).
func token(kind langindex.TokenKind, from, to int) langindex.Token {
	return langindex.Token{Kind: kind, Range: hcl.Range{Start: hcl.Pos{Byte: from}, End: hcl.Pos{Byte: to}}}
}

func TestTokensAreRelativeAndCutAtLineEnds(t *testing.T) {
	// "é😀" before x: 3 UTF-16 units, 6 bytes. The string spans two
	// lines (with a \r\n) and is cut in two tokens, without the break.
	src := "  é😀x + 'ab\r\ncd' y\n"
	x := 8
	str := x + 4
	y := str + 9
	data := encodeTokens(newText(src), []langindex.Token{
		token(langindex.TokenArgument, x, x+1),
		token(langindex.TokenString, str, str+8),
		token(langindex.TokenVariable, y, y+1),
	})
	parameter, str16, variable := slices.Index(tokenTypes, "parameter"), slices.Index(tokenTypes, "string"), slices.Index(tokenTypes, "variable")
	want := []int{
		0, 5, 1, parameter, 0, // x after 2 spaces and 3 units
		0, 4, 3, str16, 0, // 'ab from x's start
		1, 0, 3, str16, 0, // cd' on the next line
		0, 4, 1, variable, 0, // y
	}
	if !slices.Equal(data, want) {
		t.Errorf("got  %v\nwant %v", data, want)
	}
}

func TestOverlappingTokensAreLeftOut(t *testing.T) {
	src := "abcdef"
	data := encodeTokens(newText(src), []langindex.Token{
		token(langindex.TokenProperty, 0, 4),
		token(langindex.TokenKeyword, 2, 3),
		token(langindex.TokenNumber, 4, 6),
	})
	if len(data) != 10 || data[5] != 0 || data[6] != 4 {
		t.Errorf("got %v, want the first and last tokens only", data)
	}
}
