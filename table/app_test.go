package table_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// appDiagnostics loads and compiles the configuration file at path and
// returns each diagnostic as "line:col: severity: summary: detail".
func appDiagnostics(t *testing.T, path string) []string {
	t.Helper()
	cfg, diags := lang.Load(path)
	if !cfg.Incomplete {
		_, d := table.Compile(cfg, all.Registry(), table.Options{})
		diags = append(diags, d...)
	}
	var out []string
	for _, d := range diags {
		pos := "0:0"
		if d.Subject != nil {
			pos = fmt.Sprintf("%d:%d", d.Subject.Start.Line, d.Subject.Start.Column)
		}
		sev := "error"
		if d.Severity != 1 {
			sev = "warning"
		}
		out = append(out, fmt.Sprintf("%s: %s: %s: %s", pos, sev, d.Summary, d.Detail))
	}
	return out
}

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

// TestAppDiagnostics gives each mistake in app and ui blocks its own
// diagnostic, at the line and column of the mistake, saying what to do.
func TestAppDiagnostics(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want [][]string // per diagnostic, texts it holds
	}{
		{"unknown app", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
}
tool "totals" {
  description = "Totals."
  ui {
    app = "dashbord"
  }
  content "text" { text = "1" }
}`, [][]string{{"9:11: error: Unknown app", `no app block has that name`, `The apps are "dashboard".`, `Did you mean "dashboard"?`}}},
		{"unknown app, none declared", `
tool "totals" {
  description = "Totals."
  ui { app = "dashboard" }
  content "text" { text = "1" }
}`, [][]string{{"4:14: error: Unknown app", `Declare it: app "<name>"`}}},
		{"not ui://", `
app "dashboard" {
  uri  = "https://orders.example.com/dashboard"
  html = "<p>hi</p>"
}`, [][]string{{"3:10: error: Invalid app URI", `not a ui:// URI`, `ui://orders/dashboard`}}},
		{"ui: without //", `
app "dashboard" {
  uri  = "ui:dashboard"
  html = "<p>hi</p>"
}`, [][]string{{"3:10: error: Invalid app URI"}}},
		{"ui:// alone", `
app "dashboard" {
  uri  = "ui://"
  html = "<p>hi</p>"
}`, [][]string{{"3:10: error: Invalid app URI"}}},
		{"duplicate uri with a resource", `
resource "page" {
  uri  = "ui://orders/dashboard"
  text = "x"
}
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
}`, [][]string{{"7:10: error: Duplicate resource URI", `already served by the resource declared at`, "app.hcl:3"}}},
		{"duplicate uri between apps", `
app "one" {
  uri  = "ui://orders/dashboard"
  html = "<p>1</p>"
}
app "two" {
  uri  = "ui://orders/dashboard"
  html = "<p>2</p>"
}`, [][]string{{"7:10: error: Duplicate resource URI"}}},
		{"duplicate app name", `
app "one" {
  uri  = "ui://orders/one"
  html = "<p>1</p>"
}
app "one" {
  uri  = "ui://orders/two"
  html = "<p>2</p>"
}`, [][]string{{"6:5: error: Duplicate app name", "App block names must be unique"}}},
		{"csp entries that are not origins", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
  csp {
    connect_domains  = ["'self'", "*", "data:", "api.example.com", "https://api.example.com/v1"]
    resource_domains = ["ftp://files.example.com", "https://a.*.example.com", "https://user@example.com", "https://ok.example.com:8443"]
    frame_domains    = ["https://example.com?x=1", "https://a.example.com; script-src *"]
    base_uri_domains = ["https://example.com#top", "https://exa mple.com"]
  }
}`, [][]string{
			{"6:25: error: Invalid CSP origin", `"'self'" is not an origin`, "keywords and * are not accepted", "connect_domains", "https://*.example.com"},
			{"6:35: error: Invalid CSP origin", `"*" is not an origin`, "keywords and * are not accepted"},
			{"6:40: error: Invalid CSP origin", `"data:"`, "a bare scheme (data:) would allow every host"},
			{"6:49: error: Invalid CSP origin", "it has no scheme; write https:// before the host"},
			{"6:68: error: Invalid CSP origin", "no path, query or fragment"},
			{"7:25: error: Invalid CSP origin", "the scheme is ftp; only https and http origins are accepted", "resource_domains"},
			{"7:52: error: Invalid CSP origin", "a wildcard is only accepted as the first label"},
			{"7:79: error: Invalid CSP origin", "no user name or password"},
			{"8:25: error: Invalid CSP origin", "no path, query or fragment", "frame_domains"},
			{"8:52: error: Invalid CSP origin", `it holds ";" and a directive (script-src *)`, "frame_domains"},
			{"9:25: error: Invalid CSP origin", "no path, query or fragment", "base_uri_domains"},
			{"9:52: error: Invalid CSP origin", "it holds a space"},
		}},
		{"missing file", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "pages/missing.html"
}`, [][]string{{"4:10: error: App page not found", "missing.html is not a readable file", "relative to the configuration file"}}},
		{"folder for a file", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "."
}`, [][]string{{"4:10: error: App page not found"}}},
		{"binary file", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "page.bin"
}`, [][]string{{"4:10: error: App page is not text", "Save it as UTF-8"}}},
		{"both file and html", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "page.html"
  html = "<p>hi</p>"
}`, [][]string{{"5:3: error: Conflicting app page", "both file and html; keep exactly one"}}},
		{"neither file nor html", `
