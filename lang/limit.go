package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Limit is a `limit "name"` block: a token bucket on tools/call, per
// caller, per tool or for the whole server, over some tools or all.
type Limit struct {
	Name      string         `hcl:"name,label"`
	NameRange hcl.Range      `hcl:"name,label_range"`
	Per       *hcl.Attribute `hcl:"per"`
	Rate      *hcl.Attribute `hcl:"rate"`
	Burst     *hcl.Attribute `hcl:"burst,optional"`
	Tools     *hcl.Attribute `hcl:"tools,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// addLimits checks the names of limit blocks (the toolset name rule: a
// limit's name reaches metrics, refusals and store keys) and keeps them.
func (cfg *Config) addLimits(ls []*Limit) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, l := range ls {
		if !toolsetName.MatchString(l.Name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid limit name",
				Detail:   fmt.Sprintf("The limit name %q is not allowed: use 1 to 64 letters, digits, '_' and '-', starting with a letter or digit, for example \"per_caller\".", l.Name),
				Subject:  l.NameRange.Ptr(),
			})
		}
		for _, prev := range cfg.Limits {
			if prev.Name == l.Name {
				diags = append(diags, duplicateDiag("limit", l.Name, prev.DeclRange, l.NameRange, "Limit names must be unique."))
				break
			}
		}
		cfg.Limits = append(cfg.Limits, l)
	}
	return diags
}
