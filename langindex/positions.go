package langindex

import (
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// lines maps byte offsets of one file to hcl positions.
type lines struct {
	src    []byte
	starts []int // byte offset of each line's first byte
}

func newLines(src []byte) *lines {
	l := &lines{src: src, starts: []int{0}}
	for i, b := range src {
		if b == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// pos returns the position of byte offset off: line and column from 1,
// the column counted in characters as hcl counts them.
func (l *lines) pos(off int) hcl.Pos {
	off = max(0, min(off, len(l.src)))
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	col := 1 + utf8.RuneCount(l.src[l.starts[line]:off])
	return hcl.Pos{Line: line + 1, Column: col, Byte: off}
}

// rng returns the range of bytes [from, to) of file name.
func (l *lines) rng(name string, from, to int) hcl.Range {
	return hcl.Range{Filename: name, Start: l.pos(from), End: l.pos(to)}
}

// contains reports whether pos falls within r, its end included, so that
// a cursor just after a name still finds it.
func contains(r hcl.Range, pos hcl.Pos) bool {
	return r.Start.Byte <= pos.Byte && pos.Byte <= r.End.Byte
}

// offset returns pos as a byte offset. Byte is used when set; a position
// given by line and column alone (Byte 0 past the first character) is
// counted from them.
func (l *lines) offset(pos hcl.Pos) int {
	if pos.Byte > 0 || pos.Line <= 1 && pos.Column <= 1 {
		return pos.Byte
	}
	line := min(max(pos.Line, 1), len(l.starts)) - 1
	off := l.starts[line]
	for col := 1; col < pos.Column && off < len(l.src) && l.src[off] != '\n'; col++ {
		_, w := utf8.DecodeRune(l.src[off:])
		off += w
	}
	return off
}
