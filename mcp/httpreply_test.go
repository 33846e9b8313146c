package mcp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// guarded answers tools/call of "guarded" with an error carrying an HTTP
// reply, as a handler refusing a token without a scope does.
type guarded struct{ *fakeHandler }

func (g guarded) CallTool(ctx context.Context, req *Request, p *CallToolParams) (*CallToolResult, error) {
	if p.Name != "guarded" {
		return g.fakeHandler.CallTool(ctx, req, p)
	}
	e := Errorf(CodeForbidden, "the token lacks the scope admin")
	return nil, e.WithHTTPReply(func(h http.Header, r *http.Request) int {
		h.Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin", resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
		return http.StatusForbidden
	})
}

// TestHTTPReply: over HTTP, in both eras, an error with an HTTP reply is
// answered with its status and headers and the JSON-RPC error as the
// body; over stdio the same error is an ordinary JSON-RPC error.
func TestHTTPReply(t *testing.T) {
	h := NewServer(guarded{newFake()}, nil).HTTPHandler(nil)
	for era, c := range map[string]struct {
		header http.Header
		body   string
	}{
		"modern": {mh("tools/call", "guarded"), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"guarded",$META}}`},
		"legacy": {hdr(HeaderProtocolVersion, Version20250618), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"guarded"}}`},
	} {
		rec := doHTTP(t, h, http.MethodPost, c.header, c.body)
		challenge := rec.Header().Get("WWW-Authenticate")
		if rec.Code != http.StatusForbidden || !strings.Contains(challenge, `scope="admin"`) || !strings.Contains(challenge, "http://localhost/.well-known") {
			t.Errorf("%s: %d %q", era, rec.Code, challenge)
		}
		if r := decode(t, rec.Body.Bytes()); r.Error == nil || r.Error.Code != CodeForbidden || string(r.ID) != "7" {
			t.Errorf("%s: body %s", era, rec.Body.String())
		}
	}
	rec := doHTTP(t, h, http.MethodPost, mh("tools/call", "link"), `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"link",$META}}`)
	if rec.Code != http.StatusOK || rec.Header().Get("WWW-Authenticate") != "" {
		t.Errorf("an ordinary call: %d %v", rec.Code, rec.Header())
	}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = NewServer(guarded{newFake()}, nil).ServeStdio(ctx, inR, outW); outW.Close() }()
	go io.WriteString(inW, expand(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"guarded",$META}}`)+"\n")
	line := make(chan string, 1)
	go func() {
		b := make([]byte, 4096)
		n, _ := outR.Read(b)
		line <- string(b[:n])
	}()
	select {
	case got := <-line:
		if r := decode(t, []byte(got)); r.Error == nil || r.Error.Code != CodeForbidden {
			t.Errorf("stdio: %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stdio: no answer")
	}
}
