package mcp

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// HTTP header names of the MCP Streamable HTTP transport.
const (
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderParamPrefix     = "Mcp-Param-"
)

// protocolVersionKey is HeaderProtocolVersion as net/http stores it. The
// spelling the specification uses is not canonical, and a lookup with it
// allocates its canonical copy on every request; this one does not.
const protocolVersionKey = "Mcp-Protocol-Version"

// first is h.Get(key) for a key spelled as net/http stores it (each key
// this package looks up per request is; TestHeaderKeysAreCanonical), and
// h[key] is h.Values(key): both skip the check of the key's spelling that
// Get and Values make on every call.
func first(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// decodeHeaderValue validates a header value and decodes the base64 sentinel
// form `=?base64?…?=` that clients use for non-ASCII values, control
// characters, surrounding spaces and sentinel look-alikes. ok is false
// for invalid characters or bad base64, which the ladder reports as -32020.
func decodeHeaderValue(v string) (string, bool) {
	if strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?=") && len(v) >= len("=?base64??=") {
		b, err := base64.StdEncoding.DecodeString(v[len("=?base64?") : len(v)-2])
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 && c != '\t' || c >= 0x7f {
			return "", false
		}
	}
	if v != strings.TrimSpace(v) {
		return "", false
	}
	return v, true
}

// nameRequired lists the methods whose Mcp-Name header is mandatory.
var nameRequired = map[string]bool{"tools/call": true, "resources/read": true, "prompts/get": true,
	"tasks/get": true, "tasks/update": true, "tasks/cancel": true}

// checkMethodHeaders is ladder step 9: Mcp-Method must be present and equal to
// the body's method; Mcp-Name must carry params.name or params.uri where
// required.
func checkMethodHeaders(h http.Header, method string, p *params) *Error {
	mv := h[HeaderMethod]
	if len(mv) == 0 {
		return ladderErr(CodeHeaderMismatch, "header %s is required", HeaderMethod)
	}
	m, ok := decodeHeaderValue(mv[0])
	if !ok || len(mv) > 1 {
		return ladderErr(CodeHeaderMismatch, "header %s is malformed", HeaderMethod)
	}
	if m != method {
		return ladderErr(CodeHeaderMismatch, "header %s %q does not match body method %q", HeaderMethod, m, method)
	}
	if !nameRequired[method] {
		return nil
	}
	want := p.Name
	switch method {
	case "resources/read":
		want = p.URI
	case "tasks/get", "tasks/update", "tasks/cancel":
		want = p.TaskID
	}
	nv := h[HeaderName]
	if len(nv) == 0 {
		return ladderErr(CodeHeaderMismatch, "header %s is required for %s", HeaderName, method)
	}
	n, ok := decodeHeaderValue(nv[0])
	if !ok || len(nv) > 1 {
		return ladderErr(CodeHeaderMismatch, "header %s is malformed", HeaderName)
	}
	if n != want {
		return ladderErr(CodeHeaderMismatch, "header %s %q does not match body %q", HeaderName, n, want)
	}
	return nil
}

// checkParamHeaders is ladder step 12: every argument annotated x-mcp-header
// that is present and non-null must be mirrored by its Mcp-Param-{Name}
// header with an equal value; a header without the argument is rejected too.
// params maps header name → argument name.
func checkParamHeaders(h http.Header, params map[string]string, args json.RawMessage) *Error {
	if len(params) == 0 {
		return nil
	}
	for hname, arg := range params {
		full := HeaderParamPrefix + hname
		raw, present := objectMember(args, arg)
		present = present && string(raw) != "null"
		hv := h.Values(full)
		switch {
		case !present && len(hv) == 0:
			continue
		case !present:
			return ladderErr(CodeHeaderMismatch, "header %s sent without argument %q", full, arg)
		case len(hv) == 0:
			return ladderErr(CodeHeaderMismatch, "header %s is required when argument %q is present", full, arg)
		case len(hv) > 1:
			return ladderErr(CodeHeaderMismatch, "header %s is repeated", full)
		}
		v, ok := decodeHeaderValue(hv[0])
		if !ok || !headerMatchesArg(v, json.RawMessage(raw)) {
			return ladderErr(CodeHeaderMismatch, "header %s does not match argument %q", full, arg)
		}
	}
	return nil
}

// headerMatchesArg compares a decoded header value with a JSON argument:
// strings exactly, integers numerically, booleans as true/false.
func headerMatchesArg(v string, raw json.RawMessage) bool {
	switch firstByte(raw) {
	case '"':
		s := jsonString(raw) // "" also for an undecodable string
		return s == v && (s != "" || string(raw) == `""`)
	case 't', 'f':
		return string(raw) == v
	}
	a, err1 := strconv.ParseInt(v, 10, 64)
	b, err2 := strconv.ParseInt(string(raw), 10, 64)
	return err1 == nil && err2 == nil && a == b
}
