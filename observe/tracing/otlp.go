package tracing

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"google.golang.org/protobuf/encoding/protowire"
)

// otlpExporter sends spans to an OTLP/HTTP collector as protobuf: the
// exporter of the OpenTelemetry SDK (otlptracehttp) reads the same
// variables and behaves the same on the wire, but links a gRPC client
// into the binary for its options.
type otlpExporter struct {
	cfg    otlpConfig
	client *http.Client
	retry  retryPolicy

	stopped  context.Context // done once Shutdown is called: an export in flight ends
	stop     context.CancelFunc
	lastSize atomic.Int64 // of the last request, to size the next one's buffer
}

var _ Exporter = (*otlpExporter)(nil)

// otlpConfig is what the OTEL_EXPORTER_OTLP_* variables say.
type otlpConfig struct {
	url         string // where spans are posted
	insecure    bool   // http rather than https
	headers     map[string]string
	gzip        bool
	timeout     time.Duration // of one attempt
	tls         *tls.Config   // nil: the system's roots, no client certificate
	userAgent   string
	maxRequest  int   // bytes of an uncompressed request
	maxResponse int64 // bytes of a response read
}

// The defaults of the OTLP exporter specification.
const (
	defaultOTLPHost    = "localhost:4318"
	defaultTracesPath  = "/v1/traces"
	defaultOTLPTimeout = 10 * time.Second
	maxOTLPRequest     = 64 << 20
	maxOTLPResponse    = 4 << 20
)

