package httpadapter

import (
	"bytes"
	"context"
	"io"
	"net/http"

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
func newRequest(ctx context.Context, method, url string, h http.Header, body []byte) (*http.Request, error) {
	if h.Get("User-Agent") == "" {
		h.Set("User-Agent", restyUserAgent)
	}
	if ct := h.Get("Content-Type"); h.Get("Accept") == "" && ct != "" && (resty.IsJSONType(ct) || resty.IsXMLType(ct)) {
		h.Set("Accept", ct)
	}
	var r io.Reader
	allowed := payloadAllowed(method)
	if allowed && body != nil {
		if h.Get("Content-Type") == "" {
			h.Set("Content-Type", http.DetectContentType(body))
		}
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return nil, err
	}
	if allowed && body == nil {
		// resty read the empty body into a buffer of its own, which the
		// transport sends as an empty chunked body.
		req.Body = io.NopCloser(bytes.NewReader(nil))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(nil)), nil }
	}
	req.Header = h
	if host := h.Get("Host"); host != "" {
		req.Host = host
	}
	return req, nil
}

// payloadAllowed reports whether a request of this method carries a body
// (resty's rule, without its AllowGetMethodPayload).
func payloadAllowed(method string) bool {
	return method != http.MethodHead && method != http.MethodOptions && method != http.MethodGet
}
