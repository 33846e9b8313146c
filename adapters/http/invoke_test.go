package httpadapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

func TestInvokeGetJSON(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		io.WriteString(w, `{
  "id": 9007199254740993, "huge": 123456789012345678901234567890,
  "price": 12.5, "exp": 1e3, "tags": ["a", 2], "ok": true, "none": null
}`)
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s/v1/"
  headers  = { Accept = "application/json" }
}
http "api" {
  path  = "/books/${args.isbn}/copies"
  query = { q = args.query, tag = args.tags, _limit = args.limit, n = 2.5, flag = args.flag }
}`, srv.URL), nil)
	res, err := c.invoke(0, args(map[string]cty.Value{
		"isbn":  cty.StringVal("978-3 16"),
		"query": cty.StringVal("a&b=c d"),
		"tags":  cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y/z")}),
		"flag":  cty.True,
	}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"GET /v1/books/978-3%2016/copies?q=a%26b%3Dc+d&tag=x&tag=y%2Fz&n=2.5&flag=true"}, srv.uris()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	got := srv.requests()[0].Header
	if got.Get("Accept") != "application/json" || got.Get("User-Agent") != "mcpdecl" {
		t.Errorf("headers sent: %v", got)
	}
	wantBody := map[string]any{
		"id": 9007199254740993, "huge": json.Number("123456789012345678901234567890"),
		"price": json.Number("12.5"), "exp": json.Number("1e3"), "tags": []any{"a", 2}, "ok": true, "none": nil,
	}
	if diff := cmp.Diff(wantBody, res.Fields["body"]); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantBody, res.Structured); diff != "" {
		t.Errorf("structured (-want +got):\n%s", diff)
	}
	wantText := `{"id":9007199254740993,"huge":123456789012345678901234567890,"price":12.5,"exp":1e3,"tags":["a",2],"ok":true,"none":null}`
	if res.Text != wantText {
		t.Errorf("text = %q", res.Text)
	}
	if raw := res.Fields["text"].(string); !strings.HasPrefix(raw, "{\n  \"id\"") {
		t.Errorf("text field = %q, want the body as it came", raw)
	}
	if res.Fields["status"] != 200 || res.Failure != "" || res.Media != nil {
		t.Errorf("status %v failure %q media %v", res.Fields["status"], res.Failure, res.Media)
	}
	h := res.Fields["headers"].(map[string]string)
	if h["content-type"] != "application/json; charset=utf-8" || h["x-multi"] != "a, b" {
		t.Errorf("headers = %v", h)
	}
}

func TestInjection(t *testing.T) {
	evil := newRecorder(t, nil)
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s/api" }
http "api" {
  path  = "/books/${args.isbn}/copies"
  query = { q = args.query }
}
http "api" {
  path = "/${args.isbn}"
}`, srv.URL), nil)
	tests := []struct {
		action int
		isbn   string
		query  string
		want   string // the request URI the server saw; "" when refused
		refuse string
	}{
		{0, "a?admin=1", "x", "/api/books/a%3Fadmin=1/copies?q=x", ""},
		{0, "a#frag", "x", "/api/books/a%23frag/copies?q=x", ""},
		{0, "x", "a&admin=1#f", "/api/books/x/copies?q=a%26admin%3D1%23f", ""},
		{0, "x", "\r\nHost: evil", "/api/books/x/copies?q=%0D%0AHost%3A+evil", ""},
		{0, "x", "a/../b", "/api/books/x/copies?q=a%2F..%2Fb", ""},
		{1, "@evil.example", "", "/api/@evil.example", ""},
		{1, "\x00\n", "", "/api/%00%0A", ""},
		{1, "100%", "", "/api/100%25", ""},
		{1, "a%zz", "", "/api/a%25zz", ""},
		{1, "...", "", "/api/...", ""},
		{1, "a..b", "", "/api/a..b", ""},
		{1, "%41", "", "/api/%2541", ""},
		// A slash or backslash, in any encoding a proxy may decode, would
		// add a segment; "." and ".." in any encoding would climb.
		{0, "../admin", "x", "", `holds a "/"`},
		{0, "../../../etc/passwd", "x", "", `holds a "/"`},
		{0, "a/b", "x", "", `holds a "/"`},
		{0, evil.URL + "/x", "x", "", `holds a "/"`},
		{1, "//evil.example/x", "", "", `holds a "/"`},
		{1, "/", "", "", `holds a "/"`},
		{0, "..\\admin", "x", "", `holds a "\\"`},
		{0, "\\", "x", "", `holds a "\\"`},
		{0, "%2F", "x", "", `holds a "/"`},
		{0, "..%2fadmin", "x", "", `holds a "/"`},
		{0, "%252F", "x", "", `holds a "/"`},
		{0, "%25252f", "x", "", `holds a "/"`},
		{0, "%5C", "x", "", `holds a "\\"`},
		{0, "%C0%AF", "x", "", `holds a "/"`},
		{0, "%25c0%25ae%25c0%25ae", "x", "", `holds a "/"`},
		{0, "%255c", "x", "", `holds a "\\"`},
		{0, "%2e%2e", "x", "", `a path segment would be ".."`},
		{0, "%2E.", "x", "", `a path segment would be ".."`},
		{0, ".%252e", "x", "", `a path segment would be ".."`},
		{0, "%2e", "x", "", `a path segment would be "."`},
		{1, "..;", "", "", `a path segment would be ".."`},
		{1, "..;jsessionid=1", "", "", `a path segment would be ".."`},
		{1, "%2e%2e%3b", "", "", `a path segment would be ".."`},
		{0, "..", "x", "", `a path segment would be ".."`},
		{0, ".", "x", "", `a path segment would be ".", which servers drop`},
		{1, "..", "", "", `a path segment would be ".."`},
		{0, "", "x", "", "the path value args.isbn is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.isbn+" "+tt.query, func(t *testing.T) {
			before := srv.count()
			_, err := c.invoke(tt.action, args(map[string]cty.Value{
				"isbn": cty.StringVal(tt.isbn), "query": cty.StringVal(tt.query),
			}), nil)
			got := srv.requests()[before:]
			if tt.refuse != "" {
				var ce *adapter.CallError
				if !errors.As(err, &ce) || !strings.Contains(ce.Message, tt.refuse) {
					t.Errorf("error = %v, want a CallError with %q", err, tt.refuse)
				}
				if len(got) != 0 {
					t.Errorf("refused request was sent: %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].URI != tt.want {
				t.Errorf("server saw %v, want exactly one request to %s", got, tt.want)
			}
		})
	}
	if n := evil.count(); n != 0 {
		t.Errorf("the other host received %d requests", n)
	}
}