// otlpConfigFrom reads the exporter's variables, each OTEL_EXPORTER_OTLP_TRACES_X
// over its OTEL_EXPORTER_OTLP_X. The endpoint's scheme says whether TLS
// is used (http: no), and OTEL_EXPORTER_OTLP(_TRACES)_INSECURE overrides
// it. A value that cannot be read (a URL, a number of milliseconds, a
// header list, a certificate file) is an error naming the variable.
func otlpConfigFrom(getenv func(string) string, version string) (otlpConfig, error) {
	c := otlpConfig{timeout: defaultOTLPTimeout, maxRequest: maxOTLPRequest, maxResponse: maxOTLPResponse,
		userAgent: "mcpdecl/" + version}
	host, urlPath := defaultOTLPHost, defaultTracesPath
	env := func(name string) (string, string, bool) {
		for _, n := range []string{"OTEL_EXPORTER_OTLP_TRACES_" + name, "OTEL_EXPORTER_OTLP_" + name} {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return n, v, true
			}
		}
		return "", "", false
	}
	endpoint := func(name, v string) (*url.URL, error) {
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("traces: %s=%q: write the collector's URL, like http://localhost:4318", name, v)
		}
		c.insecure = strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "unix")
		return u, nil
	}
	if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")); v != "" {
		u, err := endpoint("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", v)
		if err != nil {
			return c, err
		}
		host, urlPath = u.Host, u.Path // used as it is
		if urlPath == "" {
			urlPath = "/"
		}
	} else if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); v != "" {
		u, err := endpoint("OTEL_EXPORTER_OTLP_ENDPOINT", v)
		if err != nil {
			return c, err
		}
		host, urlPath = u.Host, path.Join(u.Path, defaultTracesPath) // the signal's path added
	} else {
		c.insecure = true // http://localhost:4318, as the specification says
	}
	if name, v, ok := env("INSECURE"); ok {
		switch strings.ToLower(v) {
		case "true":
			c.insecure = true
		case "false":
			c.insecure = false
		default:
			return c, fmt.Errorf("traces: %s=%q: write true or false", name, v)
		}
	}
	if !strings.HasPrefix(urlPath, "/") {
		urlPath = "/" + urlPath
	}
	scheme := "https"
	if c.insecure {
		scheme = "http"
	}
	c.url = (&url.URL{Scheme: scheme, Host: host, Path: urlPath}).String()

	if name, v, ok := env("HEADERS"); ok {
		h, err := parseOTLPHeaders(v)
		if err != nil {
			return c, fmt.Errorf("traces: %s: %w", name, err)
		}
		c.headers = h
	}
	if name, v, ok := env("TIMEOUT"); ok {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 {
			return c, fmt.Errorf("traces: %s=%q: write a whole number of milliseconds", name, v)
		}
		c.timeout = time.Duration(ms) * time.Millisecond
	}
	if name, v, ok := env("COMPRESSION"); ok {
		switch v {
		case "gzip":
			c.gzip = true
		case "none":
		default:
			return c, fmt.Errorf("traces: %s=%q is not supported; use gzip or none", name, v)
		}
	}
	var tc tls.Config
	if name, v, ok := env("CERTIFICATE"); ok {
		pem, err := os.ReadFile(v)
		if err != nil {
			return c, fmt.Errorf("traces: %s: %w", name, err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return c, fmt.Errorf("traces: %s=%q holds no PEM certificate", name, v)
		}
	}
	certName, cert, certOK := env("CLIENT_CERTIFICATE")
	keyName, key, keyOK := env("CLIENT_KEY")
	if certOK != keyOK {
		return c, fmt.Errorf("traces: %s and %s go together: set both or neither", "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", "OTEL_EXPORTER_OTLP_CLIENT_KEY")
	}
	if certOK {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return c, fmt.Errorf("traces: %s and %s: %w", certName, keyName, err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	if tc.RootCAs != nil || tc.Certificates != nil {
		if c.insecure {
			return c, errors.New("traces: the OTLP exporter: insecure HTTP endpoint cannot use TLS client configuration")
		}
		c.tls = &tc
	}
	return c, nil
}

// parseOTLPHeaders reads key1=value1,key2=value2, the values
// percent-encoded.
func parseOTLPHeaders(v string) (map[string]string, error) {
	h := map[string]string{}
	for pair := range strings.SplitSeq(v, ",") {
		k, val, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || !validHeaderName(k) {
			return nil, fmt.Errorf("%q is not a header: write name=value pairs separated by commas", strings.TrimSpace(pair))
		}
		val, err := url.PathUnescape(val)
		if err != nil {
			return nil, fmt.Errorf("the value of %s: %w", k, err)
		}
		h[k] = strings.TrimSpace(val)
	}
	return h, nil
}

func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

// newOTLPExporter is the exporter the environment describes.
func newOTLPExporter(getenv func(string) string, version string) (*otlpExporter, error) {
	cfg, err := otlpConfigFrom(getenv, version)
	if err != nil {
		return nil, err
	}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       cfg.tls,
	}
	e := &otlpExporter{cfg: cfg, client: &http.Client{Transport: transport, Timeout: cfg.timeout}, retry: defaultRetry}
	e.stopped, e.stop = context.WithCancel(context.Background())
	return e, nil
}

// ExportSpans posts spans in one request, retrying as retryPolicy says;
// its error reads "traces export: " and why.
func (e *otlpExporter) ExportSpans(ctx context.Context, spans []*Span) error {
	if len(spans) == 0 {
		return nil
	}
	// A new buffer each time: the transport may still read a request's
	// body after Do returns (an early answer), so it is never reused.
	body := appendExportRequest(make([]byte, 0, e.lastSize.Load()+e.lastSize.Load()/8), spans)
	e.lastSize.Store(int64(len(body)))
	if len(body) == 0 {
		return nil
	}
	if err := e.upload(ctx, body); err != nil {
		return fmt.Errorf("traces export: %w", err)
	}
	return nil
}

// Shutdown ends an export in flight; later exports fail.
func (e *otlpExporter) Shutdown(ctx context.Context) error {
	e.stop()
	return ctx.Err()
}

func (e *otlpExporter) upload(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(e.stopped, cancel)()
	if e.cfg.maxRequest > 0 && len(body) > e.cfg.maxRequest {
		return fmt.Errorf("request body too large: exceeded %d bytes", e.cfg.maxRequest)
	}
	if e.cfg.gzip {
		var zb bytes.Buffer
		zw := gzipWriters.Get().(*gzip.Writer)
		zw.Reset(&zb)
		_, _ = zw.Write(body)
		err := zw.Close()
		zw.Reset(io.Discard)
		gzipWriters.Put(zw)
		if err != nil {
			return err
		}
		body = zb.Bytes()
	}
	return e.retry.do(ctx, func(ctx context.Context) error { return e.post(ctx, body) })
}

var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// post makes one attempt; a retryable error is a *retryableError.
func (e *otlpExporter) post(ctx context.Context, body []byte) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.cfg.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", e.cfg.userAgent)
	for k, v := range e.cfg.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if e.cfg.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := e.client.Do(req)
	if ue := (*url.Error)(nil); errors.As(err, &ue) && ue.Temporary() {
		return &retryableError{err: err}
	}
	if err != nil {
		return err
	}
	defer func() {
		if cerr := resp.Body.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	answer, err := readLimited(resp.Body, e.cfg.maxResponse)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		if resp.Header.Get("Content-Type") == "application/x-protobuf" {
			return partialSuccess(answer)
		}
		return nil
	}
	text := strings.TrimSpace(string(answer))
	if text == "" {
		text = "(empty)"
	}
	bodyErr := fmt.Errorf("body: %s", text)
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return &retryableError{err: bodyErr, after: retryAfter(resp.Header.Get("Retry-After"))}
	}
	return fmt.Errorf("failed to send to %s: %s (%w)", e.cfg.url, resp.Status, bodyErr)
}

