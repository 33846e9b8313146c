package langref

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

var (
	marker    = lazyregexp.New(`^<!--\s*ref:\s*([a-z0-9_. ]+?)\s*-->\s*$`)
	heading   = lazyregexp.New(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	fenceLine = lazyregexp.New("^\\s*(```|~~~)")
	attrName  = lazyregexp.New("`([a-z_][a-z0-9_]*)`")
)

// parse reads the marked blocks of a Markdown document named file.
func parse(text, file string) index {
	out := index{}
	anchor := ""
	seen := map[string]int{}
	var cur []*Documented // the blocks the last marker named
	state := stateNone
	var prose []string
	flush := func() {
		body := strings.TrimSpace(strings.Join(prose, "\n"))
		for _, d := range cur {
			if d.Block.Markdown == "" {
				d.Block.Markdown = body
			}
		}
		prose = nil
	}
	lines := strings.Split(text, "\n")
	inFence := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if fenceLine.MatchString(line) {
			inFence = !inFence
			if state == stateProse {
				flush()
				state = stateTable
			}
			continue
		}
		if inFence {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			if state == stateProse {
				flush()
			}
			cur, state = nil, stateNone
			slug := slugOf(m[1])
			if n := seen[slug]; n > 0 {
				anchor = slug + "-" + strconv.Itoa(n)
			} else {
				anchor = slug
			}
			seen[slug]++
			continue
		}
		if m := marker.FindStringSubmatch(line); m != nil {
			if state == stateProse {
				flush()
			}
			cur = nil
			for _, key := range strings.Fields(m[1]) {
				d := &Documented{Key: key, Attributes: map[string]Entry{}}
				d.Block = Entry{Title: strings.ReplaceAll(key, ".", " "), Anchor: file + "#" + anchor}
				out[key] = d
				cur = append(cur, d)
			}
			state = stateProse
			continue
		}
		if len(cur) == 0 {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "|") {
			if state == stateProse {
				flush()
				state = stateTable
			}
			if state == stateTable {
				n := readTable(lines[i:], cur, file+"#"+anchor)
				if n > 0 {
					state = stateDone
				}
				for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "|") {
					i++
				}
			}
			continue
		}
		if state == stateProse {
			prose = append(prose, line)
		}
	}
	if state == stateProse {
		flush()
	}
	return out
}

const (
	stateNone  = iota
	stateProse // reading the block's description
	stateTable // looking for its attribute table
	stateDone  // table read
)

// readTable reads the table at the start of lines into the attributes of
// blocks when its first column is headed "Attribute"; it returns the
// number of rows read.
func readTable(lines []string, blocks []*Documented, anchor string) int {
	if len(lines) < 2 {
		return 0
	}
	header := splitRow(lines[0])
	if len(header) == 0 || !strings.HasPrefix(header[0], "Attribute") {
		return 0
	}
	n := 0
	for _, line := range lines[2:] {
		if !strings.HasPrefix(strings.TrimSpace(line), "|") {
			break
		}
		cells := splitRow(line)
		names := attrName.FindAllStringSubmatch(cells[0], -1)
		if len(names) == 0 {
			continue
		}
		md := rowMarkdown(header, cells)
		for _, m := range names {
			for _, d := range blocks {
				if _, dup := d.Attributes[m[1]]; !dup {
					d.Order = append(d.Order, m[1])
				}
				d.Attributes[m[1]] = Entry{
					Title:    m[1] + " (" + d.Block.Title + ")",
					Markdown: md,
					Anchor:   anchor,
				}
			}
		}
		n++
	}
	return n
}

// rowMarkdown is one row of an attribute table as text: the meaning first,
// then the other columns on one line, "Type: string · Required: no".
func rowMarkdown(header, cells []string) string {
	var meaning string
	var rest []string
	for i := 1; i < len(header) && i < len(cells); i++ {
		h, c := header[i], cells[i]
		if c == "" {
			continue
		}
		if strings.HasPrefix(h, "Meaning") && meaning == "" {
			meaning = c
			if h != "Meaning" {
				rest = append(rest, h+": "+c)
				meaning = ""
			}
			continue
		}
		rest = append(rest, h+": "+c)
	}
	facts := strings.Join(rest, " · ")
	switch {
	case meaning == "":
		return facts
	case facts == "":
		return meaning
	}
	return meaning + "\n\n" + facts
}

// splitRow splits a table row into its cells; a | inside backquotes or
// written \| does not end a cell.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	var cells []string
	var b strings.Builder
	code := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case c == '`':
			code = !code
			b.WriteByte(c)
		case c == '|' && !code:
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	if rest := strings.TrimSpace(b.String()); rest != "" {
		cells = append(cells, rest)
	}
	return cells
}

// slugOf is the anchor GitHub gives a heading.
func slugOf(title string) string {
	title = mdLink.ReplaceAllString(title, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

var mdLink = lazyregexp.New(`\[([^\]]*)\]\([^)]*\)`)
