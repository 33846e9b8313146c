package table

import (
	"sort"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// index finds tools, resources, templates and prompts by name or URI. It is
// built once per table, on first use, and read concurrently after that.
type index struct {
	tools     map[string]*Tool
	resources map[string]*Resource
	prompts   map[string]*Prompt
	matchers  []*templateMatcher // most specific first
}

// templateMatcher pairs a resource template with its parsed URI template.
type templateMatcher struct {
	tmpl   *Template
	parsed *uritemplate.Template
	// literal is the number of characters outside {...}: a template with
	// more literal text is more specific (books://{id}/cover beats books://{x}).
	literal int
}

func (t *Table) lookup() *index {
	t.indexOnce.Do(func() {
		ix := &index{tools: map[string]*Tool{}, resources: map[string]*Resource{}, prompts: map[string]*Prompt{}}
		for _, tool := range t.Tools {
			ix.tools[tool.Name] = tool
		}
		for _, r := range t.Resources {
			ix.resources[r.URI] = r
		}
		for _, p := range t.Prompts {
			ix.prompts[p.Name] = p
		}
		for _, tm := range t.Templates {
			if parsed, err := uritemplate.New(tm.URITemplate); err == nil {
				ix.matchers = append(ix.matchers, &templateMatcher{tmpl: tm, parsed: parsed, literal: literalLength(tm.URITemplate)})
			}
		}
		sort.SliceStable(ix.matchers, func(i, j int) bool { return ix.matchers[i].literal > ix.matchers[j].literal })
		t.index = ix
	})
	return t.index
}

// Tool returns the tool named name, or nil.
func (t *Table) Tool(name string) *Tool { return t.lookup().tools[name] }

// Resource returns the resource with exactly this URI, or nil.
func (t *Table) Resource(uri string) *Resource { return t.lookup().resources[uri] }

// Prompt returns the prompt named name, or nil.
func (t *Table) Prompt(name string) *Prompt { return t.lookup().prompts[name] }

// HasResource reports whether a resource or a template serves uri.
func (t *Table) HasResource(uri string) bool {
	if t.Resource(uri) != nil {
		return true
	}
	tm, _ := t.MatchTemplate(uri)
	return tm != nil
}

func literalLength(tmpl string) int {
	n, depth := 0, 0
	for _, r := range tmpl {
		switch {
		case r == '{':
			depth++
		case r == '}':
			depth--
		case depth == 0:
			n++
		}
	}
	return n
}

// MatchTemplate finds the most specific template matching uri and returns
// it with the values of its variables.
func (t *Table) MatchTemplate(uri string) (*Template, map[string]string) {
	for _, m := range t.lookup().matchers {
		vals := m.parsed.Match(uri)
		if vals == nil {
			continue
		}
		out := map[string]string{}
		for _, name := range m.parsed.Varnames() {
			v := vals.Get(name)
			if !v.Valid() {
				continue // absent ({?lang} without lang=): the argument is null
			}
			if v.T == uritemplate.ValueTypeString {
				out[name] = v.String()
			} else {
				out[name] = strings.Join(v.List(), ",")
			}
		}
		return m.tmpl, out
	}
	return nil, nil
}
