package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// Toolset is a `toolset "name"` block: a named part of the tools, served
// at an endpoint of its own (/mcp/toolsets/<name> beside /mcp over HTTP,
// serve --toolset over stdio), with the scopes its endpoint requires and
// whether the model meets its tools through the three meta-tools of the
// dynamic mode.
type Toolset struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	Description *hcl.Attribute `hcl:"description,optional"`
	// Tools lists tool names and glob patterns ("repo_*").
	Tools     *hcl.Attribute `hcl:"tools"`
	Scopes    *hcl.Attribute `hcl:"scopes,optional"`
	Dynamic   *hcl.Attribute `hcl:"dynamic,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// toolsetName is the rule of toolset names: they are a segment of a URL
// path and a command-line value.
var toolsetName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// addToolsets checks the names of toolset blocks and keeps them.
func (cfg *Config) addToolsets(ts []*Toolset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range ts {
		if !toolsetName.MatchString(t.Name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid toolset name",
				Detail:   fmt.Sprintf("The toolset name %q is not allowed: it is part of the endpoint's path, so use 1 to 64 letters, digits, '_' and '-', starting with a letter or digit, for example \"repos\".", t.Name),
				Subject:  t.NameRange.Ptr(),
			})
		}
		for _, prev := range cfg.Toolsets {
			if prev.Name == t.Name {
				diags = append(diags, duplicateDiag("toolset", t.Name, prev.DeclRange, t.NameRange, "Toolset names must be unique."))
				break
			}
		}
		cfg.Toolsets = append(cfg.Toolsets, t)
	}
	return diags
}
