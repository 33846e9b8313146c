package lint

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/table"
)

// items finds the compiled form of a configuration block by where the
// block is declared, which both forms record.
type items struct {
	tools     map[key]*table.Tool
	resources map[key]*table.Resource
	templates map[key]*table.Template
	prompts   map[key]*table.Prompt
}

// key is where a block is declared: its file and byte offset.
type key struct {
	file string
	at   int
}

func keyOf(r hcl.Range) key { return key{r.Filename, r.Start.Byte} }

func indexItems(t *table.Table) *items {
	ix := &items{tools: map[key]*table.Tool{}, resources: map[key]*table.Resource{},
		templates: map[key]*table.Template{}, prompts: map[key]*table.Prompt{}}
	for _, x := range t.Tools {
		ix.tools[keyOf(x.DeclRange)] = x
	}
	for _, x := range t.Resources {
		ix.resources[keyOf(x.DeclRange)] = x
	}
	for _, x := range t.Templates {
		ix.templates[keyOf(x.DeclRange)] = x
	}
	for _, x := range t.Prompts {
		ix.prompts[keyOf(x.DeclRange)] = x
	}
	return ix
}
