package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

// appTool is a tool that shows its results in the app named app.
func appTool(app string) string {
	return `
tool "order_totals" {
  description = "Order totals per customer, for the dashboard."
  annotations {
    read_only = true
  }
  ui {
    app = "` + app + `"
  }
  content "text" {
    text = "{}"
  }
}
`
}

// inlineApp is an app whose page is html, with the given csp block.
func inlineApp(page, csp string) string {
	return `
app "dashboard" {
  uri         = "ui://orders/dashboard"
  description = "A chart of the order totals."
  html        = <<-EOT
` + page + `
  EOT
  ` + csp + `
}
`
}

func TestUnusedApp(t *testing.T) {
	const src = `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  html = "<p>hi</p>"
}
app "spare" {
  uri  = "ui://orders/spare"
  html = "<p>hi</p>"
}
`
	diags := wantFindings(t, src+appTool("dashboard"), lint.CodeUnusedApp, "MCPD505 6:5")
	if d := detailOf(t, diags, lint.CodeUnusedApp); !strings.Contains(d, `ui { app = "spare" }`) || !strings.Contains(d, "ui://orders/spare") {
		t.Errorf("detail: %s", d)
	}
	// The app's own lint block can ignore it.
	ignored := strings.Replace(src, `uri  = "ui://orders/spare"`, "uri  = \"ui://orders/spare\"\n  lint {\n    ignore = [\"unused-app\"]\n  }", 1)
	wantFindings(t, ignored+appTool("dashboard"), lint.CodeUnusedApp)
}

