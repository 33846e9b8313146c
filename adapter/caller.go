package adapter

import "github.com/hashicorp/hcl/v2"

// Calls on behalf of the caller. A backend may act for the caller whose
// verified access token a call carries: an HTTP backend exchanges that
// token for one issued to the caller for the backend's own audience
// (RFC 8693 token exchange), an SQL backend runs each statement as the
// caller's database identity (a role and settings read from auth.*).
// The table refuses such a backend in a configuration without an auth
// block, marks every tool, resource and prompt that calls it as reading
// auth.* (so a call without a verified token is refused before it runs),
// and hands the caller's token to the call in Request.CallerToken.

// ForCaller is implemented by backends that may act for the caller.
type ForCaller interface {
	// ActsForCaller says what the backend's calls need of the caller;
	// nil when the backend acts for nobody in particular.
	ActsForCaller() *CallerNeeds
}

// CallerNeeds is what a backend's calls need of the caller.
type CallerNeeds struct {
	// Block names the block that makes the backend act for the caller
	// ("token_exchange", "identity"), and DeclRange is where it is.
	Block     string
	DeclRange hcl.Range
	// Token says that each call needs the caller's verified access token
	// itself (Request.CallerToken), not only its identity (auth.*).
	Token bool
}

// NeedsOf is what backend's calls need of the caller; nil when nothing.
func NeedsOf(b Backend) *CallerNeeds {
	if f, ok := b.(ForCaller); ok {
		return f.ActsForCaller()
	}
	return nil
}
