package sqladapter

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
	"github.com/mcpdecl/mcpdecl/eval"
)

// authType is auth.* of the identity tests: the claim tenant.
var authType = cty.Object(map[string]cty.Type{
	"subject": cty.String, "scopes": cty.List(cty.String),
	"claims": cty.Object(map[string]cty.Type{"tenant": cty.String}),
})

// withAuth makes auth.* visible, as the compiler does for a backend's
// caller scope.
func withAuth(s *adapter.Scope) {
	s.Names.Extra = append(s.Names.Extra, eval.Namespace{Root: "auth", What: "identity field",
		Keys: map[string][]string{"subject": nil, "scopes": nil, "claims": {"tenant"}}})
	if s.Extra == nil {
		s.Extra = map[string]cty.Value{}
	}
	s.Extra["auth"] = cty.UnknownVal(authType)
}

// callerVars are the Request.Vars of a call by a caller of tenant (null:
// the token gives none).
func callerVars(tenant cty.Value) map[string]cty.Value {
	return map[string]cty.Value{"auth": cty.ObjectVal(map[string]cty.Value{
		"subject": cty.StringVal("someone"), "scopes": cty.ListValEmpty(cty.String),
		"claims": cty.ObjectVal(map[string]cty.Value{"tenant": tenant}),
	})}
}

func TestIdentityRefusedAtLoad(t *testing.T) {
	for _, c := range []struct{ name, backend, want string }{
		{"sqlite", `driver = "sqlite"
  dsn = "file:x.db"
  identity {
    settings = { "app.tenant" = auth.claims.tenant }
  }`, "4:3 No database identity in SQLite"},
		{"mysql role", `driver = "mysql"
  dsn = "u@tcp(127.0.0.1:3306)/db"
  identity {
    role     = "reader"
    settings = { tenant = auth.claims.tenant }
  }`, "5:5 No role per statement in MySQL and MariaDB"},
		{"server setting", `driver = "postgres"
  dsn = "postgres://u@127.0.0.1/db"
  identity {
    settings = { "work_mem" = auth.claims.tenant }
  }`, "5:18 Invalid setting name"},
		{"mysql variable", `driver = "mysql"
  dsn = "u@tcp(127.0.0.1:3306)/db"
  identity {
    settings = { "app.tenant" = auth.claims.tenant }
  }`, "5:18 Invalid setting name"},
		{"role name", `driver = "postgres"
  dsn = "postgres://u@127.0.0.1/db"
  identity {
    role = "reader; DROP TABLE x"
  }`, "5:12 Invalid role name"},
		{"empty", `driver = "postgres"
  dsn = "postgres://u@127.0.0.1/db"
  identity {
  }`, "4:3 Empty identity block"},
		{"unknown claim", `driver = "postgres"
  dsn = "postgres://u@127.0.0.1/db"
  identity {
    settings = { "app.tenant" = auth.claims.tenantt }
  }`, "5:33 Reference to unknown field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := checktest.CompileScoped(t, New(), "backend \"sql\" \"db\" {\n  "+c.backend+"\n}\n", withAuth)
			if f := checktest.Format(got.Diags); len(f) != 1 || !strings.HasPrefix(f[0], c.want) {
				t.Errorf("diagnostics %q, want one starting %q", f, c.want)
			}
		})
	}
}

// identityCase is a database the identity runs on.
type identityCase struct {
	db string
	// identity is the block's body; {role} is a role of the test's own.
	identity string
	// probe reads the setting (as tenant) and the user (as who).
	probe string
	// noRole is what probe says of tenant on a connection without one.
	noRole func(v any) bool
}

var identityCases = []identityCase{
	{
		db:       "postgres",
		identity: `role = "{role}"` + "\n" + `settings = { "app.tenant" = auth.claims.tenant }`,
		probe:    "SELECT current_setting('app.tenant', true) AS tenant, current_user::text AS who",
		noRole:   func(v any) bool { return v == nil || v == "" },
	},
	{
		db:       "mariadb",
		identity: `settings = { tenant = auth.claims.tenant }`,
		probe:    "SELECT @tenant AS tenant, CURRENT_USER() AS who",
		noRole:   func(v any) bool { return v == nil },
	},
}

