package e2e

import (
	"net/url"
	"strings"
	"testing"
)

// hostileValues are argument values that would change the shape of a
// request if they were spliced into a URL or a header instead of escaped.
func hostileValues(evilURL string) []string {
	return []string{
		"../admin", "../../etc/passwd", "a/../../b", "..", ".", "./x", "..;/admin",
		"?admin=true", "a?x=1&y=2", "#frag", "a#b?c",
		"%2e%2e", "%2e%2e%2fadmin", "..%2fadmin", "%2F", "%00",
		"a\r\nX-Injected: yes", "a\nb", "\r\n\r\nGET /admin HTTP/1.1",
		"http://evil.example/x", evilURL + "/x", "//evil.example/x", "@evil.example", "\\\\evil.example\\x",
		"a b+c&d=e;f", "ünïcödé", "x",
	}
}

// climbs reports whether v is a value the http adapter refuses as a path
// segment: empty; "." or ".." (also percent-encoded, or before a
// ";parameter"); or holding a "/" or "\\", also percent-encoded any
// number of times, which a decoding proxy would turn into a separator.
func climbs(v string) bool {
	if v == "" {
		return true
	}
	for {
		if strings.ContainsAny(v, "/\\") {
			return true
		}
		if name, _, _ := strings.Cut(v, ";"); name == "." || name == ".." {
			return true
		}
		d, err := url.PathUnescape(v)
		if err != nil || d == v {
			return false
		}
		v = d
	}
}

// checkClean asserts that every request went to host and carried no
// injected header.
func checkClean(t *testing.T, what string, reqs []recorded, host string) {
	t.Helper()
	for _, r := range reqs {
		if r.Host != host {
			t.Errorf("%s: request to host %q, want %q", what, r.Host, host)
		}
		if r.Header.Get("X-Injected") != "" {
			t.Errorf("%s: an injected header arrived: %v", what, r.Header)
		}
	}
}

