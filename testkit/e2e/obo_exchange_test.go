package e2e

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// tokenCheckingAPI is an API that accepts only tokens the authorization
// server signed for it (signature by the JWKS, issuer, audience: its own
// URL), and answers with who the token speaks for and on whose behalf.
type tokenCheckingAPI struct {
	mu       sync.Mutex
	tokens   []string // every bearer token it was sent
	subjects []string // the subject of every token it accepted
}

func (a *tokenCheckingAPI) subjectsSeen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.subjects...)
}

func startTokenCheckingAPI(t *testing.T, as *authtest.AS) (*tokenCheckingAPI, string) {
	t.Helper()
	api := &tokenCheckingAPI{}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	v, err := auth.New(&auth.Config{Resource: srv.URL + "/", AuthorizationServers: []string{as.Issuer},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	record := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			api.mu.Lock()
			api.tokens = append(api.tokens, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			api.mu.Unlock()
			next.ServeHTTP(w, r)
		})
	}
	mux.Handle("/", record(v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := auth.FromContext(r.Context())
		api.mu.Lock()
		api.subjects = append(api.subjects, id.Subject)
		api.mu.Unlock()
		act, _ := id.Claims["act"].(map[string]any)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"sub": id.Subject, "tenant": id.Claims["tenant"], "actor": act["sub"]})
	}))))
	return api, srv.URL
}

// TestOnBehalfTokenExchange: two callers with tokens from the real
// authorization server call a tool over HTTP; the API, which checks
// signature, issuer and audience, gets for each a token exchanged for
// the caller (their subject and tenant, the server as actor), never the
// caller's own; each caller's token is exchanged once; an exchange the
// authorization server refuses is a tool error with its reason.
func TestOnBehalfTokenExchange(t *testing.T) {
	as := authtest.Start(t)
	api, apiURL := startTokenCheckingAPI(t, as)
	endpoint := serveWithAuthEnv(t, repoPath(t, "testkit/e2e/testdata/obo_exchange.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "api": apiURL, "exchange_client": as.ExchangeClientID}
	}, map[string]string{"EXCHANGE_SECRET": as.ExchangeClientSecret}, nil)
	as.SetExchangeAudiences(t, []string{apiURL + "/"})
	before := as.Stats(t).Exchange

	callers := map[string]string{"alice": "acme", "bob": "globex"}
	tokens := map[string]string{}
	for sub, tenant := range callers {
		tokens[sub] = as.Token(t, authtest.TokenRequest{Subject: sub, Resource: []string{endpoint}, Claims: map[string]any{"tenant": tenant}})
	}
	ctx := testCtx(t)
	for round := range 2 {
		for sub, tenant := range callers {
			c := connectWithToken(t, endpoint, tokens[sub])
			res, err := c.callTool(ctx, "whoami", nil)
			c.close()
			if err != nil || res.IsError {
				t.Fatalf("round %d, %s: %+v, %v", round, sub, res, err)
			}
			var got struct{ Sub, Tenant, Actor string }
			if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
				t.Fatalf("%s: %q: %v", sub, res.Text, err)
			}
			if got.Sub != sub || got.Tenant != tenant || got.Actor != as.ExchangeClientID {
				t.Errorf("round %d: %s's call reached the API as %+v", round, sub, got)
			}
		}
	}
	api.mu.Lock()
	seen := append([]string(nil), api.tokens...)
	api.mu.Unlock()
	if len(seen) != 4 {
		t.Fatalf("the API got %d calls, want 4", len(seen))
	}
	for _, tok := range seen {
		if tok == tokens["alice"] || tok == tokens["bob"] {
			t.Fatal("the API got a caller's own token")
		}
	}
	if n := as.Stats(t).Exchange - before; n != 2 {
		t.Errorf("%d exchanges for 2 callers calling twice, want 2 (one per caller)", n)
	}

	c := connectWithToken(t, endpoint, tokens["alice"])
	defer c.close()
	res, err := c.callTool(ctx, "invoices", nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, "invalid_target") || !strings.Contains(res.Text, "no tokens are issued for billing-api") {
		t.Errorf("an exchange the authorization server refuses: %+v, %v", res, err)
	}
	if strings.Contains(res.Text, as.ExchangeClientSecret) || strings.Contains(res.Text, tokens["alice"]) {
		t.Errorf("the error repeats a secret: %q", res.Text)
	}
}

