package auth

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Middleware requires a valid bearer token on every request before next
// sees it. The token must come in the Authorization header (RFC 6750 §2.1;
// a token in the query string is refused with 400, as are two
// Authorization headers). A request without a token gets 401 with the
// challenge; an invalid token 401 with error="invalid_token"; a token that
// cannot be checked now (the authorization server is unreachable) 503.
// A valid token's Identity is put in the request's context (FromContext),
// and the Authorization header is removed from the request next sees, so
// nothing downstream can pass the token on. With Config.KeepToken the
// token itself is put in the context too (TokenFromContext), for backends
// that exchange it at an authorization server.
//
// CORS preflight requests (OPTIONS with Access-Control-Request-Method)
// carry no credentials by design and go to next unauthenticated. The
// middleware serves nothing itself: mount MetadataHandler at
// MetadataPaths beside it.
func (v *Verifier) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			next.ServeHTTP(w, r)
			return
		}
		if r.URL.RawQuery != "" && r.URL.Query().Has("access_token") {
			v.debug("request refused", "reason", "token in the query string")
			v.Challenge(w, r, http.StatusBadRequest, invalidRequest("tokens in the query string are not accepted; send an Authorization: Bearer header"), nil)
			return
		}
		token, herr := bearerToken(r.Header)
		if herr != nil {
			v.debug("request refused", "reason", herr.Description)
			v.Challenge(w, r, http.StatusBadRequest, herr, nil)
			return
		}
		if token == "" {
			v.Challenge(w, r, http.StatusUnauthorized, nil, v.initialScopes())
			return
		}
		id, err := v.verify(r.Context(), token)
		if err != nil {
			v.refuse(w, r, err)
			return
		}
		ctx := WithIdentity(r.Context(), id)
		if v.cfg.KeepToken {
			ctx = WithToken(ctx, token)
		}
		r2 := r.WithContext(ctx)
		r2.Header = r.Header.Clone()
		r2.Header.Del("Authorization")
		next.ServeHTTP(w, r2)
	})
}

// refuse answers a token that did not verify.
func (v *Verifier) refuse(w http.ResponseWriter, r *http.Request, err *Error) {
	switch err.Code {
	case CodeUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(int(retryUnloaded/time.Second)))
		writeErrorBody(w, http.StatusServiceUnavailable, err)
	case CodeInvalidRequest:
		v.Challenge(w, r, http.StatusBadRequest, err, nil)
	default:
		v.Challenge(w, r, http.StatusUnauthorized, err, nil)
	}
}

// bearerToken reads the token of an "Authorization: Bearer <token>"
// header. No header, or a header of another scheme, is no token (""); a
// malformed Bearer header or two Authorization headers are an error.
func bearerToken(h http.Header) (string, *Error) {
	values := h.Values("Authorization")
	switch len(values) {
	case 0:
		return "", nil
	case 1:
	default:
		return "", invalidRequest("more than one Authorization header")
	}
	scheme, rest, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", nil
	}
	token := strings.Trim(rest, " ")
	if !isToken68(token) {
		return "", invalidRequest("the Authorization header is not \"Bearer\" followed by a token")
	}
	return token, nil
}

// isToken68 checks the b64token syntax of RFC 6750 §2.1.
func isToken68(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/') {
			break
		}
	}
	if i == 0 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] != '=' {
			return false
		}
	}
	return true
}

// initialScopes are the scopes the 401 of a request without a token names.
func (v *Verifier) initialScopes() []string {
	if len(v.cfg.InitialScopes) > 0 {
		return v.cfg.InitialScopes
	}
	return v.cfg.ScopesSupported
}
