package dispatch_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// writeConfig writes src as app.hcl (and the given other files) in a new
// folder and returns the configuration's path.
func writeConfig(t testing.TB, src string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "app.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func compileApps(t testing.TB, path string) *table.Table {
	t.Helper()
	cfg, diags := lang.Load(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl
}

func readPage(t *testing.T, tbl *table.Table, uri string) dispatch.Contents {
	t.Helper()
	c, err := dispatch.ReadResource(context.Background(), tbl, uri, &dispatch.CallInput{})
	if err != nil || len(c) != 1 {
		t.Fatalf("read %s: %v (%d contents)", uri, err, len(c))
	}
	return c[0]
}

// TestAppFileReadOnEachRead reads an app's file on every read, like a
// resource file, and gives every version the declared policy.
func TestAppFileReadOnEachRead(t *testing.T) {
	p := writeConfig(t, `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "page.html"
  csp { connect_domains = ["https://api.example.com"] }
}`, map[string]string{"page.html": "<html><head><title>one</title></head></html>"})
	tbl := compileApps(t, p)
	const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; ` +
		`style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src https://api.example.com; ` +
		`frame-src 'none'; base-uri 'none'; form-action 'none'">`
	c := readPage(t, tbl, "ui://orders/dashboard")
	if want := "<html><head>" + meta + "<title>one</title></head></html>"; c.Text != want || c.MimeType != table.AppMimeType {
		t.Errorf("first read: %s %q\nwant %q", c.MimeType, c.Text, want)
	}
	wantUI := map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.example.com"}}}
	if !reflect.DeepEqual(c.UI, wantUI) {
		t.Errorf("_meta.ui = %v, want %v", c.UI, wantUI)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(p), "page.html"), []byte("<p>two</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := readPage(t, tbl, "ui://orders/dashboard"); c.Text != "<head>"+meta+"</head><p>two</p>" {
		t.Errorf("after an edit: %q", c.Text)
	}
}
