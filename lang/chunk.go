package lang

import (
	"bytes"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/hclfast"
	"github.com/mcpdecl/mcpdecl/internal/parallel"
)

// chunkSize is the size above which a native-syntax file is parsed in
// pieces. The hcl lexer keeps every token of a file in one slice, which
// grows by copying; on a 360 KB file that was 50 MB of the 80 MB a load
// allocated. Pieces of about this size (measured: 2 KB allocated least)
// keep the slices small. A variable so tests can force small pieces.
var chunkSize = 2 << 10

// parseNative parses a native-syntax file, in pieces of whole top-level
// blocks when it is large. The result is the same as hclsyntax.ParseConfig:
// positions are those of the whole file, and when any piece has errors the
// whole file is parsed again at once, so diagnostics never depend on where
// the pieces were cut.
func parseNative(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	cuts := topLevelCuts(src, chunkSize)
	if len(cuts) == 0 {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	pieces := parsePieces(src, filename, append(cuts, len(src)))
	if pieces == nil {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	// The first piece's body becomes the whole file's body: its File.Nav
	// (which finds the block around a position, for "in tool ..." in
	// diagnostics) points at that body, and hcl offers no other way to
	// make one.
	first := pieces[0]
	body := first.Body.(*hclsyntax.Body)
	for _, f := range pieces[1:] {
		part := f.Body.(*hclsyntax.Body)
		body.Attributes = mergeAttrs(body.Attributes, part.Attributes)
		body.Blocks = append(body.Blocks, part.Blocks...)
		body.EndRange = part.EndRange
	}
	body.SrcRange.End = advance(hcl.InitialPos, src)
	return &hcl.File{Body: body, Bytes: src, Nav: first.Nav}, nil
}

// parsePieces parses the pieces of src that end at ends, on every core:
// the pieces are independent, and a big config's load is mostly parsing.
// It returns nil when any piece has errors. Pieces after the first go to
// hclfast, which builds the same AST several times faster, and to
// hclsyntax when hclfast gives up (on rarer syntax and on every error);
// the first stays with hclsyntax, whose File.Nav the whole file keeps.
func parsePieces(src []byte, filename string, ends []int) []*hcl.File {
	starts := pieceStarts(src, ends)
	files := make([]*hcl.File, len(ends))
	failed := make([]bool, len(ends))
	parallel.For(len(ends), func(i int) {
		piece := src[starts[i].Byte:ends[i]]
		if i > 0 {
			if body, ok := parseFast(piece, filename, starts[i]); ok {
				files[i] = &hcl.File{Body: body, Bytes: piece}
				return
			}
		}
		var diags hcl.Diagnostics
		files[i], diags = hclsyntax.ParseConfig(piece, filename, starts[i])
		failed[i] = diags.HasErrors()
	})
	if slices.Contains(failed, true) {
		return nil
	}
	return files
}

// mergeAttrs adds top-level attributes of a later piece. The language has
// none, and a name given twice would be lost here, so any attribute at all
// is left to the whole-file parse, which reports it properly.
func mergeAttrs(into, from hclsyntax.Attributes) hclsyntax.Attributes {
	if into == nil {
		into = hclsyntax.Attributes{}
	}
	for k, v := range from {
		into[k] = v
	}
	return into
}

// advance returns the position just after text, which starts at pos.
func advance(pos hcl.Pos, text []byte) hcl.Pos {
	lines := bytes.Count(text, []byte("\n"))
	pos.Byte += len(text)
	if lines == 0 {
		pos.Column += len([]rune(string(text)))
		return pos
	}
	pos.Line += lines
	pos.Column = 1 + len([]rune(string(text[bytes.LastIndexByte(text, '\n')+1:])))
	return pos
}

// topLevelCuts returns offsets of line starts at nesting depth zero, at
// least size bytes apart. It follows brackets, quoted strings (with
// escapes and ${ } interpolations), heredocs and comments; a mistake can
// only produce a piece with an unterminated construct, which fails to
// parse and makes parseNative fall back to the whole file.
func topLevelCuts(src []byte, size int) []int {
	if len(src) <= size {
		return nil
	}
	var cuts []int
	s := &scanState{src: src}
	last := 0
	for s.i < len(src) {
		atLineStart := s.i == 0 || src[s.i-1] == '\n'
		if atLineStart && s.depth == 0 && s.i-last >= size {
			cuts = append(cuts, s.i)
			last = s.i
		}
		if !s.step() {
			return nil
		}
	}
	return cuts
}

type scanState struct {
	src   []byte
	i     int
	depth int
}

// step consumes one token-ish unit; false means the text could not be
// followed (the caller then parses the file whole).
func (s *scanState) step() bool {
	c := s.src[s.i]
	switch {
	case c == '#' || c == '/' && s.peek(1) == '/':
		s.skipTo('\n')
	case c == '/' && s.peek(1) == '*':
		end := bytes.Index(s.src[s.i+2:], []byte("*/"))
		if end < 0 {
			return false
		}
		s.i += end + 4
	case c == '"':
		return s.skipString()
	case c == '<' && s.peek(1) == '<':
		return s.skipHeredoc()
	case c == '{' || c == '[' || c == '(':
		s.depth++
		s.i++
	case c == '}' || c == ']' || c == ')':
		s.depth--
		s.i++
		return s.depth >= 0
	default:
		s.i++
	}
	return true
}

func (s *scanState) peek(n int) byte {
	if s.i+n < len(s.src) {
		return s.src[s.i+n]
	}
	return 0
}

func (s *scanState) skipTo(b byte) {
	for s.i < len(s.src) && s.src[s.i] != b {
		s.i++
	}
}

// skipString skips a quoted template, including nested ${ ... } whose
// expressions may hold strings and braces of their own.
func (s *scanState) skipString() bool {
	s.i++ // opening quote
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '\\':
			s.i += 2
		case c == '"':
			s.i++
			return true
		case c == '\n':
			return false
		case (c == '$' || c == '%') && s.peek(1) == '{':
			if s.peek(-1) == c { // $${ and %%{ are literal
				s.i += 2
				continue
			}
			s.i += 2
			depth := s.depth
			s.depth = 1
			for s.depth > 0 && s.i < len(s.src) {
				if !s.step() {
					return false
				}
			}
			s.depth = depth
		default:
			s.i++
		}
	}
	return false
}

