package mcpadapter

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/internal/tokenclient"
)

// TestClientCredentialsRenewedOn401: the transport of an oauth2 backend
// sends the cached token; when the server answers 401 (the token was
// revoked), it asks for a new token once and sends the request again,
// body and all; a server that refuses the new token too gets its 401
// back, without a third token.
func TestClientCredentialsRenewedOn401(t *testing.T) {
	var mu sync.Mutex
	issued := 0
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("resource") != "https://remote.example/mcp" {
			t.Errorf("token request %v", r.Form)
		}
		mu.Lock()
		issued++
		n := issued
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"token-%d","token_type":"Bearer","expires_in":3600}`, n)
	}))
	defer tokens.Close()
	accept := "token-2"
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer "+accept {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"body": string(body)})
	}))
	defer remote.Close()

	src := tokenclient.NewSource(tokenclient.ClientCredentials{TokenURL: tokens.URL, ClientID: "c", ClientSecret: "s",
		Resource: "https://remote.example/mcp"}, http.DefaultTransport, 5*time.Second, "mcpdecl", nil)
	client := &http.Client{Transport: &headerTransport{tokens: src}}
	post := func() (int, string) {
		t.Helper()
		resp, err := client.Post(remote.URL, "application/json", strings.NewReader(`{"hello":1}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, body := post(); status != 200 || !strings.Contains(body, `{\"hello\":1}`) {
		t.Fatalf("after renewing: %d %s", status, body)
	}
	if status, _ := post(); status != 200 || issued != 2 {
		t.Fatalf("the renewed token is kept: %d, %d tokens issued", status, issued)
	}
	accept = "none"
	if status, _ := post(); status != http.StatusUnauthorized || issued != 3 {
		t.Fatalf("a server refusing every token: %d, %d tokens issued, want 401 and one more", status, issued)
	}
}
