package server_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// cacheScopeConfig has an auth block and a server that calls its answers
// public, a resource that is the same for everyone and a template whose
// text names the caller.
const cacheScopeConfig = `
server {
  cache_scope = "public"
}
auth {
  resource              = "http://127.0.0.1/mcp"
  authorization_servers = ["http://127.0.0.1:1/as"]
  token "alice" {
    value = "` + readerToken + `"
  }
}
resource "policy" {
  uri  = "docs://policy"
  text = "The same for everyone."
}
resource_template "greeting" {
  uri_template = "greet://{name}"
  text         = "Hello ${args.name}, signed in as ${auth.subject}."
}
`

// readScope reads uri as a 2026-07-28 client with Alice's token and
// returns the result's text and cacheScope.
func readScope(t *testing.T, url, uri string) (text, scope string) {
	t.Helper()
	_, body := send(t, modernRequest(t, url, "2", "resources/read", uri, `"uri":"`+uri+`"`), readerToken)
	for _, k := range []string{`"cacheScope":"private"`, `"cacheScope":"public"`} {
		if strings.Contains(body, k) {
			scope = strings.TrimSuffix(strings.TrimPrefix(k, `"cacheScope":"`), `"`)
		}
	}
	return body, scope
}

func serveAuthSource(t *testing.T, src string) string {
	t.Helper()
	tbl, err := compileSource("auth.hcl", src)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(tbl, &server.Options{HTTPAuth: true})
	ts := httptest.NewServer(mcp.NewServer(srv, nil).HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestHostileCacheScope: a resource whose text names the caller is
// private even on a server that calls its answers public, while one that
// is the same for everyone follows the server; with an auth block and no
// cache_scope, everything is private.
func TestHostileCacheScope(t *testing.T) {
	u := serveAuthSource(t, cacheScopeConfig)
	if body, scope := readScope(t, u, "greet://bob"); !strings.Contains(body, "signed in as alice") || scope != "private" {
		t.Errorf("the per-caller template answers cacheScope %q: %s", scope, body)
	}
	if body, scope := readScope(t, u, "docs://policy"); scope != "public" {
		t.Errorf("the shared resource on a public server answers cacheScope %q: %s", scope, body)
	}
	_, list := send(t, modernRequest(t, u, "3", "resources/list", "", ""), readerToken)
	if !strings.Contains(list, `"cacheScope":"public"`) {
		t.Errorf("resources/list on a public server: %s", list)
	}

	def := serveAuthSource(t, strings.Replace(cacheScopeConfig, `cache_scope = "public"`, "", 1))
	for _, uri := range []string{"greet://bob", "docs://policy"} {
		if body, scope := readScope(t, def, uri); scope != "private" {
			t.Errorf("%s with an auth block and no cache_scope: %q: %s", uri, scope, body)
		}
	}
	_, list = send(t, modernRequest(t, def, "3", "resources/list", "", ""), readerToken)
	if !strings.Contains(list, `"cacheScope":"private"`) {
		t.Errorf("resources/list with an auth block and no cache_scope: %s", list)
	}
}

// TestHostileCacheScopePublicPerCaller: calling public what depends on
// the caller (auth.*, or a backend forwarding request headers) does not
// load, and the error names the attribute's place.
func TestHostileCacheScopePublicPerCaller(t *testing.T) {
	identity := strings.Replace(cacheScopeConfig, `uri_template = "greet://{name}"`, `uri_template = "greet://{name}"
  cache_scope  = "public"`, 1)
	_, err := compileSource("auth.hcl", identity)
	at := fmt.Sprintf("auth.hcl:%d,", lineOf(identity, `cache_scope  = "public"`))
	if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), "auth.*") {
		t.Errorf("a public template reading auth.*: %v", err)
	}
	forwarding := `
backend "http" "api" {
  base_url        = "http://127.0.0.1:1"
  forward_headers = ["X-User"]
}
resource "mine" {
  uri         = "api://mine"
  cache_scope = "public"
  http "api" {
    path = "/mine"
  }
}
`
	cfg, diags := lang.LoadSource("fwd.hcl", []byte(forwarding))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags = compileAll(cfg)
	at = fmt.Sprintf("fwd.hcl:%d,", lineOf(forwarding, `cache_scope = "public"`))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), at) || !strings.Contains(diags.Error(), "forwards the caller's request headers") {
		t.Errorf("a public resource of a forwarding backend: %v", diags)
	}
	// Not forced: the resource is private without saying so.
	tbl, diags := compileAll(mustLoad(t, strings.Replace(forwarding, `cache_scope = "public"`, "", 1)))
	if diags.HasErrors() || tbl.Resources[0].CacheScope != "private" {
		t.Errorf("a resource of a forwarding backend: %v %v", diags, tbl)
	}
}

// lineOf is the 1-based line of src holding text.
func lineOf(src, text string) int {
	return strings.Count(src[:strings.Index(src, text)], "\n") + 1
}

func compileAll(cfg *lang.Config) (*table.Table, hcl.Diagnostics) {
	return table.Compile(cfg, all.Registry(), table.Options{})
}

func mustLoad(t *testing.T, src string) *lang.Config {
	t.Helper()
	cfg, diags := lang.LoadSource("fwd.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}
