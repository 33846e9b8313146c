package e2e

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// rlsDatabase creates, in a schema of its own, a table orders whose
// row-level security (enabled and forced) shows the rows of the tenant
// in current_setting('app.tenant'), and a role that is no superuser
// (superusers bypass row-level security) and may use it; it returns the
// DSN of the schema and the role. Both go when the test ends.
func rlsDatabase(t *testing.T, dsn string) (string, string) {
	t.Helper()
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	schema, role := "obo_"+hex.EncodeToString(suffix), "obo_reader_"+hex.EncodeToString(suffix)
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	exec := func(q string) {
		t.Helper()
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(fmt.Sprintf("CREATE ROLE %s NOLOGIN NOSUPERUSER NOBYPASSRLS", role))
	t.Cleanup(func() {
		_, _ = admin.Exec(fmt.Sprintf("DROP SCHEMA %s CASCADE", schema))
		_, _ = admin.Exec(fmt.Sprintf("DROP ROLE %s", role))
	})
	exec(fmt.Sprintf("CREATE SCHEMA %s", schema))
	exec(fmt.Sprintf("CREATE TABLE %s.orders (id serial PRIMARY KEY, tenant text NOT NULL, item text NOT NULL)", schema))
	exec(fmt.Sprintf("INSERT INTO %s.orders (tenant, item) VALUES ('acme', 'anvil'), ('globex', 'gear'), ('acme', 'rocket')", schema))
	exec(fmt.Sprintf("ALTER TABLE %s.orders ENABLE ROW LEVEL SECURITY", schema))
	exec(fmt.Sprintf("ALTER TABLE %s.orders FORCE ROW LEVEL SECURITY", schema))
	exec(fmt.Sprintf("CREATE POLICY by_tenant ON %s.orders USING (tenant = current_setting('app.tenant', true)) WITH CHECK (tenant = current_setting('app.tenant', true))", schema))
	exec(fmt.Sprintf("GRANT USAGE ON SCHEMA %[1]s TO %[2]s; GRANT SELECT, INSERT ON %[1]s.orders TO %[2]s; GRANT USAGE ON SEQUENCE %[1]s.orders_id_seq TO %[2]s", schema, role))
	exec(fmt.Sprintf("GRANT %s TO CURRENT_USER", role))
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), role
}

// TestOnBehalfRowLevelSecurity: two callers with tokens from the real
// authorization server, whose tenant claims differ, call tools over HTTP
// on a PostgreSQL backend whose one pooled connection they share; the
// identity block runs each statement as the policy's role with the
// caller's tenant, so each sees and writes only their tenant's rows, and
// nothing one caller set is left for the next: alternating callers on
// the single connection each see their own tenant, and a caller whose
// token gives no tenant is refused rather than run with none.
func TestOnBehalfRowLevelSecurity(t *testing.T) {
	dsn, role := rlsDatabase(t, testenv.Need(t, "MCPDECL_TEST_POSTGRES_DSN"))
	as := authtest.Start(t)
	endpoint := serveWithAuth(t, repoPath(t, "testkit/e2e/testdata/obo_rls.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "dsn": dsn, "role": role}
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
			if got := call(c.cl, "orders", nil); got != c.want {
				t.Fatalf("round %d: %s sees %s, want %s", round, c.tenant, got, c.want)
			}
			if got := call(c.cl, "session", nil); !strings.Contains(got, `"who":"`+role+`"`) || !strings.Contains(got, `"tenant":"`+c.tenant+`"`) {
				t.Fatalf("round %d: %s's statement ran as %s", round, c.tenant, got)
			}
		}
	}
	if got := call(bob, "add_order", map[string]any{"item": "sprocket"}); !strings.Contains(got, `"tenant":"globex"`) {
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
