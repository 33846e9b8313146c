package dispatch_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/dispatch"
)

// benchPage is an app page of typical size: a head, some markup and an
// inline script (about 20 KB).
var benchPage = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Orders</title>\n<style>body{font:14px sans-serif}</style>\n</head>\n<body>\n" +
	strings.Repeat("<div class=\"row\"><span>customer</span><span>total</span></div>\n", 200) +
	"<script>\n" + strings.Repeat("function f(x) { return x * 2; }\n", 200) + "</script>\n</body>\n</html>\n"

// BenchmarkReadPage reads the same page file as a plain resource (the
// baseline) and as an app, whose read also puts the policy in its head.
func BenchmarkReadPage(b *testing.B) {
	for _, kind := range []string{"resource", "app"} {
		b.Run(kind, func(b *testing.B) {
			src := `
resource "page" {
  uri       = "pages://page"
  mime_type = "text/html"
  file      = "page.html"
}`
			if kind == "app" {
				src = `
app "page" {
  uri  = "ui://pages/page"
  file = "page.html"
  csp { connect_domains = ["https://api.example.com"] }
}`
			}
			tbl := compileApps(b, writeConfig(b, src, map[string]string{"page.html": benchPage}))
			uri := tbl.Resources[0].URI
			in := &dispatch.CallInput{}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dispatch.ReadResource(context.Background(), tbl, uri, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
