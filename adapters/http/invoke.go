package httpadapter

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// answer is one attempt's HTTP answer, read in full.
type answer struct {
	status int
	reason string // the status line's text, such as "404 Not Found"
	header http.Header
	// data is the body, in a buffer of its own that is never written
	// once read (readBody), so that text can share it.
	data  []byte
	token string // the OAuth2 Authorization value sent, if any
}

// text is the body as a string, sharing data's memory instead of copying
// a body of up to max_response_bytes once more per call.
func (ans *answer) text() string {
	if len(ans.data) == 0 {
		return ""
	}
	return unsafe.String(&ans.data[0], len(ans.data))
}

// Invoke runs the call: it builds the request from the arguments, sends it
// (with retries, within the call's deadline) and describes the answer.
//
// The deadline (the tool's timeout, else the call's, else the backend's)
// covers every attempt and every wait between attempts. A method the retry block does
// not list is sent once. A failure to get any answer is an
// *adapter.CallError written for the model; an answer with a non-2xx
// status is a Result with Failure set.
func (a *Action) Invoke(ctx context.Context, req *adapter.Request) (*adapter.Result, error) {
	if a.Backend == nil {
		return nil, fmt.Errorf("%s: the call names no backend", a.Owner)
	}
	if req == nil || req.Static == nil {
		return nil, fmt.Errorf("%s: no request", a.Owner)
	}
	rt, err := a.Backend.runtime()
	if err != nil {
		return nil, err
	}
	out, err := a.build(rt, req)
	if err != nil {
		var ce *adapter.CallError
		if errors.As(err, &ce) {
			ce.Message = rt.redact(ce.Message)
		}
		return nil, err
	}

	timeout := a.Backend.Timeout
	if a.Timeout > 0 {
		timeout = a.Timeout
	}
	if req.Timeout > 0 {
		timeout = req.Timeout // the tool's: the one deadline of the call
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	start := time.Now()
	if dl, ok := ctx.Deadline(); ok && dl.Sub(start) < timeout && req.Timeout <= 0 {
		timeout = dl.Sub(start) // an outer deadline is shorter: it is the limit
	}
	deadline, ok := ctx.Deadline()
	if !ok || deadline.After(start.Add(timeout)) {
		// When ctx ends no later than the limit (the tool's timeout, or a
		// shorter outer deadline) it is the call's context as it is:
		// context.WithTimeout would return one that ends with it.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
		deadline, _ = ctx.Deadline()
	}

	r := a.Backend.Retry
	attempts := 1
	if r != nil && slices.Contains(r.Methods, a.Method) {
		attempts = max(1, r.Attempts)
	}
	reauthorized := false
	var ans *answer
	var sent bool // whether the last attempt sent the request
	for attempt := 1; ; attempt++ {
		var token string
		ans, token, sent, err = a.attempt(ctx, rt, out)
		if err == nil && ans.status == http.StatusUnauthorized && token != "" && !reauthorized {
			// The API refused a cached OAuth2 token (revoked, or expired
			// early): get a new one and try once more. A 401 means the
			// request was not processed, so this is safe for any method.
			if rt.exchange != nil {
				rt.exchange.Invalidate(out.caller, token)
			} else {
				rt.oauth.Invalidate(token)
			}
			reauthorized = true
			attempt--
			continue
		}
		if err != nil {
			var ce *adapter.CallError
			if !errors.As(err, &ce) {
				ce = describeTransportError(err, "The API", rt.base.Host, timeout)
				err = ce
			}
			if !ce.Retryable {
				break
			}
		}
		if attempt >= attempts || ctx.Err() != nil {
			break
		}
		var why string
		wait := backoff(r, attempt)
		if err != nil {
			why = "failed"
		} else {
			if !slices.Contains(r.OnStatus, ans.status) {
				break
			}
			why = "answered " + ans.reason
			if ra, ok := retryAfter(ans.header, time.Now()); ok {
				wait = ra
			}
		}
		// Never wait past the deadline: answer with what we have.
		if time.Until(deadline) <= wait {
			break
		}
		logf(req, "info", "%s %s %s; retrying in %s (attempt %d of %d)", a.Method, a.PathSource, why, wait.Round(time.Millisecond), attempt+1, attempts)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		var ce *adapter.CallError
		if !errors.As(err, &ce) {
			ce = describeTransportError(err, "The API", rt.base.Host, timeout)
		}
		if sent && ce.Retryable && (a.Method == "POST" || a.Method == "PATCH") && !errors.Is(err, context.Canceled) {
			var dns *net.DNSError
			if !errors.Is(err, syscall.ECONNREFUSED) && !errors.As(err, &dns) {
				ce.Message += " The API may have received the " + a.Method + " request before the failure; check before sending it again."
			}
		}
		ce.Message = rt.redact(ce.Message)
		ce.Err = rt.redactErr(ce.Err)
		return nil, ce
	}
	return a.result(rt, ans, req), nil
}

// attempt sends the request once and reads the answer. token is the
// OAuth2 Authorization value sent, if any.
func (a *Action) attempt(ctx context.Context, rt *runtime, out *outgoing) (ans *answer, token string, sent bool, err error) {
	// out.header belongs to this call alone. The first attempt sends it
	// and adds to it (Accept for a JSON body, the token); a later one
	// works on a copy, as the transport may still read the first.
	h := out.header
	if out.attempts > 0 {
		h = h.Clone()
	}
	out.attempts++
	switch {
	case rt.exchange != nil:
		// The caller's own token never goes to the API, whatever the
		// call's headers say: the exchanged one always replaces it.
		token, err = rt.exchange.Token(ctx, out.caller)
		if err != nil {
			return nil, "", false, err
		}
		h.Set("Authorization", token)
	case rt.oauth != nil && !out.authorized:
		token, err = rt.oauth.Token(ctx)
		if err != nil {
			return nil, "", false, err
		}
		h.Set("Authorization", token)
	}
	if out.observer != nil {
		out.observer.SendingHTTP(ctx, h)
	}
	hreq, err := newRequestTo(ctx, out.method, out.parsed, h, out.body)
	if err != nil {
		return nil, token, false, err
	}
	raw, err := rt.client.Do(hreq)
	if raw != nil && raw.Body != nil {
		defer raw.Body.Close()
	}
	if err != nil {
		return nil, token, true, err
	}
	if out.observer != nil {
		out.observer.AnsweredHTTP(ctx, raw.StatusCode)
	}
	ans = &answer{status: raw.StatusCode, reason: raw.Status, header: raw.Header, token: token}
	if ans.reason == "" {
		ans.reason = strconv.Itoa(raw.StatusCode)
	}
	ans.data, err = readBody(raw, a.Backend.MaxResponseBytes)
	if err != nil {
		return nil, token, true, err
	}
	return ans, token, true, nil
}

// readBody reads an answer's body, refusing one larger than limit bytes
// (decompressed). The buffer it returns is the caller's alone (answer.text
// relies on it).
func readBody(raw *http.Response, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	var body io.Reader = raw.Body
	size := raw.ContentLength
	if strings.EqualFold(headerValue(raw.Header, "Content-Encoding"), "gzip") && !raw.Uncompressed {
		// The transport decompresses only when it asked for gzip itself.
		zr, err := gzip.NewReader(raw.Body)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		body, size = zr, -1
	}
	if size > limit {
		return nil, &errTooLarge{limit: limit}
	}
	if size >= 0 {
		// Known length: one buffer of that size (and a byte to see EOF).
		buf := make([]byte, 0, size+1)
		return readAllInto(buf, body, limit)
	}
	// Unknown length (chunked): read into a pooled scratch buffer, then copy
	// out exactly what came.
	sp := scratchPool.Get().(*[]byte)
	buf, err := readAllInto((*sp)[:0], body, limit)
	var out []byte
	if err == nil {
		out = append([]byte(nil), buf...)
	}
	if cap(buf) <= 1<<20 {
		*sp = buf[:0]
		scratchPool.Put(sp)
	}
	return out, err
}

var scratchPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 32<<10)
	return &b
}}

// readAllInto appends r to buf, failing once it passes limit bytes.
func readAllInto(buf []byte, r io.Reader, limit int64) ([]byte, error) {
	lr := io.LimitReader(r, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf, err
		}
	}
	if int64(len(buf)) > limit {
		return buf, &errTooLarge{limit: limit}
	}
	return buf, nil
}

// backoff is the wait before attempt+1: exponential from min_wait, capped
// at max_wait, with random jitter between min_wait and that cap.
func backoff(r *Retry, attempt int) time.Duration {
	if r == nil {
		return 0
	}
	lo, hi := r.MinWait, r.MaxWait
	if hi < lo {
		hi = lo
	}
	capped := lo
	for i := 1; i < attempt && capped < hi; i++ {
		capped *= 2
	}
	capped = min(capped, hi)
	if capped <= lo {
		return lo
	}
	return lo + rand.N(capped-lo+1)
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 1<<30)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

func logf(req *adapter.Request, level, format string, args ...any) {
	if req.Log != nil {
		req.Log(level, fmt.Sprintf(format, args...))
	}
}
