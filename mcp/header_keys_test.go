package mcp

import (
	"net/http"
	"net/textproto"
	"testing"
)

// TestHeaderKeysAreCanonical: the headers read per request are looked up
// by the spelling net/http stores them under (first, or the map itself),
// which finds nothing unless that spelling is canonical.
func TestHeaderKeysAreCanonical(t *testing.T) {
	for _, key := range []string{protocolVersionKey, HeaderMethod, HeaderName, HeaderSessionID, "Origin", "Content-Type", "Accept"} {
		if want := textproto.CanonicalMIMEHeaderKey(key); key != want {
			t.Errorf("header key %q is looked up directly; net/http stores it as %q", key, want)
		}
	}
	if want := textproto.CanonicalMIMEHeaderKey(HeaderProtocolVersion); protocolVersionKey != want {
		t.Errorf("protocolVersionKey = %q, net/http stores %s as %q", protocolVersionKey, HeaderProtocolVersion, want)
	}
	h := http.Header{}
	h.Set(HeaderProtocolVersion, Version20260728)
	if got := first(h, protocolVersionKey); got != Version20260728 {
		t.Errorf("first(version header) = %q, want %q", got, Version20260728)
	}
	if got := first(h, HeaderSessionID); got != "" {
		t.Errorf("first(an absent header) = %q, want none", got)
	}
	if got := testing.AllocsPerRun(100, func() { _ = first(h, protocolVersionKey) }); got != 0 {
		t.Errorf("looking the version header up allocates %v times; it must not", got)
	}
}

// TestSplitHost covers each form a Host header or an allowed host takes;
// the forms without a port skip net.SplitHostPort and its error value.
func TestSplitHost(t *testing.T) {
	for in, want := range map[string][2]string{
		"example.com":      {"example.com", ""},
		"example.com:8080": {"example.com", "8080"},
		"127.0.0.1":        {"127.0.0.1", ""},
		"[::1]":            {"::1", ""},
		"[::1]:443":        {"::1", "443"},
		"":                 {"", ""},
	} {
		if name, port := splitHost(in); name != want[0] || port != want[1] {
			t.Errorf("splitHost(%q) = %q, %q; want %q, %q", in, name, port, want[0], want[1])
		}
	}
	if got := testing.AllocsPerRun(100, func() { splitHost("127.0.0.1") }); got != 0 {
		t.Errorf("splitHost of a host without a port allocates %v times; it must not", got)
	}
}
