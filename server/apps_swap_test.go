package server

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestSwapReportsChangedApps: an app is a resource for subscriptions; a
// reload that changes its page or its policy updates its URI.
func TestSwapReportsChangedApps(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte("<p>file</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	compile := func(inline, origin string) *table.Table {
		p := filepath.Join(dir, "apps.hcl")
		src := `
app "inline" {
  uri  = "ui://t/inline"
  html = "` + inline + `"
}
app "file" {
  uri  = "ui://t/file"
  file = "page.html"
  csp { connect_domains = ["` + origin + `"] }
}`
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, diags := lang.Load(p)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return tbl
	}
	s := New(compile("<p>one</p>", "https://a.example.com"), nil)
	if _, updated := s.SwapAndDiff(compile("<p>one</p>", "https://a.example.com")); len(updated) != 0 {
		t.Errorf("nothing changed, yet %v updated", updated)
	}
	if _, updated := s.SwapAndDiff(compile("<p>two</p>", "https://a.example.com")); !slices.Equal(updated, []string{"ui://t/inline"}) {
		t.Errorf("inline page changed: updated %v", updated)
	}
	if _, updated := s.SwapAndDiff(compile("<p>two</p>", "https://b.example.com")); !slices.Equal(updated, []string{"ui://t/file"}) {
		t.Errorf("file app's policy changed: updated %v", updated)
	}
}