func TestHeaderInjectionRefused(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" {
  path    = "/x"
  headers = { X-Trace = args.query }
}
http "api" {
  path    = "/x"
  headers = merge({ X-A = args.query }, { X-B = "b" })
}`, srv.URL), nil)
	for _, v := range []string{"a\r\nX-Injected: 1", "a\nb", "a\rb", "a\x00b"} {
		_, err := c.invoke(0, args(map[string]cty.Value{"query": cty.StringVal(v)}), nil)
		var ce *adapter.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, "line break") || strings.Contains(ce.Message, "Injected") {
			t.Errorf("%q: error = %v", v, err)
		}
		_, err = c.invoke(1, args(map[string]cty.Value{"query": cty.StringVal(v)}), nil)
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, "line break") {
			t.Errorf("%q (computed headers): error = %v", v, err)
		}
	}
	if n := srv.count(); n != 0 {
		t.Errorf("server received %d requests", n)
	}
	// A tab is allowed; a null header is left out.
	if _, err := c.invoke(0, args(map[string]cty.Value{"query": cty.StringVal("a\tb")}), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.invoke(0, args(nil), nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 || reqs[0].Header.Get("X-Trace") != "a\tb" || reqs[1].Header.Values("X-Trace") != nil {
		t.Errorf("requests: %+v", reqs)
	}
}

func TestRequestBodies(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  headers  = { Content-Type = "text/plain" }
}
http "api" {
  method = "POST"
  path   = "/json"
  body   = { isbn = args.isbn, n = args.n, tags = args.tags, none = null, big = 12345678901234567890 }
}
http "api" {
  method = "PUT"
  path   = "/form"
  form   = { q = args.query, tag = args.tags, skip = args.status }
}
http "api" {
  method       = "PATCH"
  path         = "/raw"
  raw_body     = "isbn,${args.isbn}"
  content_type = "text/csv"
}
http "api" {
  method       = "POST"
  path         = "/merge"
  body         = args.filters
  content_type = "application/merge-patch+json"
  headers      = { Content-Type = "application/vnd.x+json" }
}`, srv.URL), nil)
	a := args(map[string]cty.Value{
		"isbn":    cty.StringVal("97\"8"),
		"n":       cty.NumberFloatVal(2.5),
		"query":   cty.StringVal("a b&c"),
		"tags":    cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"filters": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	})
	for i := range 4 {
		if _, err := c.invoke(i, a, nil); err != nil {
			t.Fatalf("action %d: %v", i, err)
		}
	}
	// An absent optional JSON body is not sent.
	if _, err := c.invoke(3, args(nil), nil); err != nil {
		t.Fatal(err)
	}
	type sent struct{ Method, URI, ContentType, Body string }
	var got []sent
	for _, r := range srv.requests() {
		got = append(got, sent{r.Method, r.URI, r.Header.Get("Content-Type"), r.Body})
	}
	want := []sent{
		{"POST", "/json", "application/json", `{"big":12345678901234567890,"isbn":"97\"8","n":2.5,"none":null,"tags":["x","y"]}`},
		{"PUT", "/form", "application/x-www-form-urlencoded", "q=a+b%26c&tag=x&tag=y"},
		{"PATCH", "/raw", "text/csv", `isbn,97"8`},
		{"POST", "/merge", "application/vnd.x+json", `{"k":"v"}`},
		{"POST", "/merge", "application/vnd.x+json", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestForwardHeaders(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "a" {
  base_url        = "%[1]s"
  forward_headers = ["X-Request-Id", "x-tenant", "Connection", "Te", "Host", "Proxy-Authorization", "X-Hop"]
  auth { bearer = "configured" }
}
backend "http" "b" {
  base_url        = "%[1]s"
  forward_headers = ["Authorization"]
  auth { bearer = "configured" }
}
http "a" { path = "/a" }
http "b" { path = "/b" }
http "a" {
  path    = "/c"
  headers = { X-Tenant = "from-call" }
}`, srv.URL), nil)
	in := http.Header{
		"X-Request-Id":        {"r1"},
		"X-Tenant":            {"t1", "t2"},
		"Authorization":       {"Bearer user-token"},
		"Cookie":              {"session=1"},
		"Connection":          {"keep-alive, X-Hop"},
		"Te":                  {"trailers"},
		"Proxy-Authorization": {"Basic eA=="},
		"X-Hop":               {"hop"},
		"X-Other":             {"o"},
	}
	for i := range 3 {
		if _, err := c.invoke(i, args(nil), in); err != nil {
			t.Fatal(err)
		}
	}
	// stdio: no inbound headers.
	if _, err := c.invoke(1, args(nil), nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	pick := func(h http.Header) map[string][]string {
		out := map[string][]string{}
		for _, k := range []string{"X-Request-Id", "X-Tenant", "Authorization", "Cookie", "Te", "Proxy-Authorization", "X-Hop", "X-Other"} {
			if v := h.Values(k); v != nil {
				out[k] = v
			}
		}
		return out
	}
	want := []map[string][]string{
		{"X-Request-Id": {"r1"}, "X-Tenant": {"t1", "t2"}, "Authorization": {"Bearer configured"}},
		{"Authorization": {"Bearer user-token"}},
		{"X-Request-Id": {"r1"}, "X-Tenant": {"from-call"}, "Authorization": {"Bearer configured"}},
		{"Authorization": {"Bearer configured"}},
	}
	var got []map[string][]string
	for _, r := range reqs {
		got = append(got, pick(r.Header))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("forwarded headers (-want +got):\n%s", diff)
	}
}

func TestAnswerKinds(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		ct, body, status := "", "", 200
		switch r.URL.Path {
		case "/text":
			ct, body = "text/plain; charset=utf-8", "hello\nworld"
		case "/latin1":
			ct, body = "text/plain; charset=iso-8859-1", "caf\xe9"
		case "/png":
			ct, body = "image/png", string(png)
		case "/audio":
			ct, body = "audio/mpeg", "ID3\x00"
		case "/pdf":
			ct, body = "application/pdf", "%PDF-1.7"
		case "/problem":
			ct, body, status = "application/problem+json", `{"title": "No such book", "status": 404}`, 404
		case "/array":
			ct, body = "application/json", `[1, 2]`
		case "/sniff":
			body = `{"a": 1}`
		case "/badjson":
			ct, body = "application/json", `{"a": `
		case "/xml":
			ct, body = "application/xml", `<a/>`
		case "/empty":
			status = 204
		case "/long":
			ct, body, status = "text/html", "<html>\n  <body>"+strings.Repeat("x", 400)+"</body></html>", 502
		case "/retry":
			w.Header().Set("Retry-After", "120")
			ct, body, status = "text/plain", "slow down", 429
		case "/teapot":
			ct, status = "image/png", 418
			body = string(png)
		}
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		if ct == "" && body != "" {
			w.Header()["Content-Type"] = nil // no sniffing by the server
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" { path = "/${args.dir}" }`, srv.URL), nil)
	type summary struct {
		Status     int
		Body       any
		Text       string
		Structured map[string]any
		Media      *adapter.Media
		Failure    string
	}
	tests := []struct {
		path string
		want summary
	}{
		{"text", summary{200, nil, "hello\nworld", nil, nil, ""}},
		{"latin1", summary{200, nil, "café", nil, nil, ""}},
		{"png", summary{200, nil, "", nil, &adapter.Media{MimeType: "image/png", Data: png}, ""}},
		{"audio", summary{200, nil, "", nil, &adapter.Media{MimeType: "audio/mpeg", Data: []byte("ID3\x00")}, ""}},
		{"pdf", summary{200, nil, "", nil, &adapter.Media{MimeType: "application/pdf", Data: []byte("%PDF-1.7")}, ""}},
		{"problem", summary{404, map[string]any{"title": "No such book", "status": 404}, `{"title": "No such book", "status": 404}`,
			map[string]any{"title": "No such book", "status": 404}, nil, `The API answered 404 Not Found: {"title": "No such book", "status": 404}`}},
		{"array", summary{200, []any{1, 2}, "[1, 2]", nil, nil, ""}},
		{"sniff", summary{200, map[string]any{"a": 1}, `{"a": 1}`, map[string]any{"a": 1}, nil, ""}},
		{"badjson", summary{200, nil, `{"a": `, nil, nil, ""}},
		{"xml", summary{200, nil, "<a/>", nil, nil, ""}},
		{"empty", summary{204, nil, "The API answered 204 No Content: done, nothing to show.", nil, nil, ""}},
		{"long", summary{502, nil, "<html>\n  <body>" + strings.Repeat("x", 400) + "</body></html>", nil, nil,
			"The API answered 502 Bad Gateway: <html> <body>" + strings.Repeat("x", 300-len("<html> <body>")) + "…"}},
		{"retry", summary{429, nil, "slow down", nil, nil, "The API answered 429 Too Many Requests: slow down (It asked to retry after 120.)"}},
		{"teapot", summary{418, nil, "", nil, &adapter.Media{MimeType: "image/png", Data: png}, "The API answered 418 I'm a teapot with 16 bytes of image/png."}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, err := c.invoke(0, args(map[string]cty.Value{"dir": cty.StringVal(tt.path)}), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := summary{res.Fields["status"].(int), res.Fields["body"], res.Text, res.Structured, res.Media, res.Failure}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if res.Fields["text"] != res.Text && tt.path != "empty" {
				t.Errorf("text field %q != Text %q", res.Fields["text"], res.Text)
			}
		})
	}
}

func TestHead(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" {
  method = "HEAD"
  path   = "/x"
}`, srv.URL), nil)
	res, err := c.invoke(0, args(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Fields["status"] != 200 || res.Fields["body"] != nil || res.Fields["headers"].(map[string]string)["etag"] != `"v1"` {
		t.Errorf("fields = %v", res.Fields)
	}
	if diff := cmp.Diff([]string{"HEAD /x"}, srv.uris()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestBuildDetails(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" {
  path  = "/bücher dir/%%41%%zz/${args.isbn}"
  query = merge({ a = 1, "b c" = "d&e" }, { z = "1", k = args.status })
}
http "api" { path = "/x/${base64decode(args.query)}" }
http "api" {
  path  = "/x"
  query = { t = [args.query, null, 3, true] }
}`, srv.URL), nil)
	a := args(map[string]cty.Value{
		"isbn":  str("é"),
		"query": str("!!not base64"),
	})
	for _, i := range []int{0, 2} {
		if _, err := c.invoke(i, a, nil); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"GET /b%C3%BCcher%20dir/%41%25zz/%C3%A9?a=1&b+c=d%26e&z=1",
		"GET /x?t=%21%21not+base64&t=3&t=true",
	}
	if diff := cmp.Diff(want, srv.uris()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	refusals := []struct {
		action int
		args   cty.Value
		want   string
	}{
		{1, a, "The request was not sent: the path value base64decode(args.query) could not be computed (Invalid function argument: Invalid value for \"str\" parameter: not valid base64: illegal base64 data at input byte 0)."},
		{0, args(nil), "The request was not sent: the path value args.isbn cannot be used: the value is null."},
	}
	for _, tt := range refusals {
		_, err := c.invoke(tt.action, tt.args, nil)
		var ce *adapter.CallError
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Message, tt.want) || ce.Retryable {
			t.Errorf("error = %v\nwant a CallError starting %q", err, tt.want)
		}
	}
	if n := srv.count(); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestTokenEndpointDown(t *testing.T) {
	api := newRecorder(t, nil)
	c := compileEnv(t, oauthConfig(api.URL, "http://127.0.0.1:1"), map[string]string{"SECRET": "s"})
	_, err := c.invoke(0, args(nil), nil)
	var ce *adapter.CallError
	want := "Could not get an OAuth2 access token: the OAuth2 token endpoint refused the connection; it may be down. Retrying later may help."
	if !errors.As(err, &ce) || ce.Message != want || !ce.Retryable {
		t.Errorf("error = %v", err)
	}
}

