package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
)

// TestLargeConfigIsValid holds the benchmarks' generated config to what
// they claim to measure: a config that validates with no error and no
// lint finding but the listing's token budget (which a config this large
// exceeds by design), with every tool counted.
func TestLargeConfigIsValid(t *testing.T) {
	p := filepath.Join(t.TempDir(), "large.hcl")
	var src bytes.Buffer
	if err := largecfg.Write(&src, 400); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, src.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	diags := validateJSON(t, p)
	for _, d := range diags {
		if d.Code != "MCPD301" {
			t.Errorf("finding %s (%s): %s %s", d.Code, d.Severity, d.Summary, d.Detail)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", p}, &out, &errOut); code != 0 || !strings.Contains(out.String()+errOut.String(), "valid: 400 tools") {
		t.Errorf("validate exit %d, want 0 and a summary of 400 tools:\n%s%s", code, out.String(), errOut.String())
	}
}
