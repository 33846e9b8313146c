package auth

import "testing"

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
