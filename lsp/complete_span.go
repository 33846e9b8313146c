package lsp

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// blocksInTopItem finds the blocks around the cursor by parsing only the
// top-level item it is in (the lines from the last one that starts with
// a name at column 0 to the next such line), so a completion in a
// configuration of a thousand tools does not parse all of them. The
// slice is taken only when it parses, as it is or with the cursor's line
// blanked, into one item that begins where the slice does; otherwise
// (its first line inside a heredoc, say, or the cursor on the item's
// first line) ok is false and the whole file is parsed.
func blocksInTopItem(doc *document, offset, lineStart int) (blocks []*hclsyntax.Block, ok bool) {
	src := doc.text.src
	start, end := topItemSpan(src, lineStart)
	startPos := hcl.Pos{Line: doc.text.position(start).Line + 1, Column: 1, Byte: start}
	for _, piece := range []string{src[start:end], blankLine(src[start:end], lineStart-start)} {
		f, diags := hclsyntax.ParseConfig([]byte(piece), doc.path, startPos)
		if f == nil || diags.HasErrors() {
			continue
		}
		body, isNative := f.Body.(*hclsyntax.Body)
		if !isNative || !oneItemAt(body, start) {
			return nil, false
		}
		return enclosing(body, offset), true
	}
	return nil, false
}

// oneItemAt says body holds a single block or attribute, beginning at
// the byte start.
func oneItemAt(body *hclsyntax.Body, start int) bool {
	switch {
	case len(body.Blocks) == 1 && len(body.Attributes) == 0:
		return body.Blocks[0].Range().Start.Byte == start
	case len(body.Blocks) == 0 && len(body.Attributes) == 1:
		for _, a := range body.Attributes {
			return a.SrcRange.Start.Byte == start
		}
	}
	return false
}

// topItemSpan is where the top-level item holding the line at lineStart
// begins and ends.
func topItemSpan(src string, lineStart int) (int, int) {
	start := lineStart
	for start > 0 && !startsItem(src[start:]) {
		start = strings.LastIndexByte(src[:start-1], '\n') + 1
	}
	end := len(src)
	for pos := lineStart; ; {
		next := strings.IndexByte(src[pos:], '\n')
		if next < 0 {
			break
		}
		pos += next + 1
		if startsItem(src[pos:]) {
			end = pos
			break
		}
	}
	return start, end
}

// startsItem says a line begins with a name at column 0: a block or an
// attribute of the file's top level, in a formatted file.
func startsItem(line string) bool {
	if line == "" {
		return false
	}
	c := line[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// blankLine puts spaces in place of the line at from in s (same
// offsets): the line being typed, which often does not parse.
func blankLine(s string, from int) string {
	n := strings.IndexByte(s[from:], '\n')
	if n < 0 {
		n = len(s) - from
	}
	return s[:from] + strings.Repeat(" ", n) + s[from+n:]
}
