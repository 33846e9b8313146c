package table

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Toolset is a compiled toolset block: a named part of the tools, served
// at an endpoint of its own.
type Toolset struct {
	Name, Description string
	// Tools are the names of its tools, in the order of the table's
	// tools (the order tools/list gives them).
	Tools []string
	// Scopes are the scopes its endpoint requires of a token, beside the
	// scopes of each tool.
	Scopes []string
	// Dynamic serves it in the dynamic mode: three meta-tools instead of
	// its tools (see MetaTools).
	Dynamic   bool
	DeclRange hcl.Range

	members map[string]bool
}

// Has reports whether the toolset holds the tool named name.
func (ts *Toolset) Has(name string) bool { return ts.members[name] }

// Toolset returns the toolset named name, or nil.
func (t *Table) Toolset(name string) *Toolset {
	for _, ts := range t.Toolsets {
		if ts.Name == name {
			return ts
		}
	}
	return nil
}

// ToolsetNames are the names of the table's toolsets, in source order.
func (t *Table) ToolsetNames() []string {
	out := make([]string, len(t.Toolsets))
	for i, ts := range t.Toolsets {
		out[i] = ts.Name
	}
	return out
}

// isGlob reports whether a toolset's tools entry is a pattern.
func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// compileToolsets compiles the toolset blocks and the server's dynamic
// attribute. It runs after the tools are compiled: entries name them.
func (c *compiler) compileToolsets() {
	if s := c.cfg.Server; s != nil && s.Dynamic != nil {
		c.table.Dynamic, _ = c.staticBool(s.Dynamic)
	}
	var names []string
	for _, tool := range c.table.Tools {
		names = append(names, tool.Name)
	}
	for _, d := range c.cfg.Toolsets {
		what := fmt.Sprintf("The toolset %q", d.Name)
		ts := &Toolset{Name: d.Name, Description: c.staticString(d.Description), DeclRange: d.DeclRange, members: map[string]bool{}}
		ts.Dynamic, _ = c.staticBool(d.Dynamic)
		if d.Scopes != nil {
			ts.Scopes = c.primitiveAccess(d.Scopes, what).Scopes
		}
		ts.members = c.toolEntries(d.Tools, what, names)
		for _, n := range names {
			if ts.members[n] {
				ts.Tools = append(ts.Tools, n)
			}
		}
		c.table.Toolsets = append(c.table.Toolsets, ts)
	}
}

// The meta-tools of the dynamic mode: the model searches the tools,
// reads one tool's full description, and calls a tool by name.
const (
	MetaSearch   = "search_tools"
	MetaDescribe = "describe_tool"
	MetaCall     = "call_tool"
)

// IsMetaTool reports whether name is one of the dynamic mode's meta-tools.
func IsMetaTool(name string) bool {
	return name == MetaSearch || name == MetaDescribe || name == MetaCall
}

// MetaTools is what tools/list shows in the dynamic mode. Every word here
// is paid for in each session's context, so the listing says only what a
// model needs: what each meta-tool does, where tool names come from, and
// that call_tool's arguments are checked as the tool's own. No titles
// (a model reads names and descriptions), and the hint that matters to a
// client's approval: readOnlyHint, and openWorldHint false (a client
// assumes an open world when the hint is absent).
func MetaTools() []ToolListing {
	readOnly := map[string]any{"readOnlyHint": true, "openWorldHint": false}
	return []ToolListing{
		{
			Name:        MetaSearch,
			Description: "Find this server's tools for a task. Returns their names and descriptions.",
			InputSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"query": map[string]any{"type": "string", "description": "A few words, e.g. \"list open issues\"."},
					"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
				},
				"required": []any{"query"},
			},
			Annotations: readOnly,
		},
		{
			Name:        MetaDescribe,
			Description: "The input and output schemas and annotations of a tool found by search_tools.",
			InputSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"name": map[string]any{"type": "string"}},
				"required":   []any{"name"},
			},
			Annotations: readOnly,
		},
		{
			Name:        MetaCall,
			Description: "Call a tool found by search_tools. Its arguments are checked against the tool's input schema; the result is the tool's.",
			InputSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"name":      map[string]any{"type": "string"},
					"arguments": map[string]any{"type": "object"},
				},
				"required": []any{"name"},
			},
		},
	}
}

