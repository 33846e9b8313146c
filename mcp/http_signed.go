package mcp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Without LegacySessions a 2025 client still gets a session id, but one
// the server keeps nothing for: the id carries, signed, what initialize
// negotiated (the revision and the client's capabilities). Any replica
// holding the same keys can read it, so such clients need no affinity for
// ordinary requests, and the server knows which requests (sampling,
// elicitation, roots) the client declared it can answer on a POST's own
// SSE stream. What a session would have to remember after initialize
// (logging/setLevel, subscriptions, a GET stream) needs LegacySessions.

// SignedSessionTTL is how long a signed session id is accepted; after it
// the id gets 404 and the client initializes again.
const SignedSessionTTL = 24 * time.Hour

// signedSessionLogLevel is the log threshold of a signed session: the
// client's logging/setLevel cannot be remembered without state, and the
// 2025 revisions let a server choose what to send until it is.
const signedSessionLogLevel = "info"

// maxSignedCapability bounds each capability carried in a signed id, so
// that the Mcp-Session-Id header stays small whatever a client declares.
const maxSignedCapability = 256

const signedSessionPrefix = "s1."

// signedClaims is what a signed session id vouches for.
type signedClaims struct {
	Version string             `json:"v"`
	Caps    ClientCapabilities `json:"c"`
	Name    string             `json:"n,omitempty"`
	ClientV string             `json:"cv,omitempty"`
	Issued  int64              `json:"t"`
	// Owner is a digest of the principal that initialized the session, so
	// the id names nobody to whoever reads it.
	Owner string `json:"o,omitempty"`
}

// ownerDigest keeps a principal out of the id while binding the id to it.
func ownerDigest(principal string) string {
	if principal == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(principal))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// newSignedSession is the session of one request under a signed id: its
// server→client requests wait in the handler's shared table.
func (h *httpHandler) newSignedSession() *session {
	sess := newSession("")
	sess.signed = true
	sess.pending = h.signedCalls
	sess.logLevel = signedSessionLogLevel
	return sess
}

// sealSession returns the signed id of a session initialize just set up.
func (h *httpHandler) sealSession(sess *session) string {
	caps, _, info := sess.clientState()
	c := signedClaims{Version: sess.negotiated(), Caps: trimCapabilities(caps), Issued: h.now().Unix(), Owner: ownerDigest(sess.owner)}
	if info != nil {
		c.Name, c.ClientV = clip(info.Name, 64), clip(info.Version, 32)
	}
	b, _ := json.Marshal(c)
	payload := base64.RawURLEncoding.EncodeToString(b)
	mac := h.opts.SessionKeys.Sign("mcp-session:", payload)
	return signedSessionPrefix + payload + "." + base64.RawURLEncoding.EncodeToString(mac)
}

// openSignedSession checks a signed id; false means a forged, malformed or
// expired one, or one another principal initialized, which the client
// must see as an unknown session (404).
func (h *httpHandler) openSignedSession(sid, owner string) (*session, bool) {
	rest, ok := strings.CutPrefix(sid, signedSessionPrefix)
	payload, mac, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || len(sid) > 4096 {
		return nil, false
	}
	sum, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || !h.opts.SessionKeys.Verify(sum, "mcp-session:", payload) {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var c signedClaims
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return nil, false
	}
	if h.now().Sub(time.Unix(c.Issued, 0)) > SignedSessionTTL || c.Owner != ownerDigest(owner) {
		return nil, false
	}
	sess := h.newSignedSession()
	sess.owner = owner
	var info *Implementation
	if c.Name != "" {
		info = &Implementation{Name: c.Name, Version: c.ClientV}
	}
	sess.initialize(c.Version, c.Caps, info)
	return sess, true
}

// trimCapabilities keeps the capabilities the server acts on, each
// replaced by {} when it is larger than maxSignedCapability.
func trimCapabilities(c ClientCapabilities) ClientCapabilities {
	keep := func(raw json.RawMessage) json.RawMessage {
		if raw == nil || len(raw) <= maxSignedCapability {
			return raw
		}
		return json.RawMessage("{}")
	}
	return ClientCapabilities{Roots: keep(c.Roots), Sampling: keep(c.Sampling), Elicitation: keep(c.Elicitation), Tasks: keep(c.Tasks)}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// principal is whom r speaks for, by HTTPOptions.Principal.
func (h *httpHandler) principal(r *http.Request) string {
	if h.opts.Principal == nil {
		return ""
	}
	return h.opts.Principal(r)
}
