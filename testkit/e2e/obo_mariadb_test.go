package e2e

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// tenantDatabase creates a MariaDB database of its own holding a table
// orders of three tenants' rows, a function caller_tenant() that returns
// the user variable @tenant, and a view my_orders of the rows whose
// tenant it returns; it returns the database's DSN. The database goes
// when the test ends.
func tenantDatabase(t *testing.T, dsn string) string {
	t.Helper()
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	name := "obo_" + hex.EncodeToString(suffix)
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	// One connection, so USE holds for the statements after it.
	admin.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE DATABASE " + name,
		"USE " + name,
		"CREATE TABLE orders (id int AUTO_INCREMENT PRIMARY KEY, tenant varchar(64) NOT NULL, item varchar(64) NOT NULL)",
		"INSERT INTO orders (tenant, item) VALUES ('acme', 'anvil'), ('globex', 'gear'), ('acme', 'rocket')",
		"CREATE FUNCTION caller_tenant() RETURNS varchar(64) NOT DETERMINISTIC NO SQL RETURN @tenant",
		"CREATE VIEW my_orders AS SELECT id, tenant, item FROM orders WHERE tenant = caller_tenant()",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE " + name) })
	// The DSN's database is what follows its last slash, up to the
	// parameters.
	slash := strings.LastIndex(dsn, "/")
	if slash < 0 {
		t.Fatalf("MCPDECL_TEST_MYSQL_DSN %q names no database", dsn)
	}
	params := ""
	if q := strings.Index(dsn[slash:], "?"); q >= 0 {
		params = dsn[slash+q:]
	}
	return dsn[:slash+1] + name + params
}

// TestOnBehalfMariaDBUserVariables is TestOnBehalfRowLevelSecurity on
// MariaDB, which has no roles per statement: two callers with tokens
// from the real authorization server, whose tenant claims differ, call
// tools over HTTP on a backend whose one pooled connection they share;
// the identity block sets @tenant from each caller's claim for the
// statement, so the view (and a query filtering on @tenant) shows each
// their tenant's rows and an insert writes their tenant; alternating on
// the single connection, each sees their own tenant, never the one
// before; and a caller whose token gives no tenant is refused rather
// than run with none.
func TestOnBehalfMariaDBUserVariables(t *testing.T) {
	dsn := tenantDatabase(t, testenv.Need(t, "MCPDECL_TEST_MYSQL_DSN"))
	as := authtest.Start(t)
	endpoint := serveWithAuth(t, repoPath(t, "testkit/e2e/testdata/obo_mariadb.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "dsn": dsn}
	}, nil)
	token := func(sub string, claims map[string]any) string {
		return as.Token(t, authtest.TokenRequest{Subject: sub, Resource: []string{endpoint}, Claims: claims})
	}
	alice := connectWithToken(t, endpoint, token("alice", map[string]any{"tenant": "acme"}))
	defer alice.close()
	bob := connectWithToken(t, endpoint, token("bob", map[string]any{"tenant": "globex"}))
	defer bob.close()
	ctx := testCtx(t)
	call := func(c client, tool string, args map[string]any) string {
		t.Helper()
		res, err := c.callTool(ctx, tool, args)
		if err != nil || res.IsError {
			t.Fatalf("%s: %+v, %v", tool, res, err)
		}
		rows, _ := json.Marshal(res.Structured.(map[string]any)["rows"])
		return string(rows)
	}
	for round := range 3 {
		for _, c := range []struct {
			cl           client
			tenant, want string
		}{
			{alice, "acme", `[{"item":"anvil","tenant":"acme"},{"item":"rocket","tenant":"acme"}]`},
			{bob, "globex", `[{"item":"gear","tenant":"globex"}]`},
		} {
			for _, tool := range []string{"orders", "orders_query"} {
				if got := call(c.cl, tool, nil); got != c.want {
					t.Fatalf("round %d: %s sees %s through %s, want %s", round, c.tenant, got, tool, c.want)
				}
			}
			if got := call(c.cl, "session", nil); got != `[{"tenant":"`+c.tenant+`"}]` {
				t.Fatalf("round %d: %s's statement ran with %s", round, c.tenant, got)
			}
		}
	}
	if got := call(bob, "add_order", map[string]any{"item": "sprocket"}); got != `[{"item":"sprocket","tenant":"globex"}]` {
		t.Fatalf("add_order: %s", got)
	}
	if got := call(alice, "orders", nil); strings.Contains(got, "sprocket") || strings.Contains(got, "globex") {
		t.Errorf("alice sees bob's new row: %s", got)
	}
	if got := call(bob, "orders", nil); !strings.Contains(got, "sprocket") {
		t.Errorf("bob does not see his new row: %s", got)
	}

	nobody := connectWithToken(t, endpoint, token("carol", nil))
	defer nobody.close()
	res, err := nobody.callTool(ctx, "orders", nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, "does not give it") {
		t.Errorf("a caller without a tenant: %+v, %v", res, err)
	}
}
