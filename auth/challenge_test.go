package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestChallengeDescriptionQuotes: a description naming something in
// double quotes keeps it readable in the header (single quotes), and
// nothing breaks out of the quoted values.
func TestChallengeDescriptionQuotes(t *testing.T) {
	v := &Verifier{cfg: Config{Resource: "https://mcp.example.com/mcp"}, resource: "https://mcp.example.com/mcp"}
	got := v.challengeHeader(&Error{Code: "insufficient_scope", Description: `The tool "add_member" needs \ the scope`}, []string{"a\"b"})
	want := `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="a?b", error="insufficient_scope", error_description="The tool 'add_member' needs ? the scope"`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestInitialScopesInFirstChallenge: the 401 to a request without a token
// names InitialScopes when set, else every supported scope.
func TestInitialScopesInFirstChallenge(t *testing.T) {
	for _, c := range []struct {
		initial []string
		want    string
	}{
		{[]string{"team:read"}, `scope="team:read"`},
		{nil, `scope="team:read team:admin"`},
	} {
		v, err := New(&Config{Resource: "https://mcp.example.com/mcp", AuthorizationServers: []string{"https://as.example.com"},
			ScopesSupported: []string{"team:read", "team:admin"}, InitialScopes: c.initial})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		v.Middleware(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", nil))
		v.Close()
		if h := rec.Header().Get("WWW-Authenticate"); rec.Code != http.StatusUnauthorized || !strings.HasSuffix(h, c.want) {
			t.Errorf("initial %q: %d %q, want %s", c.initial, rec.Code, h, c.want)
		}
	}
	if _, err := New(&Config{Resource: "https://mcp.example.com/mcp", AuthorizationServers: []string{"https://as.example.com"},
		ScopesSupported: []string{"team:read"}, InitialScopes: []string{"team:admin"}}); err == nil || !strings.Contains(err.Error(), "initial_scopes") {
		t.Errorf("an initial scope that is not supported: %v", err)
	}
}
