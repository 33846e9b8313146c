package mcp

import "net/http"

// CodeForbidden is the JSON-RPC code of a request the caller is not
// allowed to make (its access token lacks a scope). Over HTTP it travels
// with the status and headers the handler chose (WithHTTPReply).
const CodeForbidden = -32003

// HTTPReply sets the status and headers of an HTTP response that carries
// an error, given the request: an authorization challenge (403 and a
// WWW-Authenticate header) needs the request to name its metadata URL.
// It returns the status; it must not write a body.
type HTTPReply func(h http.Header, r *http.Request) int

// HTTPGuard checks an HTTP request before the transport reads it, such as
// its bearer token. It returns the request to serve, possibly with a new
// context (who is calling, for the handler to read from the context of
// its calls), or nil when it has answered the request itself (401 and a
// challenge). It runs after the Host and Origin checks, so a request from
// a rebound page is refused as such, after the CORS headers are set, so a
// browser client can read a refusal, and within MaxInFlight, so a flood
// of tokens to check is bounded like any other load.
type HTTPGuard func(w http.ResponseWriter, r *http.Request) *http.Request

// WithHTTPReply marks e to be answered over HTTP with reply's status and
// headers, and e itself as the JSON-RPC body. Over stdio, inside a batch,
// and once a response stream has started, e is sent alone, in band, as
// any other error. It returns e.
func (e *Error) WithHTTPReply(reply HTTPReply) *Error {
	e.httpReply = reply
	return e
}

// replyTo applies an error's HTTP reply to w's headers and returns the
// status to send (status when the error has none).
func (o outcome) replyTo(w http.ResponseWriter, r *http.Request) int {
	if o.httpReply == nil {
		return o.status
	}
	return o.httpReply(w.Header(), r)
}
