package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzDecodeMessage feeds arbitrary bodies through the codec, the era
// classifier and the router (via the HTTP handler, with and without modern
// headers). It must never panic, and every answer must be a JSON-RPC error or
// result (or 202 with no body).
func FuzzDecodeMessage(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$META}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$META}}`,
		initBody(l11),
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"bWNwZGVjbC52Mjp0b29scy9saXN0OjJydTB3cGJkMm5nMG06Mg"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":1,"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt"},"argument":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a.txt","_meta":{"progressToken":{}}}}`,
		`null`, `[]`, `"x"`, `{}`,
	}
	for _, s := range seeds {
		f.Add(expand(s), true)
		f.Add(expand(s), false)
	}
	fake := newFake()
	fake.noSlow = true
	h := NewServer(fake, &Options{PageSize: 2}).HTTPHandler(nil)
	f.Fuzz(func(t *testing.T, body string, modernHeaders bool) {
		m, _, _ := DecodeMessage([]byte(body)) // must not panic on its own
		_ = m
		// A listen stream cannot open here (no Accept: text/event-stream),
		// but bound every request anyway so a regression cannot hang the
		// fuzzer.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		req := httptest.NewRequestWithContext(ctx, "POST", "/", strings.NewReader(body))
		if modernHeaders {
			req.Header = mh("tools/call", "echo")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusAccepted {
			if rec.Body.Len() != 0 {
				t.Fatalf("202 with body %q", rec.Body)
			}
			return
		}
		for _, msg := range messages(t, rec.Header().Get("Content-Type"), rec.Body.Bytes()) {
			checkAnswer(t, msg)
		}
	})
}

func checkAnswer(t *testing.T, msg []byte) {
	if IsBatch(msg) {
		var elems []json.RawMessage
		if err := json.Unmarshal(msg, &elems); err != nil {
			t.Fatalf("invalid batch answer %s", msg)
		}
		for _, e := range elems {
			checkAnswer(t, e)
		}
		return
	}
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   *Error          `json:"error"`
	}
	if err := json.Unmarshal(msg, &r); err != nil || r.JSONRPC != "2.0" {
		t.Fatalf("answer is not JSON-RPC: %s", msg)
	}
	if r.Method == "" && (r.Result == nil) == (r.Error == nil) {
		t.Fatalf("answer has neither or both of result and error: %s", msg)
	}
}
