package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// Token checks. When the server is served over HTTP (Options.HTTPAuth)
// and its table has an auth block, each generation has a Verifier built
// from that block: Guard refuses MCP requests without a valid token
// (401), Metadata serves the protected-resource metadata; a call whose token
// lacks the scopes of its tool, resource, template or prompt gets 403
// with a challenge naming the scopes to ask for. The verified identity
// reaches the table as CallInput.Identity. Over stdio no token exists:
// the process's own credentials are the boundary, scopes are not checked,
// and what reads auth.* is refused.

// newVerifier builds the token checks of t; nil when t has no auth block
// or tokens are not checked (stdio).
func (s *Server) newVerifier(t *table.Table) (*auth.Verifier, error) {
	if !s.httpAuth || t.Auth == nil {
		return nil, nil
	}
	cfg := *t.Auth
	cfg.Logger = s.log
	v, err := auth.New(&cfg)
	if err != nil {
		return nil, fmt.Errorf("auth block: %w", err)
	}
	return v, nil
}

// Guard is the mcp.HTTPGuard of the MCP endpoint (mcp.HTTPOptions.Guard):
// without an auth block every request passes; with one, a request needs a
// valid bearer token, and one without gets 401 with a challenge naming
// the metadata. It follows reloads: each request is checked by the
// current configuration's auth block.
func (s *Server) Guard(w http.ResponseWriter, r *http.Request) *http.Request {
	st := s.state.Load()
	switch {
	case st.authErr != nil:
		// Fail closed: an auth block that could not be set up lets nobody in.
		http.Error(w, "authorization is not available", http.StatusServiceUnavailable)
		return nil
	case st.verifier == nil:
		if st.hooks == nil {
			return r
		}
		return s.guardLimits(w, r)
	}
	var passed *http.Request
	st.verifier.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { passed = r })).ServeHTTP(w, r)
	if passed != nil && st.hooks != nil {
		return s.guardLimits(w, passed)
	}
	return passed
}

// Metadata serves the protected-resource metadata (RFC 9728) of the MCP
// endpoint at endpointPath, without a token: mount it at each of
// auth.MetadataPaths(endpointPath). Without an auth block it is 404. It
// follows reloads.
func (s *Server) Metadata() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := s.state.Load()
		if st.verifier == nil {
			http.NotFound(w, r)
			return
		}
		servePRM(w, r, st.verifier)
	})
}

// servePRM answers GET and HEAD of the RFC 9728 document. It is public,
// so any origin may read it: browser-based clients discover the
// authorization server through it.
func servePRM(w http.ResponseWriter, r *http.Request, v *auth.Verifier) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD")
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=300")
	_, _ = w.Write(v.Metadata())
}

// identity is the verified identity of a request's token, when this
// generation checks tokens.
func (st *state) identity(ctx context.Context) *auth.Identity {
	if st.verifier == nil {
		return nil
	}
	return auth.FromContext(ctx)
}

// inboundHeader is the request's headers as the table sees them: never
// the caller's token when tokens are checked, so that no backend
// configuration can pass it on.
func (st *state) inboundHeader(h http.Header) http.Header {
	if st.verifier == nil || h.Get("Authorization") == "" {
		return h
	}
	h = h.Clone()
	h.Del("Authorization")
	return h
}

// scopeError is the protocol error of a call whose token lacks scopes:
// over HTTP, 403 with a challenge naming the scopes to ask for.
func (st *state) scopeError(ce *dispatch.CallError) error {
	e := mcp.Errorf(mcp.CodeForbidden, "%s", ce.Message)
	v := st.verifier
	if v == nil {
		return e
	}
	return e.WithHTTPReply(func(h http.Header, r *http.Request) int {
		cw := &headerWriter{header: h}
		v.Challenge(cw, r, http.StatusForbidden, &auth.Error{Code: "insufficient_scope", Description: ce.Message}, ce.Scopes)
		if cw.status == 0 {
			return http.StatusForbidden
		}
		return cw.status
	})
}

// headerWriter lets a challenge set headers and a status on a response
// whose body the MCP transport writes: the body is dropped.
type headerWriter struct {
	header http.Header
	status int
}

func (w *headerWriter) Header() http.Header         { return w.header }
func (w *headerWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *headerWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

// mentionsBearer reports whether a log record may hold a bearer
// credential, so that records without one skip the redaction.
func mentionsBearer(r slog.Record) bool {
	found := hasBearer(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		v := a.Value.Resolve()
		switch v.Kind() {
		case slog.KindString:
			found = hasBearer(v.String())
		case slog.KindAny, slog.KindGroup, slog.KindLogValuer:
			found = true // printed as text: redacted on the way
		}
		return !found
	})
	return found
}

// redactBearer replaces the credential after each "Bearer " (in any case)
// in s: a token that reaches a log line by any path (an error quoting a
// request, a backend's answer) is not written.
func redactBearer(s string) string {
	if !hasBearer(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+7 <= len(s) && strings.EqualFold(s[i:i+7], "bearer ") {
			j := i + 7
			for j < len(s) && s[j] == ' ' {
				j++
			}
			k := j
			for k < len(s) && isToken68(s[k]) {
				k++
			}
			b.WriteString(s[i:j])
			if k > j {
				b.WriteString(rule.Redacted)
			}
			i = k
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// isToken68 reports whether c may appear in a bearer credential (RFC 6750).
func isToken68(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/=", c) >= 0
}

// hasBearer reports whether s holds "bearer" in any case.
func hasBearer(s string) bool {
	for i := 0; i+6 <= len(s); i++ {
		if s[i]|0x20 == 'b' && strings.EqualFold(s[i:i+6], "bearer") {
			return true
		}
	}
	return false
}

// Principal is the mcp.HTTPOptions.Principal of the MCP endpoint: the
// issuer and subject of the request's verified token, to which a 2025
// session is bound; "" without a token (no auth block).
func Principal(r *http.Request) string { return principalOf(r.Context()) }

// tokenSubject is the default Options.Identity: tasks belong to the
// principal of the token that created them.
func tokenSubject(ctx context.Context, _ *mcp.Request) string { return principalOf(ctx) }

func principalOf(ctx context.Context) string {
	id := auth.FromContext(ctx)
	if id == nil {
		return ""
	}
	iss, _ := id.Claims["iss"].(string)
	return iss + "\x00" + id.Subject
}
