package testrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpdecl/mcpdecl/internal/regularfile"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// A recording holds the HTTP exchanges of one test, by backend, as
// written to its fixture file. Nothing secret is kept: see scrubber.
type recording struct {
	Test     string                 `json:"test"`
	Backends map[string][]*exchange `json:"backends"`
}

type exchange struct {
	Request  recordedRequest  `json:"request"`
	Response recordedResponse `json:"response"`
	used     bool
}

type recordedRequest struct {
	Method string `json:"method"`
	// URL is the path after the backend's base path, with the query.
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
}

type recordedResponse struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body"`
}

func readRecording(path string) (*recording, error) {
	b, err := regularfile.Read(path)
	if err != nil {
		return nil, err
	}
	var r recording
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

func (r *recording) write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// scrubber removes secrets from what is recorded: the values of headers
// that carry credentials, of query parameters named like keys or tokens,
// and every text the backend authenticates with or a sensitive variable
// holds, wherever it appears.
type scrubber struct {
	secrets []string
}

// secretName reports whether a header or query parameter name carries a
// credential.
func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, part := range []string{"auth", "cookie", "token", "secret", "key", "password", "passwd", "signature", "session", "credential"} {
		if strings.Contains(n, part) {
			return true
		}
	}
	return n == "sig" || n == "code"
}

func (s *scrubber) text(v string) string { return rule.Redact(v, s.secrets) }

func (s *scrubber) headers(h http.Header) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := map[string]string{}
	for k := range h {
		if k == "Date" {
			continue // changes on every recording, and nothing reads it
		}
		if secretName(k) {
			out[k] = rule.Redacted
			continue
		}
		out[k] = s.text(strings.Join(h.Values(k), ", "))
	}
	return out
}

// url is the path and query with secret parameters' values replaced.
func (s *scrubber) url(path string, q url.Values) string {
	if len(q) == 0 {
		return s.text(path)
	}
	clean := url.Values{}
	for k, vs := range q {
		for _, v := range vs {
			if secretName(k) {
				v = rule.Redacted
			}
			clean.Add(k, s.text(v))
		}
	}
	return s.text(path) + "?" + clean.Encode()
}

// recorder sends a backend's requests to the real API and keeps the
// exchanges, scrubbed.
type recorder struct {
	backend, basePath string
	next              http.RoundTripper
	scrub             *scrubber
	// creds are the texts the backend authenticates with.
	creds  []string
	misses *misses
	mu     sync.Mutex
	// refused is set when a request was not sent: the recording is then
	// not written, and a fixture written before stays as it was.
	refused   bool
	exchanges []*exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	if names := unsetInRequest(req, body, r.creds); len(names) > 0 {
		what := needsEnv(fmt.Sprintf("recording %s %s of backend %q", req.Method, relativePath(req.URL.Path, r.basePath), r.backend), names,
			"mock the request")
		r.misses.add(what)
		r.mu.Lock()
		r.refused = true
		r.mu.Unlock()
		return nil, fmt.Errorf("%s", what)
	}
	if body != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	answer, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(answer))
	ex := &exchange{
		Request: recordedRequest{Method: req.Method, URL: r.scrub.url(relativePath(req.URL.Path, r.basePath), req.URL.Query()),
			Headers: r.scrub.headers(req.Header), Body: r.scrub.text(string(body))},
		Response: recordedResponse{Status: res.StatusCode, Headers: r.scrub.headers(res.Header), Body: r.scrub.text(string(answer))},
	}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, ex)
	r.mu.Unlock()
	return res, nil
}

// replayer answers a backend's requests from a recording: the first
// unused exchange with the same method and URL (secrets scrubbed alike),
// else the last one used.
type replayer struct {
	backend, basePath string
	scrub             *scrubber
	mu                sync.Mutex
	exchanges         []*exchange
	misses            *misses
}

func (r *replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	key := r.scrub.url(relativePath(req.URL.Path, r.basePath), req.URL.Query())
	r.mu.Lock()
	var found *exchange
	for _, ex := range r.exchanges {
		if ex.Request.Method == req.Method && ex.Request.URL == key {
			found = ex
			if !ex.used {
				break
			}
		}
	}
	if found != nil {
		found.used = true
	}
	r.mu.Unlock()
	if found == nil {
		what := fmt.Sprintf("backend %q got %s %s, which its recording does not hold; run mcpdecl test --record again", r.backend, req.Method, key)
		r.misses.add(what)
		return nil, fmt.Errorf("%s", what)
	}
	h := http.Header{}
	for k, v := range found.Response.Headers {
		h.Set(k, v)
	}
	body := []byte(found.Response.Body)
	return &http.Response{
		StatusCode: found.Response.Status, Status: fmt.Sprintf("%d %s", found.Response.Status, http.StatusText(found.Response.Status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}, nil
}