// TestIdentityLeavesNothingOnThePool: on a pool of one connection, a
// statement run as a caller sees the caller's role and setting (a value
// that would be SQL if pasted stays a value); afterwards, the same
// connection, used without the identity, has neither, also after a
// statement that failed, so nothing reaches the next caller's statement.
func TestIdentityLeavesNothingOnThePool(t *testing.T) {
	for _, c := range identityCases {
		t.Run(c.db, func(t *testing.T) {
			db := openTestDB(t, c.db)
			role := ""
			if c.db == "postgres" {
				suffix := make([]byte, 5)
				_, _ = rand.Read(suffix)
				role = "obo_pool_" + hex.EncodeToString(suffix)
				if _, err := db.admin.Exec("CREATE ROLE " + role + " NOLOGIN"); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _, _ = db.admin.Exec("DROP ROLE " + role) })
			}
			src := fmt.Sprintf(`backend "sql" "db" {
  driver         = %q
  dsn            = %q
  read_only      = false
  max_open_conns = 1
  identity {
    %s
  }
}
sql "db" {
  query     = %q
  read_only = true
}
sql "db" {
  query = %q
}
sql "db" {
  query = "SELECT 1/0 AS boom"
}
`, db.driver, db.dsn, strings.ReplaceAll(c.identity, "{role}", role), c.probe, c.probe)
			compiled := checktest.CompileScoped(t, New(), src, withAuth)
			if len(compiled.Diags) > 0 {
				t.Fatal(compiled.Diags.Error())
			}
			b := compiled.Backends["db"].(*Backend)
			if needs := b.ActsForCaller(); needs == nil || needs.Token {
				t.Fatalf("ActsForCaller = %+v", needs)
			}
			if err := b.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			pool := b.state.Load().rw
			loginUser := probe(t, pool, c.probe)["who"]
			tenants := []string{"acme", "x'); SET ROLE postgres; --", "globex"}
			for i, tenant := range tenants {
				for j, act := range compiled.Actions[:2] { // read-only, then read-write
					res, err := act.Invoke(context.Background(), &adapter.Request{Args: cty.EmptyObjectVal, Static: compiled.Static, Vars: callerVars(cty.StringVal(tenant))})
					if err != nil {
						t.Fatalf("call %d.%d: %v", i, j, err)
					}
					row := res.Fields["rows"].([]map[string]any)[0]
					if row["tenant"] != tenant || (role != "" && row["who"] != role) {
						t.Errorf("call %d.%d ran with %v, want tenant %q and role %q", i, j, row, tenant, role)
					}
					after := probe(t, pool, c.probe)
					if !c.noRole(after["tenant"]) || after["who"] != loginUser {
						t.Fatalf("after call %d.%d the pooled connection keeps %v (the login user is %v)", i, j, after, loginUser)
					}
				}
			}
			if _, err := compiled.Actions[2].Invoke(context.Background(), &adapter.Request{Args: cty.EmptyObjectVal, Static: compiled.Static, Vars: callerVars(cty.StringVal("acme"))}); err == nil && c.db == "postgres" {
				t.Error("1/0 did not fail")
			}
			if after := probe(t, pool, c.probe); !c.noRole(after["tenant"]) || after["who"] != loginUser {
				t.Errorf("after a failed statement the pooled connection keeps %v", after)
			}
			_, err := compiled.Actions[0].Invoke(context.Background(), &adapter.Request{Args: cty.EmptyObjectVal, Static: compiled.Static, Vars: callerVars(cty.NullVal(cty.String))})
			if err == nil || !strings.Contains(err.Error(), "does not give it") {
				t.Errorf("a caller without a tenant: %v", err)
			}
		})
	}
}

// probe runs q on pool without any identity and returns its one row.
func probe(t *testing.T, pool *sql.DB, q string) map[string]any {
	t.Helper()
	var tenant, who sql.NullString
	if err := pool.QueryRow(q).Scan(&tenant, &who); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{"tenant": nil, "who": who.String}
	if tenant.Valid {
		out["tenant"] = tenant.String
	}
	return out
}
