package table_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestRedactDiagnostics checks that a sensitive variable's text is
// replaced by the marker every layer writes, a secret holding another
// whole.
func TestRedactDiagnostics(t *testing.T) {
	diags := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Cannot open sk-live-9876",
		Detail:   "The DSN postgres://app:sk-live-9876@db was refused; pin 9876 and id 42 are fine.",
	}}
	secrets := rule.LongestFirst([]string{"9876", "sk-live-9876", "42"})
	table.RedactDiagnostics(diags, secrets)
	if got, want := diags[0].Summary, "Cannot open [redacted]"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	if got, want := diags[0].Detail, "The DSN postgres://app:[redacted]@db was refused; pin [redacted] and id 42 are fine."; got != want {
		t.Errorf("detail = %q, want %q", got, want)
	}
}