// SearchTools ranks the tools for which keep holds (nil: all) against the
// words of query: a word found in a tool's name weighs most, then in its
// title and description, then in its arguments' names and descriptions.
// Tools that match no word are left out; ties keep the table's order. It
// returns at most limit tools.
func (t *Table) SearchTools(query string, keep func(*Tool) bool, limit int) []*Tool {
	words := searchWords(query)
	type scored struct {
		tool  *Tool
		score int
		order int
	}
	var hits []scored
	for i, e := range t.searchIndex() {
		tool := t.Tools[i]
		if keep != nil && !keep(tool) {
			continue
		}
		name, text, args := e.name, e.text, e.args
		score := 0
		for _, w := range words {
			switch {
			case slices.Contains(name, w):
				score += 6
			case hasPrefixWord(name, w):
				score += 4
			}
			if slices.Contains(text, w) {
				score += 3
			} else if hasPrefixWord(text, w) {
				score += 2
			}
			if slices.Contains(args, w) || hasPrefixWord(args, w) {
				score++
			}
		}
		if strings.EqualFold(strings.TrimSpace(query), tool.Name) {
			score += 100
		}
		if score > 0 {
			hits = append(hits, scored{tool, score, i})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]*Tool, 0, min(limit, len(hits)))
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		out = append(out, h.tool)
	}
	return out
}

// searchEntry is one tool's words, for SearchTools.
type searchEntry struct{ name, text, args []string }

// searchIndex holds the words of each tool (t.Tools[i]'s at i), split
// once per table.
func (t *Table) searchIndex() []searchEntry {
	t.searchOnce.Do(func() {
		t.search = make([]searchEntry, len(t.Tools))
		for i, tool := range t.Tools {
			e := searchEntry{name: searchWords(tool.Name), text: searchWords(tool.Title + " " + tool.Description)}
			if tool.Args != nil {
				for _, a := range tool.Args.List {
					e.args = append(e.args, searchWords(a.Name+" "+a.Description)...)
				}
			}
			t.search[i] = e
		}
	})
	return t.search
}

// searchWords splits text into lower-case words at anything that is not
// a letter or digit ("list_pull-requests" is list, pull, requests), leaves
// out the small words that say nothing of a tool ("a", "the"), and drops
// a plural's ending, so "issues" finds "issue" and "repositories"
// "repository".
func searchWords(text string) []string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := fields[:0]
	for _, f := range fields {
		if stopWords[f] {
			continue
		}
		switch {
		case len(f) > 4 && strings.HasSuffix(f, "ies"):
			f = f[:len(f)-3] + "y"
		case len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss"):
			f = f[:len(f)-1]
		}
		out = append(out, f)
	}
	return out
}

// stopWords are left out of searches.
var stopWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "in": true, "to": true, "for": true,
	"and": true, "or": true, "by": true, "with": true, "on": true, "at": true, "from": true, "is": true, "it": true, "my": true}

// hasPrefixWord reports whether a word of words starts with w, or w with
// a word of words, both of three letters or more: "repo" finds
// "repository", and "repository" finds "repo".
func hasPrefixWord(words []string, w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, x := range words {
		if len(x) >= 3 && (strings.HasPrefix(x, w) || strings.HasPrefix(w, x)) {
			return true
		}
	}
	return false
}

// ToolListings are the listings of the tools for which keep holds, in
// the order tools/list gives them.
func (t *Table) ToolListings(keep func(*Tool) bool) []ToolListing {
	all := t.Listing().Tools
	out := make([]ToolListing, 0, len(all))
	for i, tl := range all {
		if keep == nil || keep(t.Tools[i]) {
			out = append(out, tl)
		}
	}
	return out
}

// toolEntries reads a list of tool names and glob patterns ("repo_*"),
// each of which must name or match a declared tool (names), into the set
// of tools it holds; nil when attr is absent or invalid.
func (c *compiler) toolEntries(attr *hcl.Attribute, what string, names []string) map[string]bool {
	v := c.staticValue(attr, cty.List(cty.String))
	if v == cty.NilVal || !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	members := map[string]bool{}
	ranges := elementRanges(attr, v.LengthInt())
	for i, e := range v.AsValueSlice() {
		entry := e.AsString()
		if !isGlob(entry) {
			if !slices.Contains(names, entry) {
				c.add(hcl.Diagnostics{suggestElement(errorf(ranges[i], "Unknown tool in "+strings.Fields(what)[1],
					"%s lists the tool %q, which the configuration does not declare.%s List a declared tool, or a pattern such as \"repo_*\".",
					what, entry, rule.DidYouMean(entry, names)), rule.Closest(entry, names), attr, i)})
				continue
			}
			members[entry] = true
			continue
		}
		if _, err := path.Match(entry, ""); err != nil {
			c.add(hcl.Diagnostics{errorf(ranges[i], "Invalid tool pattern",
				"%s lists the pattern %q, which is not a valid pattern: '*' matches any characters, '?' one, [abc] one of a set. Close each '['.", what, entry)})
			continue
		}
		matched := false
		for _, n := range names {
			if ok, _ := path.Match(entry, n); ok {
				members[n], matched = true, true
			}
		}
		if !matched {
			c.add(hcl.Diagnostics{errorf(ranges[i], "Pattern matches no tool",
				"%s lists the pattern %q, which matches none of the configuration's tools. Correct the pattern or remove it.", what, entry)})
		}
	}
	return members
}
