package diagtext

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/english"
)

// Text diagnostics look like a compiler's, so that terminals and editors
// can jump to the position in the header line:
//
//	calendar.hcl:8:14: error: Invalid type
//	  in tool "add_event":
//	   8 |     type   = strng
//	     |              ^^^^^
//	  "strng" is not a type. Did you mean "string"? ...
//
// HCL's own text writer names only the line, and marks the range with
// terminal escapes alone, so without colour nothing shows where it is.
const (
	// detailWidth is where detail text is wrapped, indent included.
	detailWidth = 100
	// maxSnippetLines caps the source shown for a range spanning a whole
	// block: its first lines are enough to recognise it.
	maxSnippetLines = 3
)

// WriteText writes each diagnostic and a closing count.
func WriteText(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File) error {
	if len(diags) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, d := range diags {
		writeTextDiagnostic(&buf, d, files)
	}
	errs, warns := Count(diags)
	fmt.Fprintf(&buf, "%s, %s.\n", english.Count(errs, "error"), english.Count(warns, "warning"))
	_, err := w.Write(buf.Bytes())
	return err
}

func writeTextDiagnostic(buf *bytes.Buffer, d *hcl.Diagnostic, files map[string]*hcl.File) {
	buf.WriteString(Header(d))
	if r := d.Subject; r != nil {
		if f := files[r.Filename]; f != nil && f.Bytes != nil {
			if ctx := blockContext(f, r.Start.Byte); ctx != "" {
				fmt.Fprintf(buf, "  in %s:\n", ctx)
			}
			writeSnippet(buf, f.Bytes, *r)
		}
	}
	if d.Detail != "" {
		buf.WriteString(wrapIndented(d.Detail, "  ", detailWidth))
	}
	buf.WriteByte('\n')
}

// Header is the first line, "file:line:col: error: summary", or
// "error: summary" for a problem with no place in a file (an unreadable
// path, an unreachable backend).
func Header(d *hcl.Diagnostic) string {
	line := severityName(d.Severity) + ": " + d.Summary + ownCode(d) + "\n"
	if r := d.Subject; r != nil {
		return fmt.Sprintf("%s:%d:%d: %s", r.Filename, r.Start.Line, r.Start.Column, line)
	}
	return line
}

// blockContext names the top-level block holding offset, e.g.
// `tool "add_event"`, when the file's syntax can tell. For the native
// syntax the blocks are in source order, so a binary search finds it: a
// report of thousands of findings in a big config would otherwise walk
// every block for each one (HCL's own ContextString does). A file loaded
// without its tree (lang.LoadOptions.Lean) has an empty body and answers
// from its Nav.
func blockContext(f *hcl.File, offset int) string {
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok || len(body.Blocks) == 0 {
		type contextStringer interface{ ContextString(offset int) string }
		if cs, ok := f.Nav.(contextStringer); ok {
			return cs.ContextString(offset)
		}
		return ""
	}
	blocks := body.Blocks
	i := sort.Search(len(blocks), func(i int) bool { return blocks[i].Range().End.Byte > offset })
	if i == len(blocks) || !blocks[i].Range().ContainsOffset(offset) {
		return ""
	}
	b := blocks[i]
	if len(b.Labels) == 0 {
		return b.Type
	}
	labels := make([]string, len(b.Labels))
	for i, l := range b.Labels {
		labels[i] = strconv.Quote(l)
	}
	return b.Type + " " + strings.Join(labels, " ")
}

// writeSnippet writes the source lines of r, each followed by a line of
// carets under the part that r covers.
func writeSnippet(buf *bytes.Buffer, src []byte, r hcl.Range) {
	start, end := r.Start.Byte, r.End.Byte
	if start < 0 || start > len(src) || end < start {
		return // a range from some other version of the file
	}
	first, last := r.Start.Line, r.End.Line
	if end > start && r.End.Column == 1 && last > first {
		last-- // the range stops at the end of the previous line
	}
	shown := min(last, first+maxSnippetLines-1)
	width := max(3, len(fmt.Sprint(shown)))
	for n, ls := range sourceLines(src, start, shown-first+1) {
		lineNo := first + n
		le := ls + lineLength(src[ls:])
		if lineNo > first && ls >= end {
			break // the range ends before this line
		}
		text := src[ls:le]
		fmt.Fprintf(buf, "  %*d | %s\n", width, lineNo, text)
		pad, marks := underline(text, max(start, ls)-ls, min(end, le)-ls, lineNo > first)
		fmt.Fprintf(buf, "  %*s | %s%s\n", width, "", pad, marks)
	}
	if shown < last {
		fmt.Fprintf(buf, "  %*s | ...\n", width, "")
	}
}

// sourceLines returns the byte offsets at which count lines of src start,
// the first being the line that holds offset at; fewer if src ends sooner. It starts from
// the offset, not from line 1, so that rendering many findings of one big
// file costs each only its own lines.
func sourceLines(src []byte, at, count int) []int {
	off := bytes.LastIndexByte(src[:at], '\n') + 1
	var starts []int
	for len(starts) < count && off <= len(src) {
		starts = append(starts, off)
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return starts
}

// lineLength is the length of the first line of b, without its line end.
func lineLength(b []byte) int {
	n := bytes.IndexByte(b, '\n')
	if n < 0 {
		n = len(b)
	}
	if n > 0 && b[n-1] == '\r' {
		n--
	}
	return n
}

// underline returns the padding and the carets that mark bytes [from, to)
// of line. Tabs in the padding are kept, so the carets line up however
// the terminal sets its tab stops. An empty range gets one caret at its
// position; on a continuation line the leading indentation is not marked.
func underline(line []byte, from, to int, continuation bool) (pad, marks string) {
	from, to = min(max(from, 0), len(line)), min(max(to, 0), len(line))
	if continuation {
		for from < to && (line[from] == ' ' || line[from] == '\t') {
			from++
		}
	}
	var sb strings.Builder
	for _, c := range string(line[:from]) {
		if c == '\t' {
			sb.WriteByte('\t')
		} else {
			sb.WriteByte(' ')
		}
	}
	n := max(1, utf8.RuneCount(line[from:max(from, to)]))
	return sb.String(), strings.Repeat("^", n)
}

// wrapIndented word-wraps each paragraph of s to width columns, every line
// starting with indent. A word longer than the line is left whole.
func wrapIndented(s, indent string, width int) string {
	var sb strings.Builder
	for para := range strings.SplitSeq(strings.TrimRight(s, " \n"), "\n") {
		n := 0
		for i, word := range strings.Fields(para) {
			switch {
			case i == 0:
				sb.WriteString(indent)
				n = len(indent)
			case n+1+utf8.RuneCountInString(word) > width:
				sb.WriteString("\n" + indent)
				n = len(indent)
			default:
				sb.WriteByte(' ')
				n++
			}
			sb.WriteString(word)
			n += utf8.RuneCountInString(word)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
