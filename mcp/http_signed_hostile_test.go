package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// sessionHandler answers the tool "session" with Request.Session.
type sessionHandler struct{ capsHandler }

func (h sessionHandler) CallTool(ctx context.Context, req *Request, p *CallToolParams) (*CallToolResult, error) {
	if p.Name != "session" {
		return h.capsHandler.CallTool(ctx, req, p)
	}
	return &CallToolResult{Content: []ContentBlock{TextContent("session=" + req.Session)}}, nil
}

func newSessionReplica(t *testing.T, keys *Keys, legacy bool) *replica {
	s := NewServer(sessionHandler{capsHandler{newFake()}}, nil)
	h := s.HTTPHandler(&HTTPOptions{SessionKeys: keys, LegacySessions: legacy}).(*httpHandler)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &replica{ts: ts, h: h}
}

const secretInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + l11 +
	`","capabilities":{"elicitation":{"form":{}},"sampling":{}},"clientInfo":{"name":"SecretClientName","version":"9.8.7"}}}`

var sessionField = regexp.MustCompile(`session=([0-9a-f]*)`)

// sessionOf calls the tool "session" under sid and returns Request.Session.
func sessionOf(t *testing.T, r *replica, sid string) string {
	t.Helper()
	body, _ := io.ReadAll(r.post(t, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"session"}}`).Body)
	m := sessionField.FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("no session in %s", body)
	}
	return m[1]
}

// TestHostileSignedSessionIDsAreOpaque: a signed id shows nothing of what
// initialize sent, in clear or in base64, and Request.Session is 128 bits
// that also differ between two identical initializes.
func TestHostileSignedSessionIDsAreOpaque(t *testing.T) {
	r := newSessionReplica(t, nil, false)
	sid := r.post(t, "", secretInit).Header.Get(HeaderSessionID)
	sealed, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sid, signedSessionPrefix))
	if !strings.HasPrefix(sid, signedSessionPrefix) || err != nil {
		t.Fatalf("id %q: %v", sid, err)
	}
	for _, part := range strings.Split(sid, ".") {
		raw, _ := base64.RawURLEncoding.DecodeString(part)
		for _, secret := range []string{"SecretClientName", "9.8.7", "elicitation", "sampling", `"v"`} {
			if strings.Contains(sid, secret) || bytes.Contains(raw, []byte(secret)) {
				t.Errorf("the id %q shows %q", sid, secret)
			}
		}
		if json.Valid(raw) {
			t.Errorf("a part of the id is readable JSON: %s", raw)
		}
	}
	if len(sealed) < 12+16+16 {
		t.Errorf("the sealed part has %d bytes: too short to hold a nonce, 128 random bits and a tag", len(sealed))
	}
	first := sessionOf(t, r, sid)
	if len(first) != 32 {
		t.Errorf("Request.Session %q: want 128 bits in hex", first)
	}
	if again := sessionOf(t, r, sid); again != first {
		t.Errorf("the same id gave sessions %q and %q", first, again)
	}
	sid2 := r.post(t, "", secretInit).Header.Get(HeaderSessionID)
	if sid2 == sid || sessionOf(t, r, sid2) == first {
		t.Errorf("two identical initializes share a session: %q", sid)
	}

	stateful := newSessionReplica(t, nil, true)
	lsid := stateful.post(t, "", secretInit).Header.Get(HeaderSessionID)
	if got := sessionOf(t, stateful, lsid); got != lsid || len(got) != 32 {
		t.Errorf("stateful session %q: Request.Session %q", lsid, got)
	}
	if got := sessionOf(t, r, ""); got != "" {
		t.Errorf("no session id, yet Request.Session %q", got)
	}
}

// TestHostileSignedSessionIDsTampered: any changed byte of a signed id,
// the earlier readable form of id, and an id sealed for another principal
// are unknown sessions (404).
func TestHostileSignedSessionIDsTampered(t *testing.T) {
	keys, _ := NewKeys([][]byte{bytes.Repeat([]byte("k"), MinKeyLen)})
	r := newSessionReplica(t, keys, false)
	sid := r.post(t, "", secretInit).Header.Get(HeaderSessionID)
	if _, ok := r.h.openSignedSession(sid, ""); !ok {
		t.Fatal("the genuine id does not open")
	}
	sealed, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sid, signedSessionPrefix))
	for i := range sealed {
		for _, bit := range []byte{1, 0x80} {
			bad := bytes.Clone(sealed)
			bad[i] ^= bit
			if _, ok := r.h.openSignedSession(signedSessionPrefix+base64.RawURLEncoding.EncodeToString(bad), ""); ok {
				t.Fatalf("flipping bit %#x of byte %d still opens", bit, i)
			}
		}
	}
	if _, ok := r.h.openSignedSession(sid, "issuer\x00mallory"); ok {
		t.Error("an id opened for another principal")
	}
	// The earlier form: base64 JSON claims and an HMAC under the same key.
	payload := base64.RawURLEncoding.EncodeToString([]byte(`{"v":"` + l11 + `","c":{},"t":` + "9999999999" + `}`))
	readable := "s1." + payload + "." + base64.RawURLEncoding.EncodeToString(keys.Sign("mcp-session:", payload))
	for name, bad := range map[string]string{
		"readable form": readable,
		"last byte":     sid[:len(sid)-1] + flip(sid[len(sid)-1]),
		"first byte":    sid[:3] + flip(sid[3]) + sid[4:],
		"truncated":     sid[:len(sid)-10],
		"prefix only":   signedSessionPrefix,
	} {
		if res := r.post(t, bad, `{"jsonrpc":"2.0","id":7,"method":"ping"}`); res.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", name, res.StatusCode)
		}
	}
}

// TestSignedSessionKeyRotation: an id sealed with the old key opens on a
// replica whose ring lists the new key first and still holds the old one,
// keeps its session, and is an unknown session once the old key is gone.
func TestSignedSessionKeyRotation(t *testing.T) {
	oldKey, newKey := bytes.Repeat([]byte("o"), MinKeyLen), bytes.Repeat([]byte("n"), MinKeyLen)
	old, _ := NewKeys([][]byte{oldKey})
	rotated, _ := NewKeys([][]byte{newKey, oldKey})
	a, b := newSessionReplica(t, old, false), newSessionReplica(t, rotated, false)
	sid := a.post(t, "", secretInit).Header.Get(HeaderSessionID)
	if sessionOf(t, b, sid) != sessionOf(t, a, sid) {
		t.Error("the rotated replica sees another session")
	}
	fresh := b.post(t, "", secretInit).Header.Get(HeaderSessionID)
	if res := a.post(t, fresh, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); res.StatusCode != 404 {
		t.Errorf("an id sealed with a key the replica lacks: status %d, want 404", res.StatusCode)
	}
	if err := rotated.Set([][]byte{newKey}); err != nil {
		t.Fatal(err)
	}
	if res := b.post(t, sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); res.StatusCode != 404 {
		t.Errorf("the retired key's id: status %d, want 404", res.StatusCode)
	}
	if res := b.post(t, fresh, `{"jsonrpc":"2.0","id":4,"method":"ping"}`); res.StatusCode != 200 {
		t.Errorf("the new key's id: status %d, want 200", res.StatusCode)
	}
}

// TestHostileSignedSessionAnswerFromAnotherSession: the answer to a
// server→client request counts only from the session it was sent to, even
// when another session posts it with the right request id.
func TestHostileSignedSessionAnswerFromAnotherSession(t *testing.T) {
	r := newSessionReplica(t, nil, false)
	alice := r.post(t, "", secretInit).Header.Get(HeaderSessionID)
	mallory := r.post(t, "", secretInit).Header.Get(HeaderSessionID)
	call := r.post(t, alice, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"elicit"}}`)
	sc := bufio.NewScanner(call.Body)
	var reqID string
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			reqID = string(decode(t, []byte(d)).ID)
			break
		}
	}
	if reqID == "" {
		t.Fatal("no elicitation request")
	}
	r.post(t, mallory, `{"jsonrpc":"2.0","id":`+reqID+`,"result":{"action":"accept","content":{"name":"Mallory"}}}`)
	r.post(t, alice, `{"jsonrpc":"2.0","id":`+reqID+`,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	rest, _ := io.ReadAll(call.Body)
	if !strings.Contains(string(rest), "Ada") || strings.Contains(string(rest), "Mallory") {
		t.Errorf("the call's result after both answers: %s", rest)
	}
}
