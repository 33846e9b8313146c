package lang

import (
	"bytes"
	"os"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/parallel"
)

// Stream reads a configuration made of one big native-syntax file in two
// passes: every top-level block but the tools first (Config), then the
// tools, a batch of pieces at a time (Next). A caller compiles each batch
// (table.Begin) and lets go of what it does not keep of those tools before
// the next is read, so a big configuration's decoded tools are never all
// held at once. Like a lean load it keeps no syntax tree.
//
// A stream gives what LoadWith with Lean gives, or nothing: OpenStream
// and Next report false for anything that needs the whole file (a syntax
// error, a tool and another block sharing a line), and the caller then
// loads it the usual way.
type Stream struct {
	cfg    *Config
	diags  hcl.Diagnostics
	name   string
	src    []byte
	heads  blockHeads
	tools  []span // the pieces of tool blocks, in order
	next   int
	failed bool
}

// span is a piece of the file: src[start.Byte:end].
type span struct {
	start hcl.Pos
	end   int
	tools bool
}

// streamBatch is how many pieces of tools Next reads at once: enough for
// every core, few enough that the decoded tools of a batch stay small.
const streamBatch = 16

// OpenStream reads the configuration at paths, tools aside, when it is
// one native-syntax file of more than one piece; false otherwise.
func OpenStream(paths []string) (*Stream, bool) {
	if len(paths) != 1 || !leanable(paths[0]) {
		return nil, false
	}
	name := paths[0]
	if info, err := os.Stat(name); err != nil || info.IsDir() {
		return nil, false
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	spans := streamSpans(src)
	if spans == nil {
		return nil, false
	}
	// The compile reads expressions' text from Files (Nav comes at Finish).
	file := &hcl.File{Body: leanBody(src), Bytes: src}
	s := &Stream{cfg: &Config{Files: map[string]*hcl.File{name: file}}, name: name, src: src}
	var rest []span
	for _, sp := range spans {
		if sp.tools {
			s.tools = append(s.tools, sp)
		} else {
			rest = append(rest, sp)
		}
	}
	pieces := s.read(rest)
	for _, p := range pieces {
		if p.failed || len(p.content.Tools) > 0 {
			return nil, false
		}
	}
	s.add(pieces)
	return s, true
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
	end := min(s.next+streamBatch, len(s.tools))
	pieces := s.read(s.tools[s.next:end])
	s.next = end
	for _, p := range pieces {
		if p.failed || !onlyTools(p.content) {
			s.failed = true
			return nil, false, false
		}
	}
	from := len(s.cfg.Tools)
	s.add(pieces)
	return s.cfg.Tools[from:], s.next < len(s.tools), true
}

// Finish completes the configuration once every batch is read: the
// checks across blocks, and the file as a lean load keeps it.
func (s *Stream) Finish() (*Config, hcl.Diagnostics) {
	sort.Slice(s.heads, func(i, j int) bool { return s.heads[i].rng.Start.Byte < s.heads[j].rng.Start.Byte })
	s.cfg.Files[s.name].Nav = s.heads
	diags := append(s.diags, s.cfg.checkUnique()...)
	rewordLabels(diags)
	return s.cfg, diags
}

// read parses and decodes spans on every core.
func (s *Stream) read(spans []span) []piece {
	pieces := make([]piece, len(spans))
	parallel.For(len(spans), func(i int) {
		sp := spans[i]
		pieces[i] = readPiece(s.src[sp.start.Byte:sp.end], s.name, sp.start)
	})
	return pieces
}

// add appends decoded pieces to the configuration, in order.
func (s *Stream) add(pieces []piece) {
	for _, p := range pieces {
		s.diags = append(s.diags, p.diags...)
		s.diags = append(s.diags, s.cfg.addContent(p.content)...)
		s.cfg.addRefs(&p.refs)
		s.heads = append(s.heads, p.heads...)
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
