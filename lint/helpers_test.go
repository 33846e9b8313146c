package lint_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

// check compiles src with the real adapters and lints it; the
// configuration must compile.
func check(t *testing.T, src string) hcl.Diagnostics {
	t.Helper()
	cfg, diags := lang.LoadSource("main.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if d.HasErrors() {
		t.Fatalf("compile: %s", d.Error())
	}
	return lint.Check(cfg, tbl)
}

// found lists the findings as "CODE line:col", in order.
func found(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%s %d:%d", lint.CodeOf(d), d.Subject.Start.Line, d.Subject.Start.Column))
	}
	return out
}

// codes lists the codes found.
func codes(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, lint.CodeOf(d))
	}
	return out
}

// wantFindings checks that src gives exactly want (codes and places)
// among the findings of the given code.
func wantFindings(t *testing.T, src, code string, want ...string) hcl.Diagnostics {
	t.Helper()
	diags := check(t, src)
	var got []string
	for _, f := range found(diags) {
		if strings.HasPrefix(f, code+" ") {
			got = append(got, f)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s findings %q, want %q\nall: %s", code, got, want, describe(diags))
	}
	return diags
}

func describe(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "\n  %s %s: %s", lint.CodeOf(d), d.Subject, d.Detail)
	}
	return b.String()
}

// detailOf returns the detail of the first finding of code.
func detailOf(t *testing.T, diags hcl.Diagnostics, code string) string {
	t.Helper()
	for _, d := range diags {
		if lint.CodeOf(d) == code {
			return d.Detail
		}
	}
	t.Fatalf("no %s finding in %s", code, describe(diags))
	return ""
}
