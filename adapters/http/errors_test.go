package httpadapter

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

func TestDescribeTransportError(t *testing.T) {
	wrap := func(err error) error {
		return &url.Error{Op: "Get", URL: "https://api.example.com/x?api_key=k", Err: err}
	}
	opErr := func(err error) error {
		addr := &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 8443}
		return &net.OpError{Op: "dial", Net: "tcp", Addr: addr, Err: os.NewSyscallError("connect", err)}
	}
	tests := []struct {
		err       error
		want      string
		retryable bool
	}{
		{wrap(&net.DNSError{Err: "no such host", Name: "api.example.com", IsNotFound: true}),
			"The host name of the API could not be found (DNS: no such host). Check the backend's base_url; retrying will not help.", false},
		{wrap(&net.DNSError{Err: "server misbehaving", Name: "api.example.com", Server: "10.0.0.53:53", IsTemporary: true}),
			"The DNS lookup of the API's host failed (server misbehaving). Retrying later may help.", true},
		{wrap(opErr(syscall.ECONNREFUSED)),
			"The API refused the connection; it may be down. Retrying later may help.", true},
		{wrap(opErr(syscall.ECONNRESET)),
			"The API closed the connection before it answered in full. Retrying may help.", true},
		{wrap(io.EOF),
			"The API closed the connection before it answered in full. Retrying may help.", true},
		{wrap(opErr(syscall.EHOSTUNREACH)),
			"The API cannot be reached (no route to the host). Retrying later may help.", true},
		{wrap(context.DeadlineExceeded),
			"The API gave no answer within 1.5s. It may be overloaded or down; retrying later may help.", true},
		{wrap(context.Canceled), "The call was cancelled before the API answered.", false},
		{wrap(errors.New("something odd")), "The call to the API failed: something odd.", false},
		{wrap(opErr(syscall.EACCES)), "The call to the API failed: connect: permission denied.", true},
		{wrap(fmt.Errorf("proxyconnect tcp: %w", opErr(syscall.EPROTO))), "The call to the API failed: proxyconnect tcp: connect: protocol error.", true},
		{wrap(errors.New("odd answer from api.example.com:8443 via 10.9.8.7:3128 and [fd00::1]:80")), "The call to the API failed: odd answer from (the host) via (an address) and (an address).", false},
		{wrap(&redirectError{host: "internal.example.com:8080"}),
			"The API redirected to another host, which mcpdecl does not follow: redirects must stay on the backend's own scheme and host. Retrying will not help.", false},
	}
	for _, tt := range tests {
		ce := describeTransportError(tt.err, "The API", "api.example.com:8443", 1500*time.Millisecond)
		if ce.Message != tt.want || ce.Retryable != tt.retryable {
			t.Errorf("%v:\n got %q (retryable %v)\nwant %q (retryable %v)", tt.err, ce.Message, ce.Retryable, tt.want, tt.retryable)
		}
		if !errors.Is(ce, tt.err) {
			t.Errorf("%v: the CallError does not wrap the error", tt.err)
		}
		// The server log gets the host, never the URL (its query may hold
		// a key).
		if log := ce.Err.Error(); !strings.Contains(log, "api.example.com:8443") || strings.Contains(log, "api_key") {
			t.Errorf("%v: the error for the log is %q", tt.err, log)
		}
	}
}

func TestPostFailureWarnsOfDuplicates(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" {
  method = "POST"
  path   = "/orders"
  body   = { n = 1 }
}`, srv.URL), nil)
	_, err := c.invoke(0, args(nil), nil)
	var ce *adapter.CallError
	if !errors.As(err, &ce) || !strings.HasSuffix(ce.Message, "The API may have received the POST request before the failure; check before sending it again.") {
		t.Errorf("error = %v", err)
	}
}

func TestCallerDeadlineShorterThanTimeout(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		<-r.Context().Done()
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" { path = "/slow" }`, srv.URL), nil)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := c.invokeCtx(ctx, 0, args(nil), nil)
	var ce *adapter.CallError
	// The deadline left when the call starts: 200ms, or a little less on a
	// loaded machine.
	if !errors.As(err, &ce) || !regexp.MustCompile(`gave no answer within 1\d\dms|gave no answer within 200ms`).MatchString(ce.Message) {
		t.Errorf("error = %v", err)
	}

	// A caller that goes away cancels the call.
	ctx, cancel = context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.invokeCtx(ctx, 0, args(nil), nil)
	if !errors.As(err, &ce) || ce.Message != "The call was cancelled before the API answered." {
		t.Errorf("error = %v", err)
	}
}

func TestGzipAnswer(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, `{"zipped": true, "pad": "`+strings.Repeat("z", 500)+`"}`)
		zw.Close()
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "a" {
  base_url = "%[1]s"
  headers  = { Accept-Encoding = "gzip" }
}
backend "http" "b" {
  base_url           = "%[1]s"
  headers            = { Accept-Encoding = "gzip" }
  max_response_bytes = 200
}
http "a" { path = "/z" }
http "b" { path = "/z" }`, srv.URL), nil)
	res, err := c.invoke(0, args(nil), nil)
	if err != nil || res.Structured["zipped"] != true {
		t.Fatalf("%v %+v", err, res)
	}
	// The limit applies to the decompressed answer.
	_, err = c.invoke(1, args(nil), nil)
	var ce *adapter.CallError
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, "larger than 200 bytes") {
		t.Errorf("error = %v", err)
	}
}

func TestProxyFromEnvironment(t *testing.T) {
	c := compileEnv(t, `
backend "http" "api" { base_url = "http://api.example.com" }`, nil)
	rt, err := c.backends["api"].runtime()
	if err != nil {
		t.Fatal(err)
	}
	if rt.transport.Proxy == nil {
		t.Fatal("no proxy function")
	}
	// http.ProxyFromEnvironment reads the environment once per process,
	// so check the function is that one by its behaviour on a loopback URL
	// (never proxied).
	u, _ := url.Parse("http://127.0.0.1/x")
	if p, err := rt.transport.Proxy(&http.Request{URL: u}); p != nil || err != nil {
		t.Errorf("proxy for loopback = %v, %v", p, err)
	}
}

func TestCloseThenInvoke(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" { path = "/x" }`, srv.URL), nil)
	if _, err := c.invoke(0, args(map[string]cty.Value{}), nil); err != nil {
		t.Fatal(err)
	}
	c.backends["api"].Close()
	c.backends["api"].Close()
	if _, err := c.invoke(0, args(nil), nil); err != nil {
		// Close after a call keeps the client: only idle connections go.
		t.Fatal(err)
	}
	c2 := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" { path = "/x" }`, srv.URL), nil)
	c2.backends["api"].Close()
	if _, err := c2.invoke(0, args(nil), nil); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Invoke after Close = %v", err)
	}
}

func TestSameOrigin(t *testing.T) {
	base, _ := url.Parse("https://API.example.com/v1")
	tests := map[string]bool{
		"https://api.example.com/x":      true,
		"https://api.example.com:443/x":  true,
		"http://api.example.com/x":       false,
		"https://api.example.com:8443/x": false,
		"https://evil.example/x":         false,
		"https://api.example.com.evil/x": false,
	}
	for raw, want := range tests {
		u, _ := url.Parse(raw)
		if got := sameOrigin(u, base); got != want {
			t.Errorf("sameOrigin(%s) = %v", raw, got)
		}
	}
}
