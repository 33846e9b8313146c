package auth_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// TestRealServerDiscoveryWalk walks what an MCP client does with a
// protected server, against the real authorization server: a request
// without a token gets 401 and the metadata URL; the metadata (at the
// path-inserted and at the root well-known URI) names the resource and the
// authorization server; the authorization server's metadata is found from
// there; a token got for the resource then opens the endpoint.
func TestRealServerDiscoveryWalk(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	// The resource URI must be known before the server is built: listen first.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	endpoint := origin + "/mcp"
	v, err := auth.New(&auth.Config{
		Resource:             endpoint,
		AuthorizationServers: []string{as.Issuer},
		ScopesSupported:      []string{"tools:read"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	mux := http.NewServeMux()
	for _, p := range auth.MetadataPaths("/mcp") {
		mux.Handle(p, v.MetadataHandler())
	}
	mux.Handle("/mcp", v.Middleware(echoIdentity))
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	srv.Start()
	t.Cleanup(srv.Close)

	resp := do(t, http.MethodPost, endpoint, "")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", resp.StatusCode)
	}
	_, params := parseChallenge(t, resp.Header.Get("WWW-Authenticate"))
	prmURL := params["resource_metadata"]
	if prmURL != srv.URL+"/.well-known/oauth-protected-resource/mcp" || params["scope"] != "tools:read" {
		t.Fatalf("challenge %v", params)
	}
	for _, u := range []string{prmURL, srv.URL + "/.well-known/oauth-protected-resource"} {
		var prm struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
		}
		decode(t, do(t, http.MethodGet, u, ""), &prm)
		if prm.Resource != endpoint || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != as.Issuer {
			t.Fatalf("metadata at %s: %+v", u, prm)
		}
	}
	var asMeta struct {
		Issuer        string `json:"issuer"`
		TokenEndpoint string `json:"token_endpoint"`
	}
	decode(t, do(t, http.MethodGet, as.Issuer+"/.well-known/oauth-authorization-server", ""), &asMeta)
	if asMeta.Issuer != as.Issuer || asMeta.TokenEndpoint == "" {
		t.Fatalf("authorization server metadata %+v", asMeta)
	}

	token := as.AuthorizationCode(t, authtest.TokenRequest{Scope: "tools:read", Resource: []string{endpoint}})
	resp = do(t, http.MethodPost, endpoint, token)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(body) != "johndoe header=" {
		t.Fatalf("with a token: %d %s", resp.StatusCode, body)
	}
}

func do(t *testing.T, method, u, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func decode(t *testing.T, resp *http.Response, out any) {
	t.Helper()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d", resp.Request.URL, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}
