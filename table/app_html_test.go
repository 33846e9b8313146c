package table

import (
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// cspOf parses page as a browser would and returns the content of the
// first element of its head when that is a CSP meta element, and whether
// any script or link element comes before it in the document.
func cspOf(t *testing.T, page string) (policy string, found, scriptBefore bool) {
	t.Helper()
	doc, err := xhtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var head *xhtml.Node
	var walk func(n *xhtml.Node) bool
	walk = func(n *xhtml.Node) bool {
		if n.Type == xhtml.ElementNode {
			switch n.Data {
			case "head":
				if head == nil {
					head = n
				}
			case "meta":
				if n.Parent == head && head.FirstChild == n {
					for _, a := range n.Attr {
						if a.Key == "content" {
							policy = a.Val
						}
						if a.Key == "http-equiv" && a.Val == "Content-Security-Policy" {
							found = true
						}
					}
					return true
				}
			case "script", "link", "img", "style", "base":
				scriptBefore = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(doc)
	return policy, found, scriptBefore
}

// TestInjectCSP puts the policy first in the head of pages of every
// shape: with or without doctype, html, head or body, with comments and a
// byte order mark before them, and with elements before any head.
func TestInjectCSP(t *testing.T) {
	const policy = "default-src 'none'; connect-src https://api.example.com"
	pages := map[string]string{
		"full":             "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"><script>x()</script></head><body></body></html>",
		"upper case":       "<!DOCTYPE html><HTML><HEAD><SCRIPT>x()</SCRIPT></HEAD></HTML>",
		"head attributes":  "<html><head data-x=\"<head>\"><script>x()</script></head></html>",
		"no head":          "<!doctype html><html><body><script>x()</script></body></html>",
		"no html":          "<!doctype html><script>x()</script><p>hi</p>",
		"fragment":         "<p>hi</p><img src=\"a.png\">",
		"text first":       "hello <b>world</b>",
		"comments first":   "<!-- a --><!doctype html><!-- <head> --><html><!-- b --><head><base href=\"https://x.example\"></head></html>",
		"byte order mark":  "\ufeff<!doctype html><html><head><link rel=\"stylesheet\" href=\"a.css\"></head></html>",
		"script before":    "<script>x()</script><html><head></head></html>",
		"empty":            "",
		"only whitespace":  " \n\t",
		"head after title": "<html><title>t</title><head><script>x()</script></head></html>",
		"broken tag":       "<html><head <script>x()</script>",
		"self-closing":     "<html/><head/><script>x()</script>",
		"style in head":    "<head><style>body{}</style></head>",
	}
	for name, page := range pages {
		t.Run(name, func(t *testing.T) {
			out := InjectCSP(page, policy)
			got, found, before := cspOf(t, out)
			if !found || got != policy {
				t.Errorf("the first element of the head is not the policy (found %v, content %q):\n%s", found, got, out)
			}
			if before {
				t.Errorf("an element that loads or runs something comes before the policy:\n%s", out)
			}
			if strings.Count(out, "Content-Security-Policy") != 1 {
				t.Errorf("want exactly one policy:\n%s", out)
			}
		})
	}
}

// TestInjectCSPEscapes keeps a hostile policy text inside its attribute:
// the policy is built from checked origins, so this cannot come from a
// configuration, but the escaping must hold whatever it is given.
func TestInjectCSPEscapes(t *testing.T) {
	hostile := `default-src 'none'"><script>alert(1)</script><meta content="x' & <b>`
	out := InjectCSP("<html><head></head><body></body></html>", hostile)
	got, found, before := cspOf(t, out)
	if !found || got != hostile || before {
		t.Fatalf("the policy left its attribute (content %q, script before %v):\n%s", got, before, out)
	}
	if strings.Contains(out, "<script>") {
		t.Errorf("a script element was written:\n%s", out)
	}
}

// TestAppPolicy builds the policy from the csp lists alone: everything
// the lists do not name is 'none' (or data:/blob: for media).
func TestAppPolicy(t *testing.T) {
	none := AppCSP{}.Policy()
	want := "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; " +
		"font-src data:; media-src data: blob:; connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'"
	if none != want {
		t.Errorf("empty csp:\n got %s\nwant %s", none, want)
	}
	full := AppCSP{Connect: []string{"https://api.example.com", "http://localhost:3000"}, Resource: []string{"https://*.cdn.example.com"},
		Frame: []string{"https://player.example.com"}, BaseURI: []string{"https://base.example.com"}}.Policy()
	want = "default-src 'none'; script-src 'unsafe-inline' https://*.cdn.example.com; style-src 'unsafe-inline' https://*.cdn.example.com; " +
		"img-src data: blob: https://*.cdn.example.com; font-src data: https://*.cdn.example.com; media-src data: blob: https://*.cdn.example.com; " +
		"connect-src https://api.example.com http://localhost:3000; frame-src https://player.example.com; base-uri https://base.example.com; form-action 'none'"
	if full != want {
		t.Errorf("full csp:\n got %s\nwant %s", full, want)
	}
}

// TestOrigins accepts origins and nothing that could widen a policy or
// break out of it.
func TestOrigins(t *testing.T) {
	for _, ok := range []string{"https://api.example.com", "http://localhost:8080", "https://*.example.com", "https://a-b.c-d.example",
		"https://example.com:443", "http://127.0.0.1:3000", "https://xn--bcher-kva.example"} {
		if why := notOrigin(ok); why != "" {
			t.Errorf("%q refused: %s", ok, why)
		}
	}
	for _, bad := range []string{"", "*", "'self'", "'unsafe-eval'", "data:", "blob:", "https:", "https://", "https://*", "https://*.",
		"https://example.com/", "https://example.com/x", "https://example.com?q", "https://example.com#f", "wss://example.com",
		"javascript://example.com", "https://u:p@example.com", "https://ex ample.com", "https://example.com;script-src *",
		"https://example.com'", `https://example.com"`, "https://example.com,https://b.com", "https://-example.com", "https://example-.com",
		"https://example.com:", "https://example.com:123456", "https://*.*.example.com", "https://a.*.example.com", "HTTPS://EXAMPLE.COM\n",
		"https://[::1]", "https://exa\u00e9mple.com"} {
		if notOrigin(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestOriginWithDirective: an entry that would end its directive and
// start another is refused for that, whatever else it holds.
func TestOriginWithDirective(t *testing.T) {
	for _, c := range []struct{ entry, want string }{
		{"https://a.example.com; script-src *", `it holds ";" and a directive (script-src *)`},
		{"https://a.example.com;script-src 'unsafe-eval'", `it holds ";" and a directive (script-src 'unsafe-eval')`},
		{"https://a.example.com;", `it holds ";"`},
		{"'self'; script-src *", `it holds ";" and a directive (script-src *)`},
		{"https://a.example.com https://b.example.com", "it holds a space"},
		{"https://a.example.com,https://b.example.com", `it holds ","`},
	} {
		why := notOrigin(c.entry)
		if !strings.Contains(why, c.want) {
			t.Errorf("%q refused with %q, want %q", c.entry, why, c.want)
		}
		if strings.Contains(why, "wildcard") || strings.Contains(why, "keywords") {
			t.Errorf("%q refused for the wrong reason: %q", c.entry, why)
		}
	}
}

// FuzzInjectCSP: whatever the page, the policy is the first element of
// the head as a browser parses it, and nothing that loads or runs comes
// before it.
func FuzzInjectCSP(f *testing.F) {
	for _, seed := range []string{"", "<p>x", "<!doctype html><html><head></head></html>", "\ufeff<head>", "<script>x</script><head>",
		"<html><!--<head>--><head a='>'>", "<?xml?><html>", "</p><head>", "\x00<head>", "<HEAD/>", "<title>t</title><head>"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		out := InjectCSP(page, "default-src 'none'")
		got, found, before := cspOf(t, out)
		if !found || got != "default-src 'none'" || before {
			t.Fatalf("page %q: policy found %v (%q), something before it %v:\n%s", page, found, got, before, out)
		}
	})
}
