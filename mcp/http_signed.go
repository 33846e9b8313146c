package mcp

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Without LegacySessions a 2025 client still gets a session id, but one
// the server keeps nothing for: the id carries, sealed (encrypted and
// authenticated with the session keys), what initialize negotiated (the
// revision and the client's capabilities) and 128 random bits that make
// the session unlike any other, even one initialized the same way in the
// same second; owner checks (tasks) use those bits. Any replica
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

// signedSessionPrefix marks a sealed id; ids of the earlier readable form
// ("s1.") are refused like unknown ones, so their clients initialize again.
const signedSessionPrefix = "s2."

// sessionPurpose separates the key that seals session ids from the others
// derived from the same state keys.
const sessionPurpose = "session-id"

// signedClaims is what a signed session id vouches for. The principal is
// not in it: it is the associated data of the seal, so an id opens only
// for the principal that initialized it.
type signedClaims struct {
	// Random is the session's own 128 bits (Request.Session in hex).
	Random  []byte             `json:"r"`
	Version string             `json:"v"`
	Caps    ClientCapabilities `json:"c"`
	Name    string             `json:"n,omitempty"`
	ClientV string             `json:"cv,omitempty"`
	Issued  int64              `json:"t"`
}

// newSignedSession is the session of one request under a signed id: its
// server→client requests wait in the handler's shared table. Its key is
// fresh; openSignedSession replaces it with the one the id carries.
func (h *httpHandler) newSignedSession() *session {
	sess := newSession("")
	sess.key = newSessionID()
	sess.signed = true
	sess.pending = h.signedCalls
	sess.logLevel = signedSessionLogLevel
	return sess
}

// sealSession returns the signed id of a session initialize just set up.
func (h *httpHandler) sealSession(sess *session) string {
	caps, _, info := sess.clientState()
	random, _ := hex.DecodeString(sess.key)
	c := signedClaims{Random: random, Version: sess.negotiated(), Caps: trimCapabilities(caps), Issued: h.now().Unix()}
	if info != nil {
		c.Name, c.ClientV = clip(info.Name, 64), clip(info.Version, 32)
	}
	b, _ := json.Marshal(c)
	sealed := h.opts.SessionKeys.Seal(sessionPurpose, b, []byte(sess.owner))
	return signedSessionPrefix + base64.RawURLEncoding.EncodeToString(sealed)
}

// openSignedSession checks a signed id; false means a forged, malformed or
// expired one, or one another principal initialized, which the client
// must see as an unknown session (404).
func (h *httpHandler) openSignedSession(sid, owner string) (*session, bool) {
	rest, ok := strings.CutPrefix(sid, signedSessionPrefix)
	if !ok || len(sid) > 4096 {
		return nil, false
	}
	sealed, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return nil, false
	}
	raw, err := h.opts.SessionKeys.Open(sessionPurpose, sealed, []byte(owner))
	var c signedClaims
	if err != nil || json.Unmarshal(raw, &c) != nil || len(c.Random) != 16 {
		return nil, false
	}
	if h.now().Sub(time.Unix(c.Issued, 0)) > SignedSessionTTL {
		return nil, false
	}
	sess := h.newSignedSession()
	sess.owner, sess.key = owner, hex.EncodeToString(c.Random)
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
