package dispatch

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
)

// claimsConfig has call-less tools only: a result program and a content
// block that read the caller's claims, typed as declared.
const claimsConfig = `
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  claim "tenant" {
    type = string
  }
  claim "level" {
    type = integer
  }
  claim "admin" {
    type = bool
  }
  claim "groups" {
    type     = list(string)
    required = false
  }
}
tool "claims" {
  description = "The caller's claims, from the result program."
  result {
    structured = "{'subject': auth.subject, 'tenant': auth.claims.tenant, 'level': auth.claims.level + 1, 'admin': auth.claims.admin, 'groups': auth.claims.groups, 'scopes': auth.scopes}"
  }
}
tool "claims_text" {
  description = "The caller's claims, from a content block."
  content "text" {
    text = "${auth.subject}|${auth.claims.tenant}|${auth.claims.level + 1}|${auth.claims.admin}"
  }
}
`

func claimsIdentity(claims map[string]any) *auth.Identity {
	return &auth.Identity{Subject: "alice", Scopes: []string{"team:read"}, Claims: claims}
}

// TestCallLessToolsSeeAuth: a tool without a backend call reads auth.*
// in its result program and its content blocks; without a token it is
// refused, as any tool that reads auth.* is.
func TestCallLessToolsSeeAuth(t *testing.T) {
	tbl := compileTableForCalls(t, claimsConfig)
	id := claimsIdentity(map[string]any{"tenant": "acme", "level": float64(2), "admin": false, "groups": []any{"ops"}})
	res, err := CallTool(context.Background(), tbl, "claims", &CallInput{Identity: id})
	if err != nil || res.IsError || string(res.Structured) != `{"admin":false,"groups":["ops"],"level":3,"scopes":["team:read"],"subject":"alice","tenant":"acme"}` {
		t.Fatalf("got %+v (%s), %v", res, res.Structured, err)
	}
	res, err = CallTool(context.Background(), tbl, "claims_text", &CallInput{Identity: id})
	if err != nil || res.IsError || resultText(res) != "alice|acme|3|false" {
		t.Fatalf("got %+v, %v", res, err)
	}
	for _, name := range []string{"claims", "claims_text"} {
		res, err = CallTool(context.Background(), tbl, name, &CallInput{})
		if err != nil || !res.IsError || !strings.Contains(resultText(res), "carries no verified access token") {
			t.Fatalf("%s without a token: got %+v, %v", name, res, err)
		}
	}
}

// TestClaimTypeConversion: a claim whose JSON type differs from the
// declared one is converted as HCL converts values, the same way for the
// HCL expressions and the result programs: a number or bool where a
// string is declared becomes its text, a string holding a number becomes
// a number, "true"/"false" and 1/0 (number or text) become a bool. A value that does not convert (a
// word where a number is declared, a fraction where an integer is, a list
// where a string is) refuses the call, naming the claim.
func TestClaimTypeConversion(t *testing.T) {
	tbl := compileTableForCalls(t, claimsConfig)
	id := claimsIdentity(map[string]any{"tenant": float64(42), "level": "7", "admin": float64(1)})
	res, err := CallTool(context.Background(), tbl, "claims", &CallInput{Identity: id})
	if err != nil || res.IsError || string(res.Structured) != `{"admin":true,"groups":null,"level":8,"scopes":["team:read"],"subject":"alice","tenant":"42"}` {
		t.Fatalf("converted: got %+v (%s), %v", res, res.Structured, err)
	}
	res, err = CallTool(context.Background(), tbl, "claims_text", &CallInput{Identity: id})
	if err != nil || res.IsError || resultText(res) != "alice|42|8|true" {
		t.Fatalf("converted, content: got %+v, %v", res, err)
	}
	for _, c := range []struct {
		claim string
		value any
		want  string
	}{
		{"level", "seven", `The "level" claim of the access token is not`},
		{"level", float64(1.5), `The "level" claim of the access token is not`},
		{"admin", "yes", `The "admin" claim of the access token is not`},
		{"admin", float64(2), `The "admin" claim of the access token is not`},
		{"level", true, `The "level" claim of the access token is not`},
		{"tenant", []any{"a", "b"}, `The "tenant" claim of the access token is not`},
		{"tenant", map[string]any{"id": "a"}, `The "tenant" claim of the access token is not`},
		{"groups", "ops", `The "groups" claim of the access token is not`},
	} {
		claims := map[string]any{"tenant": "acme", "level": float64(1), "admin": true}
		claims[c.claim] = c.value
		for _, name := range []string{"claims", "claims_text"} {
			res, err := CallTool(context.Background(), tbl, name, &CallInput{Identity: claimsIdentity(claims)})
			if err != nil || !res.IsError || !strings.Contains(resultText(res), c.want) {
				t.Errorf("%s = %#v, %s: got %+v, %v; want a refusal %q", c.claim, c.value, name, res, err, c.want)
			}
		}
	}
}
