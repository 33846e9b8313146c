package lsp

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// Position and Range are the protocol's: a zero-based line and a
// character offset in UTF-16 code units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// UnmarshalJSON refuses a negative line or character: the protocol's are
// unsigned, and every lookup by position indexes a slice with them.
func (p *Position) UnmarshalJSON(b []byte) error {
	var v struct {
		Line      int `json:"line"`
		Character int `json:"character"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Line < 0 || v.Character < 0 {
		return fmt.Errorf("position %d:%d is negative; lines and characters count from 0", v.Line, v.Character)
	}
	*p = Position(v)
	return nil
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// text is one file's content with the offsets of its lines, for
// conversions between bytes and protocol positions.
type text struct {
	src   string
	lines []int // byte offset of each line's start
}

func newText(src string) *text {
	// Counting first sizes the index at once: a 1 MB configuration is
	// indexed again on every keystroke.
	lines := make([]int, 1, strings.Count(src, "\n")+1)
	for i := 0; ; {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		lines = append(lines, i)
	}
	return &text{src: src, lines: lines}
}

// position is the protocol position of byte offset off (clamped to the
// text).
func (t *text) position(off int) Position {
	off = max(0, min(off, len(t.src)))
	line := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	return Position{Line: line, Character: utf16Len(t.src[t.lines[line]:off])}
}

// offset is the byte offset of a protocol position. A character past the
// end of its line is the line's end, a line past the end of the text the
// text's end, as the protocol asks; a position inside a surrogate pair
// is the start of its character.
func (t *text) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	start := t.lines[p.Line]
	end := len(t.src)
	if p.Line+1 < len(t.lines) {
		end = t.lines[p.Line+1] - 1 // the '\n'
	}
	if end > start && t.src[end-1] == '\r' {
		end--
	}
	units := 0
	for i, r := range t.src[start:end] {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		if units+n > p.Character {
			return start + i
		}
		units += n
	}
	return end
}

// rangeOf is the protocol range of an hcl range in this text. hcl's byte
// offsets are exact; its columns count characters, not UTF-16 units.
func (t *text) rangeOf(r hcl.Range) Range {
	return Range{Start: t.position(r.Start.Byte), End: t.position(r.End.Byte)}
}

func utf16Len(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// contentChange is one edit of didChange: a range and its new text, or
// (Range nil) the whole new text.
type contentChange struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// apply returns the text after the edits, in order, each against the
// text the one before it left; the first is read against t's index.
func apply(t *text, changes []contentChange) (string, error) {
	src := t.src
	for i, c := range changes {
		if c.Range == nil {
			src = c.Text
			continue
		}
		if i > 0 {
			t = newText(src)
		}
		start, end := t.offset(c.Range.Start), t.offset(c.Range.End)
		if end < start {
			return "", fmt.Errorf("a change's range ends (%d:%d) before it starts (%d:%d)",
				c.Range.End.Line, c.Range.End.Character, c.Range.Start.Line, c.Range.Start.Character)
		}
		src = src[:start] + c.Text + src[end:]
	}
	return src, nil
}

// uriToPath is the file path of a file: URI ("" for another scheme).
func uriToPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	// file:///C:/x is C:/x on Windows.
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// pathToURI is the file: URI of an absolute path.
func pathToURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }
