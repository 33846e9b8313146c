package lang

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/hcl/v2"
)

// Lint is a `lint` block: settings of `mcpdecl validate`'s quality checks
// for the block that holds it (a tool, resource, resource template, prompt
// or backend) or, in the server block, for the whole configuration. Each
// of those blocks has it as its Lint field (at most one; a backend's is
// taken out of its Body by Load, so that the adapter never sees it). The
// codes are checked by package lint, which knows them; this package only
// decodes the block.
type Lint struct {
	// Ignore lists the codes (or rule names) not reported for this block.
	Ignore *hcl.Attribute `hcl:"ignore,optional"`
	// TokenBudget is the most tokens the tools/list result may cost a
	// model, by lint's estimate; only in the server block.
	TokenBudget *hcl.Attribute `hcl:"token_budget,optional"`
	DeclRange   hcl.Range      `hcl:",def_range"`
}

// lintSchema finds a backend's lint block, whose other contents belong to
// its adapter.
var lintSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "lint"}}}

// checkLint reports a second lint block of what, and a token_budget
// outside the server block.
func checkLint(blocks []*Lint, what string, server bool) hcl.Diagnostics {
	l, diags := single(blocks, func(l *Lint) hcl.Range { return l.DeclRange }, "lint", what)
	if l != nil && l.TokenBudget != nil && !server {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Misplaced token_budget",
			Detail:   fmt.Sprintf("token_budget limits the whole tools/list result, so it is set once, in server { lint { token_budget = ... } }, not in %s.", lowerFirst(what)),
			Subject:  l.TokenBudget.NameRange.Ptr(),
		})
	}
	return diags
}

// splitBackendLint takes the lint block out of a backend's body, so that
// the adapter decodes the rest with its own schema.
func splitBackendLint(b *Backend) hcl.Diagnostics {
	content, rest, diags := b.Body.PartialContent(lintSchema)
	b.Body = detach(rest)
	for _, blk := range content.Blocks {
		l := &Lint{}
		diags = append(diags, decodeBlock(blk, reflect.ValueOf(l))...)
		b.Lint = append(b.Lint, l)
	}
	return append(diags, checkLint(b.Lint, fmt.Sprintf("The backend %q", b.Name), false)...)
}
