package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestLoadApp decodes an app block and a tool's ui block, in both
// syntaxes.
func TestLoadApp(t *testing.T) {
	native := `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
  csp {
    connect_domains = ["https://api.example.com"]
  }
  lint {
    ignore = ["unused-app"]
  }
}
tool "totals" {
  ui {
    app        = "dashboard"
    visibility = ["app"]
  }
  content "text" { text = "1" }
}`
	json := `{
  "app": {"dashboard": {"uri": "ui://orders/dashboard", "html": "<p>hi</p>",
    "csp": {"connect_domains": ["https://api.example.com"]}, "lint": {"ignore": ["unused-app"]}}},
  "tool": {"totals": {"ui": {"app": "dashboard", "visibility": ["app"]}, "content": {"text": {"text": "1"}}}}
}`
	for name, src := range map[string]string{"a.hcl": native, "a.hcl.json": json} {
		cfg, diags := LoadSource(name, []byte(src))
		if len(diags) > 0 {
			t.Fatalf("%s: %s", name, diags)
		}
		if len(cfg.Apps) != 1 || len(cfg.Tools) != 1 {
			t.Fatalf("%s: %d apps, %d tools", name, len(cfg.Apps), len(cfg.Tools))
		}
		a := cfg.Apps[0]
		if a.Name != "dashboard" || a.URI == nil || a.HTML == nil || a.File != nil || len(a.CSP) != 1 || a.CSP[0].ConnectDomains == nil || len(a.Lint) != 1 {
			t.Errorf("%s: app decoded as %+v", name, a)
		}
		ui := cfg.Tools[0].UI
		if len(ui) != 1 || ui[0].App == nil || ui[0].Visibility == nil {
			t.Errorf("%s: ui decoded as %+v", name, ui)
		}
	}
}

// TestAppBlockDiagnostics: the checks made while loading, each at its
// place.
func TestAppBlockDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // "line:col severity summary", in order
	}{
		{`app "a" { uri = "ui://a/b" }`, []string{"1:1 error Missing app page"}},
		{"app \"a\" {\n  uri  = \"ui://a/b\"\n  html = \"x\"\n  file = \"x.html\"\n}", []string{"4:3 error Conflicting app page"}},
		{"app \"a\" {\n  uri  = \"ui://a/b\"\n  file = \"x.html\"\n  html = \"x\"\n}", []string{"4:3 error Conflicting app page"}},
		{"app \"a\" {\n  html = \"x\"\n}", []string{"1:9 error Missing required argument"}},
		{"app \"a b\" {\n  uri = \"ui://a/b\"\n  html = \"x\"\n}", []string{"1:5 error Invalid app name"}},
		{"app \"a\" {\n  uri = \"ui://a/b\"\n  html = \"x\"\n  csp {}\n  csp {}\n}", []string{"5:3 error Duplicate csp block"}},
		{"app \"a\" {\n  uri = \"ui://a/b\"\n  html = \"x\"\n  csp { frame = [] }\n}", []string{"4:9 error Unsupported argument"}},
		{"tool \"t\" {\n  ui {}\n  content \"text\" { text = \"1\" }\n}", []string{"2:3 warning Empty ui block"}},
		{"tool \"t\" {\n  ui { app = \"a\" }\n  ui { app = \"a\" }\n  content \"text\" { text = \"1\" }\n}", []string{"3:3 error Duplicate ui block"}},
		{"tool \"t\" {\n  ui { application = \"a\" }\n  content \"text\" { text = \"1\" }\n}", []string{"2:8 error Unsupported argument", "2:3 warning Empty ui block"}},
		{"app \"a\" {\n  uri = \"ui://a/1\"\n  html = \"x\"\n}\napp \"a\" {\n  uri = \"ui://a/2\"\n  html = \"x\"\n}", []string{"5:5 error Duplicate app name"}},
	} {
		_, diags := LoadSource("a.hcl", []byte(tc.src))
		var got []string
		for _, d := range diags {
			sev := "error"
			if d.Severity == hcl.DiagWarning {
				sev = "warning"
			}
			got = append(got, fmt.Sprintf("%d:%d %s %s", d.Subject.Start.Line, d.Subject.Start.Column, sev, d.Summary))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s\ngot  %q\nwant %q", tc.src, got, tc.want)
		}
	}
}
