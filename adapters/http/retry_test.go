package httpadapter

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
)

func retryConfig(url, extra string) string {
	return fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  %s
  retry {
    attempts = 3
    min_wait = "1ms"
    max_wait = "5ms"
  }
}
http "api" { path = "/get" }
http "api" {
  method = "POST"
  path   = "/post"
  body   = { a = 1 }
}
http "api" {
  method = "PUT"
  path   = "/put"
  body   = { a = 1 }
}`, url, extra)
}

func TestRetryOnStatus(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.URL.Path != "/get" || n%3 != 0 {
			w.WriteHeader(503)
			io.WriteString(w, "busy")
			return
		}
		io.WriteString(w, "ok")
	})
	c := compileEnv(t, retryConfig(srv.URL, ""), nil)

	// GET: 503, 503, 200.
	res, err := c.invoke(0, args(nil), nil)
	if err != nil || res.Fields["status"] != 200 {
		t.Fatalf("GET: %v %+v", err, res)
	}
	// POST is never retried: one 503.
	res, err = c.invoke(1, args(nil), nil)
	if err != nil || res.Fields["status"] != 503 || res.Failure != "The API answered 503 Service Unavailable: busy" {
		t.Fatalf("POST: %v %+v", err, res)
	}
	// PUT is idempotent: three attempts, the last answer kept.
	res, err = c.invoke(2, args(nil), nil)
	if err != nil || res.Fields["status"] != 503 {
		t.Fatalf("PUT: %v %+v", err, res)
	}
	want := []string{"GET /get", "GET /get", "GET /get", "POST /post", "PUT /put", "PUT /put", "PUT /put"}
	if diff := cmp.Diff(want, srv.uris()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	for _, r := range srv.requests()[3:] {
		if r.Body != `{"a":1}` {
			t.Errorf("%s body = %q", r.Method, r.Body)
		}
	}
}

func TestRetryMethodsAndStatuses(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(500)
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  retry {
    attempts  = 2
    min_wait  = "1ms"
    on_status = [500]
    methods   = ["POST"]
  }
}
http "api" { path = "/get" }
http "api" {
  method = "POST"
  path   = "/post"
}`, srv.URL), nil)
	for i := range 2 {
		if _, err := c.invoke(i, args(nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"GET /get", "POST /post", "POST /post"}, srv.uris()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestRetryOnClosedConnection(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		io.WriteString(w, "ok")
	})
	c := compileEnv(t, retryConfig(srv.URL, ""), nil)
	res, err := c.invoke(0, args(nil), nil)
	if err != nil || res.Text != "ok" {
		t.Fatalf("GET: %v %+v", err, res)
	}
	if n := srv.count(); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}

	// A POST whose connection closed is not sent again.
	srv2 := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	c2 := compileEnv(t, retryConfig(srv2.URL, ""), nil)
	_, err = c2.invoke(1, args(nil), nil)
	var ce *adapter.CallError
	if !errors.As(err, &ce) || !ce.Retryable || !strings.Contains(ce.Message, "closed the connection before it answered") {
		t.Fatalf("POST: %#v", err)
	}
	if n := srv2.count(); n != 1 {
		t.Errorf("POST requests = %d, want 1", n)
	}
}

func TestRetryOnRefusedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := compileEnv(t, retryConfig("http://"+addr, ""), nil)
	var logs []string
	_, err = c.actions[0].Invoke(t.Context(), &adapter.Request{
		Args: args(nil), Static: c.static,
		Progress: func(float64, float64, string) {},
		Log:      func(level string, data any) { logs = append(logs, level+": "+fmt.Sprint(data)) },
	})
	var ce *adapter.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("error = %#v", err)
	}
	want := "The API refused the connection; it may be down. Retrying later may help."
	if ce.Message != want || !ce.Retryable {
		t.Errorf("message = %q retryable %v", ce.Message, ce.Retryable)
	}
	if len(logs) != 2 || !strings.HasPrefix(logs[0], "info: GET /get failed; retrying in ") || !strings.HasSuffix(logs[1], "(attempt 3 of 3)") {
		t.Errorf("logs = %q", logs)
	}
}

