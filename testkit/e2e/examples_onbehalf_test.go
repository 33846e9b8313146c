package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// TestOnBehalfExample serves examples/onbehalf.hcl, the file README's
// "Calls on behalf of the caller" points at, over HTTP against the real
// parts its tests cannot mock: the test authorization server, which
// issues the callers' tokens and exchanges them (RFC 8693); an API that
// accepts only tokens signed for its own URL; and PostgreSQL, with a
// row-level security policy on the orders table. Two callers of
// different tenants alternate: the API sees each caller (never their own
// token) with the server as actor, and each sees only their tenant's
// orders.
func TestOnBehalfExample(t *testing.T) {
	dsn, role := rlsDatabase(t, testenv.Need(t, "MCPDECL_TEST_POSTGRES_DSN"))
	as := authtest.Start(t)
	api, apiURL := startTokenCheckingAPI(t, as)
	as.SetExchangeAudiences(t, []string{apiURL + "/"})
	endpoint := serveWithAuthEnv(t, repoPath(t, "examples/onbehalf.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "orders_api": apiURL,
			"exchange_client": as.ExchangeClientID, "reports_role": role}
	}, map[string]string{"ORDERS_EXCHANGE_SECRET": as.ExchangeClientSecret, "REPORTS_DSN": dsn}, nil)

	callers := []struct{ sub, tenant, orders string }{
		{"alice", "acme", "anvil, rocket"},
		{"bob", "globex", "gear"},
	}
	tokens := map[string]string{}
	for _, c := range callers {
		tokens[c.sub] = as.Token(t, authtest.TokenRequest{Subject: c.sub, Resource: []string{endpoint}, Claims: map[string]any{"tenant": c.tenant}})
	}
	ctx := testCtx(t)
	for round := range 2 {
		for _, c := range callers {
			cl := connectWithToken(t, endpoint, tokens[c.sub])
			res, err := cl.callTool(ctx, "whoami", nil)
			if err != nil || res.IsError {
				t.Fatalf("round %d, %s: whoami: %+v, %v", round, c.sub, res, err)
			}
			if want := c.sub + " of " + c.tenant + ", through " + as.ExchangeClientID; res.Text != want {
				t.Errorf("round %d: whoami = %q, want %q", round, res.Text, want)
			}
			res, err = cl.callTool(ctx, "tenant_orders", nil)
			cl.close()
			if err != nil || res.IsError {
				t.Fatalf("round %d, %s: tenant_orders: %+v, %v", round, c.sub, res, err)
			}
			if res.Text != c.orders {
				rows, _ := json.Marshal(res.Structured)
				t.Errorf("round %d: %s of %s sees %q (%s), want %q", round, c.sub, c.tenant, res.Text, rows, c.orders)
			}
		}
	}
	api.mu.Lock()
	defer api.mu.Unlock()
	if len(api.tokens) != 4 {
		t.Errorf("the API got %d calls, want 4", len(api.tokens))
	}
	for _, tok := range api.tokens {
		if tok == tokens["alice"] || tok == tokens["bob"] {
			t.Error("the API got a caller's own token")
		}
		if strings.TrimSpace(tok) == "" {
			t.Error("the API got a call without a token")
		}
	}
}