// TestInjectionPaths sends hostile values through a tool path, a tool query
// and a resource template path of testdata/paths.hcl (no patterns), over
// every setup: each call makes exactly one request, on the expected path,
// with the value escaped as one segment or one query value, or is refused
// without any request; nothing ever reaches another host.
func TestInjectionPaths(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/paths.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api, evil := echoAPI(t), echoAPI(t)
			host := strings.TrimPrefix(api.URL, "http://")
			srv := s.connect(t, cfg, map[string]string{"base_url": api.URL}, nil)
			c := srv.c
			ctx := testCtx(t)
			for _, v := range append(hostileValues(evil.URL), "") {
				// A path segment of a tool.
				res, err := c.callTool(ctx, "item", map[string]any{"id": v})
				switch {
				case err != nil:
					t.Errorf("item %q: %v", v, err)
				case climbs(v):
					if !res.IsError {
						t.Errorf("item %q = %+v; want the value refused", v, res)
					}
					checkRequests(t, "item "+v, api)
				default:
					if res.IsError {
						t.Errorf("item %q = %+v; want success", v, res)
					}
					reqs := checkRequests(t, "item "+v, api, wantRequest{Method: "GET", Path: "/items/" + url.PathEscape(v) + "/detail"})
					checkClean(t, "item "+v, reqs, host)
					for _, r := range reqs {
						if segs := strings.Split(r.Path, "/"); len(segs) != 4 {
							t.Errorf("item %q: path %q has %d segments", v, r.Path, len(segs)-1)
						}
						if dec, err := url.PathUnescape(r.Path); err != nil || dec != "/items/"+v+"/detail" {
							t.Errorf("item %q: path %q decodes to %q (%v)", v, r.Path, dec, err)
						}
					}
				}

				// A query value of a tool.
				res, err = c.callTool(ctx, "find", map[string]any{"q": v})
				if err != nil || res.IsError {
					t.Errorf("find %q = %+v, %v; want success", v, res, err)
				}
				reqs := checkRequests(t, "find "+v, api, wantRequest{Method: "GET", Path: "/find", RawQuery: "q=" + url.QueryEscape(v) + "&limit=5"})
				checkClean(t, "find "+v, reqs, host)
				for _, r := range reqs {
					q, err := url.ParseQuery(r.RawQuery)
					if err != nil || len(q) != 2 || len(q["q"]) != 1 || q.Get("q") != v || q.Get("limit") != "5" {
						t.Errorf("find %q: query %q parses to %v (%v)", v, r.RawQuery, q, err)
					}
				}

				// A resource template variable, expanded as RFC 6570 says.
				uri := "items://" + expandSimple(v)
				text, _, err := c.readResource(ctx, uri)
				if climbs(v) {
					if err == nil {
						t.Errorf("resources/read %q = %q; want an error", uri, text)
					}
					checkRequests(t, "read "+uri, api)
					continue
				}
				if err != nil || text != `{"ok":true}` {
					t.Errorf("resources/read %q = %q, %v", uri, text, err)
				}
				reqs = checkRequests(t, "read "+uri, api, wantRequest{Method: "GET", Path: "/items/" + url.PathEscape(v)})
				checkClean(t, "read "+uri, reqs, host)
			}

			// URIs written by hand, not expanded: whatever the template
			// matches, at most one request, on one segment under /items/.
			for _, uri := range []string{
				"items://../admin", "items://a/../../b", "items://a?x=1", "items://a#b", "items://http://evil.example/x",
				"items://" + evil.URL, "items://%2e%2e", "items://%2E%2E%2Fadmin", "items://a%0D%0AX-Injected:%20yes",
				"items://a%2F..%2F..%2Fb", "items://%3Fx=1", "items://..", "items://.", "items://",
			} {
				text, _, err := c.readResource(ctx, uri)
				reqs := api.take()
				checkClean(t, "read "+uri, reqs, host)
				if len(reqs) > 1 {
					t.Errorf("resources/read %q made %d requests", uri, len(reqs))
				}
				for _, r := range reqs {
					seg, ok := strings.CutPrefix(r.Path, "/items/")
					if !ok || seg == "" || strings.Contains(seg, "/") || seg == "." || seg == ".." || r.RawQuery != "" || r.Method != "GET" {
						t.Errorf("resources/read %q sent %s %s?%s", uri, r.Method, r.Path, r.RawQuery)
					}
				}
				for _, r := range reqs {
					t.Logf("resources/read %q: sent %s %s", uri, r.Method, r.Path)
				}
				if err != nil {
					t.Logf("resources/read %q: %v", uri, err)
				}
				if err == nil && len(reqs) != 1 {
					t.Errorf("resources/read %q = %q without a request", uri, text)
				}
			}

			if got := evil.requests(); len(got) != 0 {
				t.Errorf("the evil host received %d requests: %+v", len(got), got)
			}
			c.close()
			rev := revision(s.era)
			srv.wire.verify(t, handshake(s.era), rev+" tools/call", rev+" resources/read")
		})
	}
}