// readLimited reads a response of at most limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, err
	}
	var extra [1]byte
	if _, err := io.ReadFull(r, extra[:]); err == nil {
		return nil, fmt.Errorf("response body too large: exceeded %d bytes", limit)
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}

// partialSuccess is the error of an ExportTraceServiceResponse whose
// partial_success (field 1) rejects spans (its field 1) or says why
// (field 2).
func partialSuccess(answer []byte) error {
	var rejected int64
	var msg string
	var found bool
	err := walkFields(answer, func(n protowire.Number, t protowire.Type, v []byte, x uint64) error {
		if n != 1 || t != protowire.BytesType {
			return nil
		}
		found = true
		return walkFields(v, func(n protowire.Number, t protowire.Type, v []byte, x uint64) error {
			switch {
			case n == 1 && t == protowire.VarintType:
				rejected = int64(x)
			case n == 2 && t == protowire.BytesType:
				msg = string(v)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	if !found || (rejected == 0 && msg == "") {
		return nil
	}
	if msg == "" {
		msg = "empty message"
	}
	return fmt.Errorf("OTLP partial success: %s (%d spans rejected)", msg, rejected)
}

// walkFields calls f with each field of the message b: a length-delimited
// one's bytes, a varint or fixed one's value.
func walkFields(b []byte, f func(protowire.Number, protowire.Type, []byte, uint64) error) error {
	for len(b) > 0 {
		n, t, l := protowire.ConsumeTag(b)
		if l < 0 {
			return protowire.ParseError(l)
		}
		b = b[l:]
		var v []byte
		var x uint64
		switch t {
		case protowire.BytesType:
			v, l = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, l = protowire.ConsumeVarint(b)
		default:
			l = protowire.ConsumeFieldValue(n, t, b)
		}
		if l < 0 {
			return protowire.ParseError(l)
		}
		b = b[l:]
		if err := f(n, t, v, x); err != nil {
			return err
		}
	}
	return nil
}

// retryableError is a failure worth another attempt: 429, 502, 503 and
// 504, and temporary network errors; after is the collector's
// Retry-After.
type retryableError struct {
	err   error
	after time.Duration
}

func (e *retryableError) Error() string { return "retry-able request failure: " + e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		if s > int64(1<<63-1)/int64(time.Second) {
			return time.Duration(1<<63 - 1)
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// retryPolicy retries a retryable failure after an exponential backoff
// (first wait about initial, each next 1.5 times longer up to maxWait,
// every wait randomised by ±50%) or the collector's Retry-After when
// longer, giving up after maxElapsed or when the export's context ends.
type retryPolicy struct {
	initial, maxWait, maxElapsed time.Duration
}

var defaultRetry = retryPolicy{initial: 5 * time.Second, maxWait: 30 * time.Second, maxElapsed: time.Minute}

func (p retryPolicy) do(ctx context.Context, attempt func(context.Context) error) error {
	start, interval := time.Now(), p.initial
	for {
		err := attempt(ctx)
		if err == nil {
			return nil
		}
		re, ok := err.(*retryableError) //nolint:errorlint // only this attempt's own error
		if !ok {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %w", context.Cause(ctx), err)
		}
		if time.Since(start) > p.maxElapsed {
			return fmt.Errorf("max retry time elapsed: %w", err)
		}
		wait := time.Duration(float64(interval) * (0.5 + rand.Float64()))
		interval = min(time.Duration(float64(interval)*1.5), p.maxWait)
		wait = max(wait, re.after)
		if time.Since(start)+re.after > p.maxElapsed {
			return fmt.Errorf("max retry time would elapse: %w", err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %w", context.Cause(ctx), err)
		case <-t.C:
		}
	}
}