// TestAppPageInline checks each kind of reference of an inline page, at
// the html attribute, with the line and column in the page.
func TestAppPageInline(t *testing.T) {
	cases := []struct {
		name, page, csp string
		want            [][]string // per finding, in order: texts of its detail
	}{
		{"script src outside resource_domains", `<script src="https://cdn.example.com/chart.js"></script>`, "",
			[][]string{{`At line 1, column 14 of the page: the <script src> refers to https://cdn.example.com/chart.js`, `Add "https://cdn.example.com" to csp { resource_domains = [...] }`}}},
		{"script src inside resource_domains", `<script src="https://cdn.example.com/chart.js"></script>`,
			`csp { resource_domains = ["https://cdn.example.com"] }`, nil},
		{"wildcard subdomain", `<img src="https://a.b.cdn.example.com/x.png"><img src="https://cdn.example.com/apex.png">`,
			`csp { resource_domains = ["https://*.cdn.example.com"] }`,
			[][]string{{`column 56 of the page: the <img src> refers to https://cdn.example.com/apex.png`}}},
		{"link stylesheet, not canonical", `<link rel="canonical" href="https://example.com/"><link rel="Stylesheet" href="https://fonts.example.com/a.css">`, "",
			[][]string{{`the <link href> refers to https://fonts.example.com/a.css`}}},
		{"iframe needs frame_domains", `<iframe src="https://player.example.com/v"></iframe>`,
			`csp { resource_domains = ["https://player.example.com"] }`,
			[][]string{{`the <iframe src> refers to https://player.example.com/v, whose origin is not in the app's csp frame_domains`}}},
		{"iframe in frame_domains", `<iframe src="https://player.example.com/v"></iframe>`,
			`csp { frame_domains = ["https://player.example.com"] }`, nil},
		{"base href", `<base href="https://base.example.com/">`, "", [][]string{{`csp base_uri_domains`}}},
		{"relative", `<script src="app.js"></script><img src="data:image/png;base64,AAAA"><a href="/x">x</a>`, "",
			[][]string{{`"app.js", a relative URL`}}},
		{"fetch outside connect_domains", "<script>\n  fetch(\"https://api.example.com/orders\")\n</script>", "",
			[][]string{{`At line 2, column 10 of the page: a fetch() call in a script refers to https://api.example.com/orders`, `Add "https://api.example.com" to csp { connect_domains = [...] }`}}},
		{"fetch in connect_domains, not resource_domains", "<script>fetch('https://api.example.com/orders')</script>",
			`csp { resource_domains = ["https://api.example.com"] }`, [][]string{{`connect_domains`}}},
		{"new URL only parses", "<script>const base = new URL(\"https://json-schema.example.org/\")</script>", "", nil},
		{"websocket allowed by https origin", "<script>new WebSocket(`wss://api.example.com/live`)</script>",
			`csp { connect_domains = ["https://api.example.com"] }`, nil},
		{"websocket on another port", "<script>new WebSocket(\"wss://api.example.com:8443/live\")</script>",
			`csp { connect_domains = ["https://api.example.com"] }`, [][]string{{`Add "https://api.example.com:8443"`}}},
		{"imports", "<script type=\"module\">import {a} from \"https://esm.example.com/a.js\"; import(\"https://esm.example.com/b.js\"); fetch(\"/relative\")</script>",
			`csp { resource_domains = ["https://esm.example.com"] }`, nil},
		{"import outside", "<script type=\"module\">import \"https://esm.example.com/a.js\"</script>", "",
			[][]string{{`an import in a script refers to https://esm.example.com/a.js`}}},
		{"import map", `<script type="importmap">{"imports": {"x": "https://esm.example.com/x.js"}}</script>`, "",
			[][]string{{`an import map refers to https://esm.example.com/x.js`}}},
		{"css", `<style>body { background: url("https://img.example.com/bg.png") }</style><p style="background: url(//img2.example.com/a.png)">`, "",
			[][]string{{`a url() in a style sheet refers to https://img.example.com/bg.png`}, {`a url() in a style attribute refers to //img2.example.com/a.png`, `Add "https://img2.example.com"`}}},
		{"form and plugin", `<form action="https://forms.example.com/"></form><object data="x.swf"></object><form onsubmit="send()"></form>`, "",
			[][]string{{`the <form action> refers to "https://forms.example.com/", which every app's policy blocks`}, {`the <object data> refers to "x.swf"`}}},
		{"http source allows https", `<img src="https://img.example.com/a.png">`, `csp { resource_domains = ["http://img.example.com"] }`, nil},
		{"https source does not allow http", `<img src="http://img.example.com/a.png">`, `csp { resource_domains = ["https://img.example.com"] }`,
			[][]string{{`Add "http://img.example.com"`}}},
		{"template literal host not guessed", "<script>fetch(`https://$${host}/x`)</script>", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			diags := check(t, inlineApp(tc.page, tc.csp)+appTool("dashboard"))
			var got []*hcl.Diagnostic
			for _, d := range diags {
				if lint.CodeOf(d) == lint.CodeAppBlockedOrigin {
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("want %d findings, got %d:%s", len(tc.want), len(got), describe(diags))
			}
			for i, texts := range tc.want {
				for _, w := range texts {
					if !strings.Contains(got[i].Detail, w) {
						t.Errorf("finding %d lacks %q:\n%s", i, w, got[i].Detail)
					}
				}
				// At the html attribute's value: line 5 of the configuration.
				if got[i].Subject.Start.Line != 5 || got[i].Subject.Start.Column != 17 {
					t.Errorf("finding %d at %s, want the html attribute (5:17)", i, got[i].Subject)
				}
			}
		})
	}
}

// TestAppPageFile reports a page file's references at their line and
// column in that file.
func TestAppPageFile(t *testing.T) {
	dir := t.TempDir()
	page := "<!doctype html>\n<html>\n<head>\n  <script src=\"https://cdn.example.com/chart.js\"></script>\n" +
		"  <script src=\"https://ok.example.com/ok.js\"></script>\n</head>\n<body>\n<script>\n  // a comment\n  const é = new WebSocket(\"wss://live.example.com/\");\n</script>\n</body>\n</html>\n"
	if err := os.WriteFile(filepath.Join(dir, "dashboard.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "dashboard.html"
  csp {
    resource_domains = ["https://ok.example.com"]
  }
}
` + appTool("dashboard")
	cfgPath := filepath.Join(dir, "app.hcl")
	if err := os.WriteFile(cfgPath, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lang.Load(cfgPath)
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if diags = append(diags, d...); diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, f := range lint.Check(cfg, tbl) {
		got = append(got, lint.CodeOf(f)+" "+f.Subject.String())
	}
	file := filepath.Join(dir, "dashboard.html")
	want := []string{
		"MCPD601 " + file + ":4,16-48",
		"MCPD601 " + file + ":10,28-51",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