// TestInjectionLibrary sends the hostile values through the real example:
// the search query (one query value) and the book template, whose ISBN
// pattern refuses them before any request.
func TestInjectionLibrary(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/library.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api, evil := libraryAPI(t), echoAPI(t)
			host := strings.TrimPrefix(api.URL, "http://")
			srv := s.connect(t, cfg, libraryVars(api), libraryEnv)
			c := srv.c
			ctx := testCtx(t)
			for _, v := range hostileValues(evil.URL) {
				res, err := c.callTool(ctx, "search", map[string]any{"query": v})
				if len([]rune(v)) < 2 {
					if err != nil || !res.IsError {
						t.Errorf("search %q = %+v, %v; want min_length refused", v, res, err)
					}
					checkRequests(t, "search "+v, api)
				} else {
					if err != nil || res.IsError {
						t.Errorf("search %q = %+v, %v; want success", v, res, err)
					}
					reqs := checkRequests(t, "search "+v, api, wantRequest{Method: "GET", Path: "/books", RawQuery: "q=" + url.QueryEscape(v) + "&_limit=10"})
					checkClean(t, "search "+v, reqs, host)
				}

				for _, uri := range []string{
					"library://books/" + expandSimple(v),
					"library://books/" + v,
					"library://books/" + isbnAtlas + "/" + v,
					"library://books/" + v + "/" + isbnAtlas,
				} {
					if text, _, err := c.readResource(ctx, uri); err == nil {
						t.Errorf("resources/read %q = %q; want the ISBN pattern to refuse it", uri, text)
					}
					checkRequests(t, "read "+uri, api)
				}
				res, err = c.callTool(ctx, "checkout", map[string]any{"isbn": v, "member": v})
				if err != nil || !res.IsError {
					t.Errorf("checkout %q = %+v, %v; want the ISBN pattern to refuse it", v, res, err)
				}
				checkRequests(t, "checkout "+v, api)
				// The member is a JSON body value: one string, whatever it holds.
				res, err = c.callTool(ctx, "checkout", map[string]any{"isbn": isbnAtlas, "member": v})
				if err != nil || res.IsError {
					t.Errorf("checkout for member %q = %+v, %v; want success", v, res, err)
				}
				reqs := checkRequests(t, "checkout member "+v, api, wantRequest{Method: "GET", Path: "/books/" + isbnAtlas},
					wantRequest{Method: "POST", Path: "/loans", Body: map[string]any{"isbn": isbnAtlas, "member": v}})
				checkClean(t, "checkout member "+v, reqs, host)
			}
			if got := evil.requests(); len(got) != 0 {
				t.Errorf("the evil host received %d requests: %+v", len(got), got)
			}
			c.close()
			rev := revision(s.era)
			srv.wire.verify(t, handshake(s.era), rev+" tools/call", rev+" resources/read")
		})
	}
}

// expandSimple expands v as the value of a simple RFC 6570 variable
// ({var}): its UTF-8 bytes, each one that is not unreserved percent-encoded
// (RFC 6570 §1.6, §3.2.2). yosida95/uritemplate's Expand encodes runes
// below U+0100 as one Latin-1 byte instead, so it is not used here.
func expandSimple(v string) string {
	const hex = "0123456789ABCDEF"
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			sb.WriteByte(c)
			continue
		}
		sb.WriteByte('%')
		sb.WriteByte(hex[c>>4])
		sb.WriteByte(hex[c&15])
	}
	return sb.String()
}

// TestTemplateNonUTF8: a template URI whose percent-encoding is not UTF-8
// ("items://%FC", Latin-1 ü, as yosida95/uritemplate's Expand writes it)
// has no string value for its variable. It is refused with an error and
// no request: replacing the bytes with U+FFFD and calling the API for
// "\uFFFD" (as mcpdecl once did) would make distinct URIs (%FC, %E9)
// address one backend resource that neither named.
func TestTemplateNonUTF8(t *testing.T) {
	requireSchemas(t)
	api := echoAPI(t)
	srv := setups[0].connect(t, repoPath(t, "testkit/e2e/testdata/paths.hcl"), map[string]string{"base_url": api.URL}, nil)
	text, _, err := srv.c.readResource(testCtx(t), "items://%FC")
	reqs := api.take()
	srv.c.close()
	srv.wire.verify(t)
	if err == nil && len(reqs) == 1 {
		t.Fatalf("resources/read items://%%FC (not UTF-8) answered %q after requesting %s; want an invalid-params error and no request", text, reqs[0].Path)
	}
	if err == nil || len(reqs) != 0 {
		t.Errorf("resources/read items://%%FC = %q, %v after %d requests; want an error and no request", text, err, len(reqs))
	}
}
