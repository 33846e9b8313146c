package lang

import (
	"bytes"
	"os"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/mcpdecl/mcpdecl/internal/parallel"
)

// Stream reads a configuration with a big native-syntax file in two
// passes: every top-level block but the tools first (Config), then the
// tools, a batch of pieces at a time (Next). A caller compiles each batch
// (table.Begin) and lets go of what it does not keep of those tools before
// the next is read, so a big configuration's decoded tools are never all
// held at once. Like a lean load it keeps no syntax tree. The other files
// of a directory are read whole in the first pass; their tools come in
// their turn, so the tools keep the order a load gives them.
//
// A stream gives what LoadWith with Lean gives, or nothing: OpenStream
// and Next report false for anything that needs a whole load (a syntax
// error, a tool and another block sharing a line, a test file), and the
// caller then loads the usual way.
type Stream struct {
	cfg    *Config
	diags  hcl.Diagnostics
	big    []*streamFile
	queue  []toolItem
	next   int
	failed bool
}

// streamFile is a big file being read in pieces.
type streamFile struct {
	name  string
	src   []byte
	heads blockHeads
}

// toolItem is the next tools in order: a piece of a big file to read, or
// the tools of a file read whole.
type toolItem struct {
	file  *streamFile
	span  span
	whole *fileContent
}

// span is a piece of a file: src[start.Byte:end].
type span struct {
	start hcl.Pos
	end   int
	tools bool
}

// streamBatch is how many pieces of tools Next reads at once: enough for
// every core, few enough that the decoded tools of a batch stay small.
const streamBatch = 16

// OpenStream reads the configuration at paths, the tools of its big files
// aside, when it has a native-syntax file of more than one piece; false
// otherwise.
func OpenStream(paths []string) (*Stream, bool) {
	names, diags := expandPaths(paths, LoadOptions{})
	if diags.HasErrors() {
		return nil, false
	}
	s := &Stream{cfg: &Config{Files: map[string]*hcl.File{}}}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil || IsTestFile(name) {
			return nil, false
		}
		var spans []span
		if leanable(name) {
			spans = streamSpans(src)
		}
		ok := false
		if spans == nil {
			ok = s.openWhole(name, src)
		} else {
			ok = s.openBig(name, src, spans)
		}
		if !ok {
			return nil, false
		}
	}
	return s, len(s.big) > 0
}

// openWhole reads a file whole: its blocks but the tools join the
// configuration now, its tools in their turn.
func (s *Stream) openWhole(name string, src []byte) bool {
	f, diags := parseSource(hclparse.NewParser(), name, src)
	if f == nil || diags.HasErrors() {
		return false
	}
	fc, d := decodeContent(f.Body)
	s.diags = append(append(s.diags, diags...), d...)
	if len(fc.Tools) > 0 {
		s.queue = append(s.queue, toolItem{whole: &fileContent{Tools: fc.Tools, toolDiags: fc.toolDiags}})
		fc.Tools, fc.toolDiags = nil, nil
	}
	s.diags = append(s.diags, s.cfg.addContent(fc)...)
	s.cfg.noteSyntax(f)
	s.cfg.Files[name] = leanFile(f)
	return true
}

// openBig reads the pieces of a big file that hold no tools; those that
// do wait in the queue.
func (s *Stream) openBig(name string, src []byte, spans []span) bool {
	sf := &streamFile{name: name, src: src}
	s.big = append(s.big, sf)
	// The compile reads expressions' text from Files (Nav comes at Finish).
	s.cfg.Files[name] = &hcl.File{Body: leanBody(src), Bytes: src}
	var rest []toolItem
	for _, sp := range spans {
		if sp.tools {
			s.queue = append(s.queue, toolItem{file: sf, span: sp})
		} else {
			rest = append(rest, toolItem{file: sf, span: sp})
		}
	}
	pieces := read(rest)
	for _, p := range pieces {
		if p.failed || len(p.content.Tools) > 0 {
			return false
		}
	}
	s.add(rest, pieces)
	return true
}

// Config is the configuration read so far: every block but the tools
// before the first Next, then with the tools of each batch appended.
func (s *Stream) Config() *Config { return s.cfg }