func connectWithToken(t *testing.T, endpoint, token string) client {
	hc := &http.Client{Transport: bearer{token, http.DefaultTransport}}
	return connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, mcp.Version20251125)
}

// TestOnBehalfWithoutToken: over stdio no token is ever verified, so a
// tool whose backend acts for the caller is refused with a message
// saying why, and nothing is sent.
func TestOnBehalfWithoutToken(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the API was called without a caller: %s", r.URL)
	}))
	defer api.Close()
	cfg, diags := lang.Load(repoPath(t, "testkit/e2e/testdata/obo_exchange.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{
		Vars:      map[string]string{"resource": "http://127.0.0.1:1/mcp", "issuer": api.URL, "api": api.URL, "exchange_client": "c"},
		LookupEnv: func(name string) (string, bool) { return "secret-value", name == "EXCHANGE_SECRET" },
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res, err := dispatch.CallTool(testCtx(t), tbl, "whoami", &dispatch.CallInput{})
	if err != nil || !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "carries no verified access token") {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

// TestOnBehalfStepsAndTasks: a step and the call after it both reach the
// API for their caller, and a task that runs after its request has been
// answered still calls for the caller who created it, while another
// caller calls in between.
func TestOnBehalfStepsAndTasks(t *testing.T) {
	as := authtest.Start(t)
	api, apiURL := startTokenCheckingAPI(t, as)
	endpoint := serveWithAuthEnv(t, repoPath(t, "testkit/e2e/testdata/obo_exchange.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "api": apiURL, "exchange_client": as.ExchangeClientID}
	}, map[string]string{"EXCHANGE_SECRET": as.ExchangeClientSecret}, nil)
	alice := as.Token(t, authtest.TokenRequest{Subject: "alice", Resource: []string{endpoint}, Claims: map[string]any{"tenant": "acme"}})
	bob := as.Token(t, authtest.TokenRequest{Subject: "bob", Resource: []string{endpoint}, Claims: map[string]any{"tenant": "globex"}})

	c := connectWithToken(t, endpoint, bob)
	res, err := c.callTool(testCtx(t), "whoami_twice", nil)
	c.close()
	if err != nil || res.IsError {
		t.Fatalf("whoami_twice: %+v, %v", res, err)
	}
	if got := api.subjectsSeen(); strings.Join(got, ",") != "bob,bob" {
		t.Fatalf("the step and the call reached the API as %q, want bob twice", got)
	}

	created := authedTaskRPC(t, endpoint, alice, "tools/call", "whoami_later", `"name":"whoami_later","arguments":{}`)
	id, _ := created["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", created)
	}
	c = connectWithToken(t, endpoint, bob)
	if res, err := c.callTool(testCtx(t), "whoami", nil); err != nil || res.IsError {
		t.Fatalf("whoami: %+v, %v", res, err)
	}
	c.close()
	for i := 0; ; i++ {
		got := authedTaskRPC(t, endpoint, alice, "tasks/get", id, `"taskId":"`+id+`"`)
		if got["status"] == "completed" {
			break
		}
		if got["status"] != "working" || i > 400 {
			t.Fatalf("task: %v", got)
		}
		time.Sleep(25 * time.Millisecond)
	}
	seen := api.subjectsSeen()
	if len(seen) != 4 || strings.Count(strings.Join(seen, ","), "alice") != 1 || strings.Count(strings.Join(seen, ","), "bob") != 3 {
		t.Errorf("the API saw %q: want bob three times and alice once, for her task", seen)
	}
}

// authedTaskRPC is taskRPC with a bearer token.
func authedTaskRPC(t *testing.T, url, token, method, name, params string) map[string]any {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Error != nil {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, raw)
	}
	return m.Result
}