func TestRetryAfter(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		io.WriteString(w, "ok")
	})
	c := compileEnv(t, retryConfig(srv.URL, `timeout = "5s"`), nil)
	start := time.Now()
	res, err := c.invoke(0, args(nil), nil)
	if err != nil || res.Text != "ok" {
		t.Fatalf("%v %+v", err, res)
	}
	if d := time.Since(start); d < time.Second || d > 3*time.Second {
		t.Errorf("took %s; Retry-After: 1 asks for one second", d)
	}

	// A Retry-After beyond the deadline ends the call at once with the
	// answer it has.
	srv2 := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(503)
	})
	c2 := compileEnv(t, retryConfig(srv2.URL, `timeout = "2s"`), nil)
	start = time.Now()
	res, err = c2.invoke(0, args(nil), nil)
	if err != nil || res.Failure != "The API answered 503 Service Unavailable. (It asked to retry after 60.)" {
		t.Fatalf("%v %+v", err, res)
	}
	if d := time.Since(start); d > time.Second || srv2.count() != 1 {
		t.Errorf("took %s and %d requests; want an immediate answer", d, srv2.count())
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"", 0, false},
		{"Tue, 01 Dec 2026 10:00:30 GMT", 30 * time.Second, true},
		{"Tue, 01 Dec 2026 09:00:00 GMT", 0, true},
	}
	for _, tt := range tests {
		got, ok := retryAfter(http.Header{"Retry-After": {tt.value}}, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %s, %v; want %s, %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	r := &Retry{MinWait: 100 * time.Millisecond, MaxWait: 300 * time.Millisecond}
	for attempt := 1; attempt <= 5; attempt++ {
		for range 50 {
			d := backoff(r, attempt)
			hi := min(r.MaxWait, r.MinWait<<(attempt-1))
			if d < r.MinWait || d > hi {
				t.Fatalf("attempt %d: wait %s outside [%s, %s]", attempt, d, r.MinWait, hi)
			}
		}
	}
}

func TestTotalDeadline(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		time.Sleep(150 * time.Millisecond)
		w.WriteHeader(503)
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  timeout  = "400ms"
  retry {
    attempts = 10
    min_wait = "10ms"
    max_wait = "20ms"
  }
}
http "api" { path = "/slow" }`, srv.URL), nil)
	res, err := c.invoke(0, args(nil), nil)
	// The attempts prove the one deadline (time itself is not asserted: a
	// loaded machine stretches it): without it the call would make all 10
	// attempts of 150ms each; within 400ms there is room for at most 3.
	if n := srv.count(); n < 1 || n > 3 {
		t.Errorf("attempts = %d, want at most 3 within 400ms", n)
	}
	var ce *adapter.CallError
	switch {
	case err == nil && res.Fields["status"] == 503:
	case errors.As(err, &ce) && strings.Contains(ce.Message, "gave no answer within 400ms"):
	default:
		t.Errorf("result %+v, error %v", res, err)
	}
}

func TestTimeoutMessage(t *testing.T) {
	block := make(chan struct{})
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	defer close(block)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s" }
http "api" {
  path    = "/slow"
  timeout = "100ms"
}`, srv.URL), nil)
	start := time.Now()
	_, err := c.invoke(0, args(nil), nil)
	var ce *adapter.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("error = %#v", err)
	}
	want := "The API gave no answer within 100ms. It may be overloaded or down; retrying later may help."
	if ce.Message != want || !ce.Retryable {
		t.Errorf("message = %q", ce.Message)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s", d)
	}
}

func TestRedirects(t *testing.T) {
	other := newRecorder(t, nil)
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/here", http.StatusFound)
		case "/here":
			io.WriteString(w, "here")
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusTemporaryRedirect)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  auth { bearer = "tok" }
}
http "api" { path = "/${args.dir}" }`, srv.URL), nil)
	res, err := c.invoke(0, args(map[string]ctyValue{"dir": str("moved")}), nil)
	if err != nil || res.Text != "here" {
		t.Fatalf("same-host redirect: %v %+v", err, res)
	}
	_, err = c.invoke(0, args(map[string]ctyValue{"dir": str("away")}), nil)
	var ce *adapter.CallError
	if !errors.As(err, &ce) || ce.Retryable || !strings.Contains(ce.Message, "redirected to another host, which") || strings.Contains(ce.Message, strings.TrimPrefix(other.URL, "http://")) {
		t.Errorf("redirect away: %#v", err)
	}
	if other.count() != 0 {
		t.Errorf("the other host was called")
	}
	before := srv.count()
	_, err = c.invoke(0, args(map[string]ctyValue{"dir": str("loop")}), nil)
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, "redirected more than 10 times") {
		t.Errorf("redirect loop: %#v", err)
	}
	if n := srv.count() - before; n != 11 {
		t.Errorf("loop requests = %d, want 11", n)
	}
}

func TestBodyLimit(t *testing.T) {
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		body := strings.Repeat("x", 1000)
		switch r.URL.Path {
		case "/exact":
			body = body[:100]
		case "/chunked":
			w.(http.Flusher).Flush() // no Content-Length
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, body)
	})
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url           = "%s"
  max_response_bytes = 100
}
http "api" { path = "/${args.dir}" }`, srv.URL), nil)
	for _, dir := range []string{"sized", "chunked"} {
		_, err := c.invoke(0, args(map[string]ctyValue{"dir": str(dir)}), nil)
		var ce *adapter.CallError
		if !errors.As(err, &ce) || ce.Retryable || !strings.Contains(ce.Message, "was larger than 100 bytes") {
			t.Errorf("%s: %#v", dir, err)
		}
	}
	res, err := c.invoke(0, args(map[string]ctyValue{"dir": str("exact")}), nil)
	if err != nil || len(res.Text) != 100 {
		t.Errorf("exactly at the limit: %v", err)
	}
}
