package httpadapter

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-resty/resty/v2"
)

// restyUserAgent is the User-Agent sent when the headers leave it empty,
// as the requests were once made through resty.
const restyUserAgent = "go-resty/" + resty.Version + " (https://github.com/go-resty/resty)"

// newRequest makes the request of one attempt exactly as a resty v2
// client (no retries, no debug, its own http.Client) made it from the
// method, URL, headers and body, without resty's per-request objects and
// middleware: that cost a few kilobytes and microseconds per call.
//
//   - User-Agent is resty's when h leaves it empty.
//   - Accept is the Content-Type when h has no Accept and the body is
//     JSON or XML.
//   - GET, HEAD and OPTIONS requests carry no body. Other methods send
//     the body, with a Content-Type sniffed from it when h has none, or
//     an empty chunked body when there is none.
//   - A Host header sets the request's Host.
//
// h is used as the request's headers and is added to as above.
func newRequest(ctx context.Context, method, rawURL string, h http.Header, body []byte) (*http.Request, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return newRequestTo(ctx, method, u, h, body)
}

// newRequestTo is newRequest to a URL already parsed (build parses and
// checks every call's URL; parsing it again cost as much once more). u is
// not kept: the request gets a copy of its own.
func newRequestTo(ctx context.Context, method string, u *url.URL, h http.Header, body []byte) (*http.Request, error) {
	// The headers' keys are canonical: a lookup by a canonical name needs
	// none of Header.Get's canonicalizing.
	if headerValue(h, "User-Agent") == "" {
		h.Set("User-Agent", restyUserAgent)
	}
	if ct := headerValue(h, "Content-Type"); ct != "" && headerValue(h, "Accept") == "" && (resty.IsJSONType(ct) || resty.IsXMLType(ct)) {
		h.Set("Accept", ct)
	}
	var r io.Reader
	allowed := payloadAllowed(method)
	if allowed && body != nil {
		if headerValue(h, "Content-Type") == "" {
			h.Set("Content-Type", http.DetectContentType(body))
		}
		r = bytes.NewReader(body)
	}
	// The empty URL parses at no cost; the request then takes u as
	// http.NewRequestWithContext would have taken it from its text.
	req, err := http.NewRequestWithContext(ctx, method, "", r)
	if err != nil {
		return nil, err
	}
	target := *u
	target.Host = strings.TrimSuffix(target.Host, ":") // as NewRequest drops an empty port
	req.URL, req.Host = &target, target.Host
	if allowed && body == nil {
		// resty read the empty body into a buffer of its own, which the
		// transport sends as an empty chunked body.
		req.Body = io.NopCloser(bytes.NewReader(nil))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(nil)), nil }
	}
	req.Header = h
	if host := headerValue(h, "Host"); host != "" {
		req.Host = host
	}
	return req, nil
}

// headerValue is h.Get(name) for a name already in canonical form.
func headerValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// payloadAllowed reports whether a request of this method carries a body
// (resty's rule, without its AllowGetMethodPayload).
func payloadAllowed(method string) bool {
	return method != http.MethodHead && method != http.MethodOptions && method != http.MethodGet
}
