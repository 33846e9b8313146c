package mcp

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeMessage(t *testing.T) {
	cases := []struct {
		in     string
		code   int
		kind   string // request, notification, response
		withID bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, "request", true},
		{`{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}`, 0, "request", true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, "notification", false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 0, "response", true},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`, 0, "response", true},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{}}`, CodeInvalidRequest, "", true},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, CodeInvalidRequest, "", true},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, CodeInvalidRequest, "", false},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, CodeInvalidRequest, "", false},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, CodeInvalidRequest, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`, CodeInvalidRequest, "", true},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, CodeInvalidRequest, "", false},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, CodeInvalidRequest, "", false},
		{`{"jsonrpc":`, CodeParseError, "", false},
		{``, CodeParseError, "", false},
		{`"hello"`, CodeInvalidRequest, "", false},
	}
	for _, tc := range cases {
		m, id, e := DecodeMessage([]byte(tc.in))
		switch {
		case tc.code != 0:
			if e == nil || e.Code != tc.code {
				t.Errorf("%s: error %v, want code %d", tc.in, e, tc.code)
			}
			if (id != nil) != tc.withID {
				t.Errorf("%s: id %s, want present=%v", tc.in, id, tc.withID)
			}
		case e != nil:
			t.Errorf("%s: unexpected %v", tc.in, e)
		default:
			kind := map[bool]string{true: "request"}[m.IsRequest()]
			if m.IsNotification() {
				kind = "notification"
			} else if m.IsResponse() {
				kind = "response"
			}
			if kind != tc.kind {
				t.Errorf("%s: kind %q, want %q", tc.in, kind, tc.kind)
			}
		}
	}
}

func TestVersionEraByMembership(t *testing.T) {
	cases := map[string]Era{
		"2026-07-28": EraModern, "2025-11-25": EraLegacy, "2025-06-18": EraLegacy, "2025-03-26": EraLegacy,
		"2024-11-05": EraUnknown, "1900-01-01": EraUnknown, "2099-01-01": EraUnknown, "": EraUnknown, "draft": EraUnknown,
	}
	for v, want := range cases {
		if got := VersionEra(v); got != want {
			t.Errorf("VersionEra(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestNegotiateLegacy(t *testing.T) {
	cases := []struct {
		requested string
		offered   []string
		want      string
		ok        bool
	}{
		{"2025-11-25", nil, "2025-11-25", true},
		{"2025-06-18", nil, "2025-06-18", true},
		{"2025-03-26", nil, "2025-03-26", true},
		{"2026-07-28", nil, "2025-11-25", true}, // never negotiate modern via initialize
		{"2024-11-05", nil, "2025-11-25", true}, // counter-offer the newest legacy
		{"2025-11-25", []string{"2025-03-26", "2025-06-18"}, "2025-06-18", true},
		{"2025-06-18", []string{"2026-07-28"}, "", false},
	}
	for _, tc := range cases {
		got, ok := NegotiateLegacy(tc.requested, tc.offered)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NegotiateLegacy(%q, %v) = %q, %v; want %q, %v", tc.requested, tc.offered, got, ok, tc.want, tc.ok)
		}
	}
}

func TestModernOnlyServerRefusesInitialize(t *testing.T) {
	s := NewServer(newFake(), &Options{Versions: []string{Version20260728}})
	rec := doHTTP(t, s.HTTPHandler(nil), "POST", nil, initBody(l11))
	r := decode(t, rec.Body.Bytes())
	if rec.Code != 400 || r.Error == nil || r.Error.Code != CodeUnsupportedProtocolVersion || !contains(r.Error.Data, "2026-07-28") {
		t.Errorf("got %d %s", rec.Code, rec.Body)
	}
}

func TestDecodeHeaderValue(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"tools/call", "tools/call", true},
		{"=?base64?w6lsw6hu?=", "élèn", true},
		{"=?base64?IGxlYWRpbmc=?=", " leading", true},
		{"=?base64?***?=", "", false},
		{" padded", "", false},
		{"bad\x7f", "", false},
		{"caf\xc3\xa9", "", false},
		{"tab\tinside", "tab\tinside", true},
	}
	for _, tc := range cases {
		got, ok := decodeHeaderValue(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("decodeHeaderValue(%q) = %q, %v", tc.in, got, ok)
		}
	}
}

func TestParamHeaders(t *testing.T) {
	params := map[string]string{"Region": "region", "Count": "count", "Flag": "flag"}
	cases := []struct {
		args string
		hdr  http.Header
		ok   bool
	}{
		{`{}`, nil, true},
		{`{"region":null}`, nil, true},
		{`{"region":"eu","count":42,"flag":true}`, hdr("Mcp-Param-Region", "eu", "Mcp-Param-Count", "0042", "Mcp-Param-Flag", "true"), true},
		{`{"region":"é"}`, hdr("Mcp-Param-Region", "=?base64?w6k=?="), true},
		{`{"region":"eu"}`, nil, false},
		{`{}`, hdr("Mcp-Param-Region", "eu"), false},
		{`{"count":42}`, hdr("Mcp-Param-Count", "43"), false},
		{`{"flag":false}`, hdr("Mcp-Param-Flag", "true"), false},
	}
	for _, tc := range cases {
		h := tc.hdr
		if h == nil {
			h = http.Header{}
		}
		e := checkParamHeaders(h, params, json.RawMessage(tc.args))
		if (e == nil) != tc.ok || e != nil && e.Code != CodeHeaderMismatch {
			t.Errorf("args %s headers %v: %v", tc.args, tc.hdr, e)
		}
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, c := range []cursor{{"tools/list", 1, 1}, {"resources/templates/list", 0, 2}, {"prompts/list", ^uint64(0), 123456}} {
		if got, ok := decodeCursor(encodeCursor(c)); !ok || got != c {
			t.Errorf("cursor %v → %v, %v", c, got, ok)
		}
	}
	for _, bad := range []string{"", "garbage", "bWNwZGVjbC52MTot", "bWNwZGVjbC52MToy", encodeCursor(cursor{"tools/list", 1, 0}),
		"bWNwZGVjbC52MTp4", b64("mcpdecl.v2:tools/list:zz!:3"), b64("mcpdecl.v2:tools/list:3"), b64("mcpdecl.v2::1:3")} {
		if _, ok := decodeCursor(bad); ok {
			t.Errorf("cursor %q accepted", bad)
		}
	}
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// TestCursorBoundToList: a cursor works only for the list it was cut from,
// and only while that list is unchanged; a bare offset would skip or
// repeat items after a reload, silently.
func TestCursorBoundToList(t *testing.T) {
	s, f := newTestServer(&Options{PageSize: 2})
	h := s.HTTPHandler(nil)
	list := func(method, cursor string) resp {
		t.Helper()
		params := `$META`
		if cursor != "" {
			params = `"cursor":` + strconv.Quote(cursor) + `,$META`
		}
		rec := doHTTP(t, h, "POST", mh(method, ""), `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{`+params+`}}`)
		return decode(t, rec.Body.Bytes())
	}
	first := list("tools/list", "")
	var cur string
	if json.Unmarshal(first.Result["nextCursor"], &cur) != nil || cur == "" {
		t.Fatalf("no cursor on a list of %d tools with pages of 2", len(f.tools))
	}
	if r := list("tools/list", cur); r.Error != nil {
		t.Fatalf("own cursor refused: %+v", r.Error)
	}
	for _, other := range []string{"resources/list", "prompts/list", "resources/templates/list"} {
		r := list(other, cur)
		if r.Error == nil || r.Error.Code != CodeInvalidParams || !strings.Contains(r.Error.Message, "tools/list") {
			t.Errorf("%s with a tools/list cursor: %+v", other, r)
		}
	}
	// A reload that removes the first tool: the old cursor is stale.
	f.tools = f.tools[1:]
	r := list("tools/list", cur)
	if r.Error == nil || r.Error.Code != CodeInvalidParams || !strings.Contains(r.Error.Message, "list again from the start") {
		t.Errorf("stale cursor after the list changed: %+v", r)
	}
}

func TestShapeErrorModernCodes(t *testing.T) {
	cases := map[int]int{-32002: -32602, -32042: -32602, -32050: -32603, -32020: -32020, -32021: -32021,
		-32022: -32022, -32601: -32601, 1234: 1234}
	for in, want := range cases {
		e := &Error{Code: in, Message: "x"}
		if got := shapeError(e, EraModern).Code; got != want {
			t.Errorf("modern %d → %d, want %d", in, got, want)
		}
		if got := shapeError(e, EraLegacy).Code; got != in {
			t.Errorf("legacy %d → %d", in, got)
		}
		if e.Code != in {
			t.Errorf("shapeError mutated the handler's error")
		}
	}
}

func TestPaginationWalk(t *testing.T) {
	s, _ := newTestServer(&Options{PageSize: 2})
	h := s.HTTPHandler(nil)
	var uris []string
	cursor := ""
	for range 10 {
		params := `$META`
		if cursor != "" {
			params = `"cursor":` + strconv.Quote(cursor) + `,$META`
		}
		rec := doHTTP(t, h, "POST", mh("resources/list", ""), `{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{`+params+`}}`)
		checkSent(t, m26, "resources/list", rec.Body.Bytes())
		r := decode(t, rec.Body.Bytes())
		var page []Resource
		_ = json.Unmarshal(r.Result["resources"], &page)
		for _, p := range page {
			uris = append(uris, p.URI)
		}
		if r.Result["nextCursor"] == nil {
			break
		}
		_ = json.Unmarshal(r.Result["nextCursor"], &cursor)
	}
	want := []string{"file:///r0.txt", "file:///r1.txt", "file:///r2.txt", "file:///r3.txt", "file:///r4.txt"}
	if d := cmp.Diff(want, uris); d != "" {
		t.Errorf("walk (-want +got):\n%s", d)
	}
}