// TestReservedPathValue: a resource template variable with reserved
// expansion ({+dir}) may hold "/": each piece becomes one segment, escaped
// and checked on its own; an empty, "." or ".." piece, or a separator
// hidden in a piece, is refused.
func TestReservedPathValue(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileScoped(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s/api" }
http "api" {
  path = "/files/${args.dir}/raw"
}
http "api" {
  path = "/one/${args.isbn}"
}`, srv.URL), nil, func(s *adapter.Scope) { s.Reserved = map[string]bool{"dir": true} })
	for v, want := range map[string]string{
		"a/b/c.txt": "/api/files/a/b/c.txt/raw",
		"a b/ü?#":   "/api/files/a%20b/%C3%BC%3F%23/raw",
		"x":         "/api/files/x/raw",
	} {
		before := srv.count()
		if _, err := c.invoke(0, args(map[string]cty.Value{"dir": str(v)}), nil); err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		if got := srv.requests()[before:]; len(got) != 1 || got[0].URI != want {
			t.Errorf("%q: sent %v, want %s", v, got, want)
		}
	}
	before := srv.count()
	for v, why := range map[string]string{
		"../etc": `a path segment would be ".."`, "a/../../b": `a path segment would be ".."`, "a/./b": `a path segment would be "."`,
		"a/%2e%2e/b": `a path segment would be ".."`, "/etc/passwd": "empty segment", "a//b": "empty segment", "a/": "empty segment",
		"a/%2F/b": `holds a "/" inside a segment`, "a\\b": `holds a "\\" inside a segment`, "a/%252f": `holds a "/" inside a segment`,
	} {
		_, err := c.invoke(0, args(map[string]cty.Value{"dir": str(v)}), nil)
		var ce *adapter.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, why) {
			t.Errorf("%q: error = %v, want %q", v, err, why)
		}
	}
	// Another argument of the same call keeps the one-segment rule.
	if _, err := c.invoke(1, args(map[string]cty.Value{"isbn": str("a/b")}), nil); err == nil {
		t.Error(`isbn "a/b" was sent`)
	}
	if n := srv.count() - before; n != 0 {
		t.Errorf("%d refused requests were sent", n)
	}
}
