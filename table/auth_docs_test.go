package table_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/table"
)

const authHead = `
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  %s
  scope "team:read" {}
  scope "team:admin" {}
}
`

func authTool(name string, scopes ...string) string {
	q, _ := json.Marshal(scopes)
	return "tool \"" + name + "\" {\n  description = \"d\"\n  scopes = " + string(q) + "\n  content \"text\" {\n    text = \"x\"\n  }\n}\n"
}

// TestInitialScopes: the 401 asks for initial_scopes when written, else
// the scopes common to every scoped primitive; with none in common, every
// scope and a warning; an empty initial_scopes is an error.
func TestInitialScopes(t *testing.T) {
	for _, c := range []struct {
		name, attr, tools string
		want              []string
		diag              string
	}{
		{"common", "", authTool("list", "team:read") + authTool("purge", "team:read", "team:admin") + authTool("open"), []string{"team:read"}, ""},
		{"written", `initial_scopes = ["team:read"]`, authTool("list", "team:read") + authTool("purge", "team:admin"), []string{"team:read"}, ""},
		{"none common", "", authTool("list", "team:read") + authTool("purge", "team:admin"), nil, "No scope common to all tools"},
		{"empty", `initial_scopes = []`, authTool("list", "team:read") + authTool("purge", "team:admin"), nil, "Empty initial scopes"},
		{"undeclared", `initial_scopes = ["team:raed"]`, authTool("list", "team:read") + authTool("purge", "team:admin"), nil, "Undeclared scope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(authHead, "%s", c.attr, 1) + c.tools
			tbl, diags := compileSource(t, "a.hcl", src)
			if c.diag == "" {
				if len(diags) > 0 {
					t.Fatalf("diagnostics: %v", diags)
				}
				if !slices.Equal(tbl.Auth.InitialScopes, c.want) {
					t.Fatalf("initial scopes %q, want %q", tbl.Auth.InitialScopes, c.want)
				}
				return
			}
			if !strings.Contains(diags.Error(), c.diag) {
				t.Fatalf("diagnostics %v, want %q", diags, c.diag)
			}
		})
	}
}

// TestLeewayDefaultOneTruth: the leeway tokens are checked with when none
// is written is what inspect shows and what docs/language.md and
// docs/auth.md say.
func TestLeewayDefaultOneTruth(t *testing.T) {
	tbl, diags := compileSource(t, "a.hcl", strings.Replace(authHead, "%s", "", 1)+authTool("list", "team:read")+authTool("purge", "team:read", "team:admin"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := table.Inspect(tbl).Auth.Leeway; got != "30s" || auth.DefaultLeeway.String() != "30s" {
		t.Fatalf("inspect shows leeway %q, the default is %v", got, auth.DefaultLeeway)
	}
	lang, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `leeway` \\|.*\\| `\"([^\"]+)\"` \\|$").FindSubmatch(lang)
	if row == nil || string(row[1]) != auth.DefaultLeeway.String() {
		t.Errorf("docs/language.md: the leeway row's default is %q, want %q", row, auth.DefaultLeeway)
	}
	doc, err := os.ReadFile("../docs/auth.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "`leeway`, default `\""+auth.DefaultLeeway.String()+"\"`") {
		t.Errorf("docs/auth.md does not give the leeway default as %q", auth.DefaultLeeway)
	}
}

// TestIntrospectionAlone: an auth block whose only way to check tokens is
// an introspection endpoint compiles, and its tokens (an opaque one, and
// a JWT too, since no issuer is configured) are checked there.
func TestIntrospectionAlone(t *testing.T) {
	var asked []string
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		_ = r.ParseForm()
		asked = append(asked, r.Form.Get("token"))
		active := user == "mcp" && pass == "s3cret-introspection" && r.Form.Get("token") != "revoked-opaque-token"
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"active": active, "sub": "alice", "scope": "team:read", "aud": "https://mcp.example.com/mcp", "tenant": "acme"})
	}))
	defer endpoint.Close()
	src := `
auth {
  resource = "https://mcp.example.com/mcp"
  scope "team:read" {}
  claim "tenant" {
    type = string
  }
  introspection {
    url           = "` + endpoint.URL + `/introspect"
    client_id     = "mcp"
    client_secret = "s3cret-introspection"
  }
}
` + authTool("list", "team:read")
	tbl, diags := compileSource(t, "a.hcl", src)
	if len(diags) > 0 {
		t.Fatalf("an auth block with only introspection: %v", diags)
	}
	v, err := auth.New(tbl.Auth)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, token := range []string{"opaque-token-1234", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln"} {
		id, err := v.Verify(context.Background(), token)
		if err != nil || id.Subject != "alice" || !slices.Equal(id.Scopes, []string{"team:read"}) || id.Claims["tenant"] != "acme" {
			t.Fatalf("%s: %+v, %v", token, id, err)
		}
	}
	if _, err := v.Verify(context.Background(), "revoked-opaque-token"); err == nil {
		t.Fatal("an inactive token was accepted")
	}
	if len(asked) != 3 {
		t.Fatalf("the endpoint was asked %d times (%q), want 3", len(asked), asked)
	}
}
