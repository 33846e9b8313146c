package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// modernMeta is the _meta every well-formed modern request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// expand replaces $META in test bodies with modernMeta.
func expand(body string) string { return strings.ReplaceAll(body, "$META", modernMeta) }

// hdr builds a header from name/value pairs.
func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// mh is the header set of a well-formed modern POST.
func mh(method, name string) http.Header {
	h := hdr(HeaderProtocolVersion, Version20260728, HeaderMethod, method)
	if name != "" {
		h.Set(HeaderName, name)
	}
	return h
}

// doHTTP serves one request in process and returns the recorder.
func doHTTP(t testing.TB, h http.Handler, method string, header http.Header, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, "http://localhost/mcp", strings.NewReader(expand(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// messages splits a response body into JSON-RPC messages: one JSON body, or
// the data lines of an SSE stream.
func messages(t testing.TB, contentType string, body []byte) [][]byte {
	t.Helper()
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if !strings.HasPrefix(contentType, "text/event-stream") {
		return [][]byte{body}
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "id:") {
			t.Errorf("SSE event carries an id (streams are not resumable): %q", line)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, []byte(d))
		}
	}
	return out
}

// resp is a decoded response message.
type resp struct {
	ID     json.RawMessage            `json:"id"`
	Method string                     `json:"method"`
	Params map[string]json.RawMessage `json:"params"`
	Result map[string]json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decode(t testing.TB, b []byte) resp {
	t.Helper()
	var r resp
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return r
}

func newTestServer(opts *Options) (*Server, *fakeHandler) {
	f := newFake()
	return NewServer(f, opts), f
}

func stringContains(s, sub string) bool { return strings.Contains(s, sub) }
