package sqladapter

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
)

var _ adapter.Checker = (*Action)(nil)

// Check prepares the statement on the open backend without running it, so
// that a misspelt table or column, a wrong parameter type, or SQL the
// database does not accept is reported at the query in the .hcl file.
func (a *Action) Check(ctx context.Context) hcl.Diagnostics {
	if a.Query == nil || a.Backend == nil {
		return nil // already reported at load time
	}
	p := a.Backend.state.Load()
	if p == nil && a.Backend.checkFailed.Load() {
		return nil // reported once, at the backend's dsn
	}
	if p == nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Backend not open",
			Detail: fmt.Sprintf("The backend %q could not be opened, so this query was not checked.", a.Backend.Name), Subject: a.Query.Range.Ptr()}}
	}
	db := p.ro
	if !a.ReadOnly && p.rw != nil {
		db = p.rw
	}
	stmt, err := db.PrepareContext(ctx, a.Query.Text)
	if err != nil {
		// Point at the error inside the query where the database says
		// where it is, not at the whole query, which would leave the
		// reader to find it.
		subject := a.Query.Range
		if off, ok := errorOffset(err, a.Query.Text); ok {
			subject = a.Query.rangeAt(off)
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Query refused by the database",
			Detail:   fmt.Sprintf("The %s backend %q cannot prepare this query: %s. Fix the SQL (tables, columns, types); each ${...} is a bound parameter.", a.Backend.Driver, a.Backend.Name, a.Backend.scrub(err.Error())),
			Subject:  subject.Ptr(),
		}}
	}
	stmt.Close()
	return nil
}
