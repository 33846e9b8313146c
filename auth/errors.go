package auth

// Error codes of RFC 6750 §3.1, and one of this package for a failure on
// the server's side (an authorization server that cannot be reached).
const (
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidToken      = "invalid_token"
	CodeInsufficientScope = "insufficient_scope"
	// CodeUnavailable means the token could not be checked at all: the key
	// set or the introspection endpoint did not answer. It is no fault of
	// the client, so the middleware answers 503 rather than 401.
	CodeUnavailable = "temporarily_unavailable"
)

// Error is why a request is refused. Code is an RFC 6750 error code;
// Description is written for the client and is safe to send to it: it
// never holds the token, a key, or anything the token claims.
type Error struct {
	Code        string
	Description string
}

func (e *Error) Error() string { return e.Code + ": " + e.Description }

func invalidToken(description string) *Error {
	return &Error{Code: CodeInvalidToken, Description: description}
}

func invalidRequest(description string) *Error {
	return &Error{Code: CodeInvalidRequest, Description: description}
}

func unavailable(description string) *Error {
	return &Error{Code: CodeUnavailable, Description: description}
}

// InsufficientScope is the error for a request whose token lacks scopes
// (403 with the scopes it needs in the challenge, RFC 6750 §3.1).
func InsufficientScope(missing []string) *Error {
	d := "the token lacks a scope this request needs"
	if len(missing) > 1 {
		d = "the token lacks scopes this request needs"
	}
	return &Error{Code: CodeInsufficientScope, Description: d}
}