// Next reads the next batch of tools, appends them to the configuration
// and returns them; more is false after the last batch. ok is false when
// a piece needs the whole file: the stream is then of no further use.
func (s *Stream) Next() (tools []*Tool, more, ok bool) {
	if s.failed {
		return nil, false, false
	}
	from := len(s.cfg.Tools)
	if s.next < len(s.queue) && s.queue[s.next].whole != nil {
		w := s.queue[s.next].whole
		s.next++
		s.diags = append(s.diags, s.cfg.addTools(w.Tools, w.toolDiags)...)
		return s.cfg.Tools[from:], s.next < len(s.queue), true
	}
	end := s.next
	for end < len(s.queue) && s.queue[end].whole == nil && end-s.next < streamBatch {
		end++
	}
	items := s.queue[s.next:end]
	pieces := read(items)
	s.next = end
	for _, p := range pieces {
		if p.failed || !onlyTools(p.content) {
			s.failed = true
			return nil, false, false
		}
	}
	s.add(items, pieces)
	return s.cfg.Tools[from:], s.next < len(s.queue), true
}

// Finish completes the configuration once every batch is read: the
// checks across blocks, and the files as a lean load keeps them.
func (s *Stream) Finish() (*Config, hcl.Diagnostics) {
	for _, sf := range s.big {
		sort.Slice(sf.heads, func(i, j int) bool { return sf.heads[i].rng.Start.Byte < sf.heads[j].rng.Start.Byte })
		s.cfg.Files[sf.name].Nav = sf.heads
	}
	diags := append(s.diags, s.cfg.checkUnique()...)
	rewordLabels(diags)
	return s.cfg, diags
}

// read parses and decodes the pieces of items on every core.
func read(items []toolItem) []piece {
	pieces := make([]piece, len(items))
	parallel.For(len(items), func(i int) {
		it := items[i]
		pieces[i] = readPiece(it.file.src[it.span.start.Byte:it.span.end], it.file.name, it.span.start)
	})
	return pieces
}

// add appends decoded pieces to the configuration, in order.
func (s *Stream) add(items []toolItem, pieces []piece) {
	for i, p := range pieces {
		s.diags = append(s.diags, p.diags...)
		s.diags = append(s.diags, s.cfg.addContent(p.content)...)
		s.cfg.addRefs(&p.refs)
		items[i].file.heads = append(items[i].file.heads, p.heads...)
	}
}

// onlyTools reports whether a piece held tool blocks and nothing else.
func onlyTools(fc *fileContent) bool {
	return len(fc.Server)+len(fc.Auth)+len(fc.Variables)+len(fc.Locals)+len(fc.Backends)+len(fc.Resources)+
		len(fc.Templates)+len(fc.Apps)+len(fc.Prompts)+len(fc.Tests)+len(fc.Toolsets)+len(fc.Limits) == 0
}

// streamSpans cuts src into pieces of whole top-level blocks, each of
// tool blocks only or of other blocks only (by the word that starts
// each block), of about leanChunkSize; nil when the file is one piece.
func streamSpans(src []byte) []span {
	cuts := topLevelCuts(src, 1)
	if len(cuts) == 0 {
		return nil
	}
	ends := append(cuts, len(src))
	starts := pieceStarts(src, ends)
	var out []span
	tools := false
	for i, end := range ends {
		if word := firstWord(src[starts[i].Byte:end]); word != "" {
			tools = word == "tool"
		}
		if n := len(out); n > 0 && out[n-1].tools == tools && out[n-1].end-out[n-1].start.Byte < leanChunkSize {
			out[n-1].end = end
			continue
		}
		out = append(out, span{start: starts[i], end: end, tools: tools})
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// firstWord is the identifier a piece of text starts with, after spaces
// and comments; "" when there is none.
func firstWord(text []byte) string {
	for len(text) > 0 {
		switch {
		case text[0] == ' ' || text[0] == '\t' || text[0] == '\r' || text[0] == '\n':
			text = text[1:]
		case text[0] == '#' || bytes.HasPrefix(text, []byte("//")):
			i := bytes.IndexByte(text, '\n')
			if i < 0 {
				return ""
			}
			text = text[i+1:]
		case bytes.HasPrefix(text, []byte("/*")):
			i := bytes.Index(text, []byte("*/"))
			if i < 0 {
				return ""
			}
			text = text[i+2:]
		default:
			n := 0
			for n < len(text) && isIdentByte(text[n]) {
				n++
			}
			return string(text[:n])
		}
	}
	return ""
}
