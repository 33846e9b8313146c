package table_test

import (
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestCacheScopeDiagnostics: a wrong value and "public" on what depends
// on the caller are errors at the attribute's line, naming why.
func TestCacheScopeDiagnostics(t *testing.T) {
	got := compileDetails(t, `
server {
  cache_scope = "shared"
}
auth {
  resource              = "http://127.0.0.1/mcp"
  authorization_servers = ["http://127.0.0.1:1/as"]
}
backend "http" "api" {
  base_url        = "http://127.0.0.1:1"
  forward_headers = ["X-User"]
}
resource_template "me" {
  uri_template = "me://{part}"
  text         = "${auth.subject}"
  cache_scope  = "public"
}
resource "mine" {
  uri         = "api://mine"
  cache_scope = "public"
  http "api" {
    path = "/mine"
  }
}
resource "fine" {
  uri         = "docs://fine"
  text        = "same for all"
  cache_scope = "public"
}
`)
	wantDetails(t, got,
		[]string{"03: Invalid cache_scope", `"public" or "private", not "shared"`},
		[]string{"20: Per-caller answer marked public", `resource "mine"`, `backend "api"`, "forwards the caller's request headers"},
		[]string{"16: Per-caller answer marked public", `resource template "me"`, "reads auth.*"},
	)
}

// TestCacheScopeDefaults: without an auth block results are public unless
// a block says otherwise; with one they are private unless the server
// block says otherwise; what depends on the caller is always private.
func TestCacheScopeDefaults(t *testing.T) {
	compile := func(src string) *table.Table {
		t.Helper()
		cfg, diags := lang.LoadSource("t.hcl", []byte(src))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return tbl
	}
	const resources = `
resource "a" {
  uri  = "docs://a"
  text = "a"
}
resource "b" {
  uri         = "docs://b"
  text        = "b"
  cache_scope = "private"
}
`
	const auth = `
auth {
  resource              = "http://127.0.0.1/mcp"
  authorization_servers = ["http://127.0.0.1:1/as"]
}
resource_template "me" {
  uri_template = "me://{part}"
  text         = "${auth.subject}"
}
`
	for _, tc := range []struct {
		name, src, server, a, b string
	}{
		{"no auth", resources, "public", "public", "private"},
		{"auth", resources + auth, "private", "private", "private"},
		{"auth, public server", `server { cache_scope = "public" }` + resources + auth, "public", "public", "private"},
	} {
		tbl := compile(tc.src)
		if tbl.Server.CacheScope != tc.server || tbl.Resources[0].CacheScope != tc.a || tbl.Resources[1].CacheScope != tc.b {
			t.Errorf("%s: server %q, a %q, b %q; want %q %q %q", tc.name, tbl.Server.CacheScope,
				tbl.Resources[0].CacheScope, tbl.Resources[1].CacheScope, tc.server, tc.a, tc.b)
		}
		for _, tm := range tbl.Templates {
			if tm.CacheScope != "private" {
				t.Errorf("%s: the template reading auth.* is %q", tc.name, tm.CacheScope)
			}
		}
	}
}
