package lint

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/table"
)

// CheckOnline opens every backend the way the server's lifecycle does for
// a check and checks every call that can be checked, then closes the
// backends. It returns the backends' notes.
func CheckOnline(ctx context.Context, t *table.Table) ([]string, hcl.Diagnostics) {
	notes, diags, failed := t.OpenForCheck(ctx)
	defer t.CloseBackends(nil)
	for _, f := range failed {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Backend unreachable",
			Detail: fmt.Sprintf("The backend %q could not be opened: %s.", f.Name, f.Err)})
	}
	for _, a := range actions(t) {
		if c, ok := a.(adapter.Checker); ok {
			diags = append(diags, c.Check(ctx)...)
		}
	}
	slices.Sort(notes)
	return notes, diagcode.Mark(table.RedactDiagnostics(diags, t.Secrets), diagcode.Check)
}

func actions(t *table.Table) []adapter.Action {
	var out []adapter.Action
	for _, tool := range t.Tools {
		out = append(out, tool.Action)
	}
	for _, r := range t.Resources {
		out = append(out, r.Action)
	}
	for _, tm := range t.Templates {
		out = append(out, tm.Action)
	}
	return out
}

// Checkable is how many calls of t its backends can check.
func Checkable(t *table.Table) int {
	n := 0
	for _, a := range actions(t) {
		if _, ok := a.(adapter.Checker); ok {
			n++
		}
	}
	return n
}