app "dashboard" {
  uri = "ui://orders/dashboard"
}`, [][]string{{"2:1: error: Missing app page", `Give file = "<path to an .html file>"`}}},
		{"unknown permission", `
app "dashboard" {
  uri         = "ui://orders/dashboard"
  html        = "<p>hi</p>"
  permissions = ["camera", "clipboard-write"]
}`, [][]string{{"5:28: error: Unknown app permission", `"clipboard-write" is not a permission`, `"camera", "clipboard_write", "geolocation" and "microphone"`, `Did you mean "clipboard_write"?`}}},
		{"unknown visibility", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
}
tool "totals" {
  description = "Totals."
  ui {
    app        = "dashboard"
    visibility = ["app", "modle"]
  }
  content "text" { text = "1" }
}`, [][]string{{"10:26: error: Unknown visibility", `"modle" is not a visibility`, `Did you mean "model"?`}}},
		{"empty visibility", `
tool "totals" {
  description = "Totals."
  ui { visibility = [] }
  content "text" { text = "1" }
}`, [][]string{{"4:21: error: Empty visibility", "would hide the tool from both the model and the app"}}},
		{"empty ui block", `
tool "totals" {
  description = "Totals."
  ui {}
  content "text" { text = "1" }
}`, [][]string{{"4:3: warning: Empty ui block", "changes nothing", `visibility = ["app"]`}}},
		{"two ui blocks", `
tool "totals" {
  description = "Totals."
  ui { visibility = ["app"] }
  ui { visibility = ["model"] }
  content "text" { text = "1" }
}`, [][]string{{"5:3: error: Duplicate ui block", "merge the two into one"}}},
		{"two csp blocks", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
  csp {}
  csp {}
}`, [][]string{{"6:3: error: Duplicate csp block"}}},
		{"misspelt csp attribute", `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
  csp { connect_domain = ["https://api.example.com"] }
}`, [][]string{{"5:9: error: Unsupported argument", `Did you mean "connect_domains"?`}}},
		{"scopes without auth", `
app "dashboard" {
  uri    = "ui://orders/dashboard"
  html   = "<p>hi</p>"
  scopes = ["orders"]
}`, [][]string{{"5:3: error: Scopes without an auth block", `The app "dashboard" requires scopes`}}},
	}
	files := map[string]string{"page.html": "<p>hi</p>", "page.bin": "\xff\xfe\x00<p>"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := appDiagnostics(t, writeConfig(t, tc.src, files))
			if len(got) != len(tc.want) {
				t.Fatalf("want %d diagnostics, got %d:\n%s", len(tc.want), len(got), strings.Join(got, "\n"))
			}
			for i, texts := range tc.want {
				for _, s := range texts {
					if !strings.Contains(got[i], s) {
						t.Errorf("diagnostic %d lacks %q:\n%s", i, s, got[i])
					}
				}
			}
		})
	}
}

// TestAppFileTooLarge refuses a page over the 10 MiB a resource file may
// hold (a sparse file: nothing is written).
func TestAppFileTooLarge(t *testing.T) {
	p := writeConfig(t, `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "big.html"
}`, nil)
	f, err := os.Create(filepath.Join(filepath.Dir(p), "big.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got := appDiagnostics(t, p)
	if len(got) != 1 || !strings.Contains(got[0], "4:10: error: App page too large") || !strings.Contains(got[0], "an app page is sent whole") {
		t.Fatalf("got %q", got)
	}
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

// TestAppJSONSyntax declares an app and a tool's ui block in the JSON
// syntax.
func TestAppJSONSyntax(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.hcl.json")
	src := `{
  "app": {"dashboard": {
    "uri": "ui://orders/dashboard",
    "html": "<p>hi</p>",
    "prefers_border": false,
    "csp": {"resource_domains": ["https://cdn.example.com"]},
    "permissions": ["geolocation"]
  }},
  "tool": {"totals": {
    "description": "Totals.",
    "ui": {"app": "dashboard", "visibility": ["app"]},
    "content": {"text": {"text": "1"}}
  }}
}`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	l := compileApps(t, p).Listing()
	wantRes := map[string]any{"ui": map[string]any{"prefersBorder": false,
		"csp": map[string]any{"resourceDomains": []any{"https://cdn.example.com"}}, "permissions": map[string]any{"geolocation": map[string]any{}}}}
	if len(l.Resources) != 1 || !reflect.DeepEqual(l.Resources[0].Meta, wantRes) {
		t.Errorf("resources: %+v", l.Resources)
	}
	wantTool := map[string]any{"ui": map[string]any{"resourceUri": "ui://orders/dashboard", "visibility": []any{"app"}}, "ui/resourceUri": "ui://orders/dashboard"}
	if len(l.Tools) != 1 || !reflect.DeepEqual(l.Tools[0].Meta, wantTool) {
		t.Errorf("tools: %+v", l.Tools)
	}
}
