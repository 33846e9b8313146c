package e2e

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// echoTool is the tool called, the same with and without auth: it answers
// from its arguments alone, so the time is the protocol's and auth's.
const echoTool = `
tool "echo" {
  description = "Echo the text."
  %s
  arg "text" {
    type = string
  }
  content "text" {
    text = "echo: ${args.text}"
  }
}
`

// BenchmarkAuthenticatedCall times a 2026-07-28 tools/call of a scoped
// tool through the HTTP handler and the token checks, with an RS256 and
// an ES256 token of the in-process issuer (its key set fetched once, then
// cached), beside the same call with no auth block in the same run. With
// the verifier's cache of verified tokens (the default) a repeated token
// is not verified again; the verify-each variants turn that cache off, so
// every call checks the signature. Each auth line reports added-cpu-ns/op
// over the unauthenticated call.
//
//	go test ./testkit/e2e/ -run '^$' -bench AuthenticatedCall -benchmem
func BenchmarkAuthenticatedCall(b *testing.B) {
	is := authtest.NewIssuer(b)
	const resource = "http://127.0.0.1/mcp"
	base := &baseline{}
	b.Run("no-auth", func(b *testing.B) {
		call, w := authCaller(b, echoTableWith(b, "", "", 0), "")
		checkEcho(b, call, w)
		base.ns, base.cpu, base.bytes = measure(b, call)
	})
	for _, v := range []struct {
		name, kid string
		cacheSize int
	}{
		{"RS256", "rsa-1", 0}, {"ES256", "ec-1", 0},
		{"RS256-verify-each", "rsa-1", -1}, {"ES256-verify-each", "ec-1", -1},
	} {
		b.Run(v.name, func(b *testing.B) {
			token := is.Sign(b, is.Key(v.kid), is.Claims(resource, "echo"))
			authBlock := `auth {
  resource              = "` + resource + `"
  authorization_servers = ["` + is.URL + `"]
  jwks_url              = "` + is.JWKSURL + `"
  scope "echo" {}
}`
			call, w := authCaller(b, echoTableWith(b, authBlock, `scopes = ["echo"]`, v.cacheSize), token)
			checkEcho(b, call, w)
			base.reportAdded(b)(measure(b, call))
		})
	}
}

func echoTableWith(b *testing.B, authBlock, scopes string, cacheSize int) *table.Table {
	b.Helper()
	src := authBlock + strings.Replace(echoTool, "%s", scopes, 1)
	cfg, diags := lang.LoadSource("echo.hcl", []byte(src))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	if tbl.Auth != nil {
		tbl.Auth.TokenCacheSize = cacheSize
	}
	return tbl
}

// authCaller returns a function making the call through the endpoint as
// serve --http mounts it, with token when it is not empty.
func authCaller(b *testing.B, tbl *table.Table, token string) (func(), *benchWriter) {
	srv := server.New(tbl, &server.Options{HTTPAuth: true})
	b.Cleanup(srv.Close)
	h := mcp.NewServer(srv, nil).HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json, text/event-stream")
	header.Set("MCP-Protocol-Version", mcp.Version20260728)
	header.Set("Mcp-Method", "tools/call")
	header.Set("Mcp-Name", "echo")
	if token != "" {
		header.Set("Authorization", "Bearer "+token)
	}
	target, _ := url.Parse("http://127.0.0.1/mcp")
	ctx := context.Background()
	w := &benchWriter{header: http.Header{}}
	var rd strings.Reader
	return func() {
		rd.Reset(body)
		clear(w.header)
		w.code = http.StatusOK
		w.body.Reset()
		req := &http.Request{Method: http.MethodPost, URL: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: header, Body: io.NopCloser(&rd), ContentLength: int64(len(body)), Host: target.Host, RequestURI: "/mcp"}
		h.ServeHTTP(w, req.WithContext(ctx))
	}, w
}

func checkEcho(b *testing.B, call func(), w *benchWriter) {
	b.Helper()
	call()
	if w.code != http.StatusOK || !strings.Contains(w.body.String(), `"text":"echo: hello"`) {
		b.Fatalf("tools/call echo: %d %s", w.code, w.body.String())
	}
}
