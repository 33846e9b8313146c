package auth

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Challenge answers a request that is refused for want of authorization:
// it sets the RFC 6750 §3 header
//
//	WWW-Authenticate: Bearer resource_metadata="…", scope="…", error="…", error_description="…"
//
// (resource_metadata per RFC 9728 §5.1; scope when scopes are given — the
// scopes the request needs, so the client can ask for them; error and
// error_description when err is not nil — a request without any token gets
// neither, as RFC 6750 §3.1 advises), writes status and a small JSON body
// with the same error.
func (v *Verifier) Challenge(w http.ResponseWriter, r *http.Request, status int, err *Error, scopes []string) {
	w.Header().Set("WWW-Authenticate", v.challengeHeader(err, scopes))
	writeErrorBody(w, status, err)
}

func (v *Verifier) challengeHeader(err *Error, scopes []string) string {
	var b strings.Builder
	b.WriteString(`Bearer resource_metadata="`)
	b.WriteString(quotable(v.MetadataURL(nil), true))
	b.WriteByte('"')
	if len(scopes) > 0 {
		b.WriteString(`, scope="`)
		for i, s := range scopes {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(quotable(s, false))
		}
		b.WriteByte('"')
	}
	if err != nil {
		b.WriteString(`, error="`)
		b.WriteString(quotable(err.Code, false))
		b.WriteString(`", error_description="`)
		b.WriteString(quotable(err.Description, true))
		b.WriteByte('"')
	}
	return b.String()
}

// quotable keeps the characters RFC 6750 §3 allows inside the quoted
// values (printable ASCII but '"' and '\'; space only where allowed), and
// replaces the others with '?', so no value can break out of its quotes.
// Where spaces are allowed (descriptions) a double quote becomes an
// apostrophe, so that a quoted name stays readable.
func quotable(s string, spaceOK bool) string {
	if spaceOK {
		s = strings.ReplaceAll(s, `"`, "'")
	}
	ok := func(c byte) bool {
		return c == ' ' && spaceOK || c >= 0x21 && c <= 0x7e && c != '"' && c != '\\'
	}
	clean := true
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	out := []byte(s)
	for i := range out {
		if !ok(out[i]) {
			out[i] = '?'
		}
	}
	return string(out)
}

// writeErrorBody writes status and {"error": …, "error_description": …}.
func writeErrorBody(w http.ResponseWriter, status int, err *Error) {
	body := map[string]string{"error_description": "this resource needs a bearer token (Authorization: Bearer …)"}
	if err != nil {
		body = map[string]string{"error": err.Code, "error_description": err.Description}
	}
	b, _ := json.Marshal(body)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