// skipHeredoc skips <<EOT ... EOT and <<-EOT ... EOT.
func (s *scanState) skipHeredoc() bool {
	j := s.i + 2
	if j < len(s.src) && s.src[j] == '-' {
		j++
	}
	k := j
	for k < len(s.src) && (isIdentByte(s.src[k])) {
		k++
	}
	if k == j || k >= len(s.src) || s.src[k] != '\n' {
		s.i += 2 // not a heredoc (a "<<" elsewhere is not valid HCL anyway)
		return true
	}
	marker := s.src[j:k]
	for line := k + 1; line < len(s.src); {
		end := bytes.IndexByte(s.src[line:], '\n')
		if end < 0 {
			end = len(s.src) - line
		}
		if bytes.Equal(bytes.TrimSpace(s.src[line:line+end]), marker) {
			s.i = line + end
			return true
		}
		line += end + 1
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '-' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// parseFast is hclfast.ParseBody for a load: should the fast parser ever
// fail on a text its tests and fuzzing never gave it, the piece is parsed
// by hclsyntax instead of the load crashing. Its own tests call it without
// this net, so such a failure still shows there.
func parseFast(src []byte, filename string, start hcl.Pos) (body *hclsyntax.Body, ok bool) {
	defer func() {
		if recover() != nil {
			body, ok = nil, false
		}
	}()
	return fastParser(src, filename, start)
}

// fastParser is hclfast.ParseBody; a test puts a failing one in its place.
var fastParser = hclfast.ParseBody
