package eval

import (
	"strconv"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// exprSource is the text of an expr-lang program written as an HCL string,
// with the file offset of each of its runes, so that an error at rune i of
// the program can be reported at the exact line and column of the file.
type exprSource struct {
	text    string
	offsets []int // byte offset in the file of each rune of text; one extra at the end
	file    *hcl.File
}

// newExprSource aligns the decoded string value with its source text. It
// understands quoted strings (native and JSON escapes) and heredocs (whose
// stripped indentation is skipped).
func newExprSource(value string, r hcl.Range, files map[string]*hcl.File) *exprSource {
	src := &exprSource{text: value, file: files[r.Filename]}
	raw, ok := sourceOf(r, files)
	if !ok {
		return src
	}
	base := r.Start.Byte
	i := 0
	switch {
	case len(raw) > 0 && raw[0] == '"':
		i = 1
	case len(raw) > 2 && raw[0] == '<' && raw[1] == '<':
		for i < len(raw) && raw[i] != '\n' {
			i++
		}
		i++
	}
	quoted := len(raw) > 0 && raw[0] == '"'
	for _, want := range value {
		for i < len(raw) {
			n, width := matchRune(raw[i:], want, quoted)
			if n {
				break
			}
			i += width
		}
		src.offsets = append(src.offsets, base+i)
		if i < len(raw) {
			_, width := matchRune(raw[i:], want, quoted)
			i += width
		}
	}
	src.offsets = append(src.offsets, base+i)
	return src
}

// matchRune reports whether the source at raw starts with the encoding of
// want, and how many source bytes to step over either way.
func matchRune(raw []byte, want rune, quoted bool) (bool, int) {
	if quoted && raw[0] == '\\' && len(raw) > 1 {
		n := escapeLen(raw)
		if r, err := strconv.Unquote(`"` + string(raw[:n]) + `"`); err == nil {
			got, _ := utf8.DecodeRuneInString(r)
			return got == want, n
		}
		return false, n
	}
	got, width := utf8.DecodeRune(raw)
	return got == want, width
}

func escapeLen(raw []byte) int {
	switch raw[1] {
	case 'u':
		return min(6, len(raw))
	case 'U':
		return min(10, len(raw))
	}
	return 2
}

// pos returns the file position of rune i of the program text.
func (s *exprSource) pos(i int, fallback hcl.Pos) hcl.Pos {
	if s.file == nil || len(s.offsets) == 0 {
		return fallback
	}
	i = max(0, min(i, len(s.offsets)-1))
	return posAt(s.file.Bytes, s.offsets[i])
}

// posAt converts a byte offset in src to a line and column (both 1-based,
// columns counted in characters).
func posAt(src []byte, offset int) hcl.Pos {
	line, col := 1, 1
	for _, r := range string(src[:min(offset, len(src))]) {
		if r == '\n' {
			line++
			col = 1
			continue
		}
		col++
	}
	return hcl.Pos{Line: line, Column: col, Byte: offset}
}
