package httpadapter

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-resty/resty/v2"
	"github.com/google/go-cmp/cmp"
)

// wireRequest is what a server saw of a request.
type wireRequest struct {
	Method, URI, Host, Body string
	ContentLength           int64
	TransferEncoding        []string
	Header                  http.Header
}

// TestNewRequestAsResty sends the same requests through newRequest and
// through a resty v2 client configured as the adapter's used to be, to a
// server that records them, and requires the same request on the wire:
// method, URI, Host, headers, body, length, also after a redirect that
// sends the body again.
func TestNewRequestAsResty(t *testing.T) {
	got := make(chan wireRequest, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.RequestURI, "/307"); ok {
			// A redirect that keeps the method: the body is sent again.
			io.Copy(io.Discard, r.Body)
			http.Redirect(w, r, rest, http.StatusTemporaryRedirect)
			return
		}
		b, _ := io.ReadAll(r.Body)
		h := r.Header.Clone()
		h.Del("Accept-Encoding") // the transport's, the same for both
		got <- wireRequest{r.Method, r.RequestURI, r.Host, string(b), r.ContentLength, r.TransferEncoding, h}
	}))
	defer srv.Close()
	hc := &http.Client{Transport: srv.Client().Transport}
	rc := resty.NewWithClient(hc).SetDebug(false).SetRetryCount(0).SetDoNotParseResponse(true)

	headers := []http.Header{
		{},
		{"User-Agent": {"mcpdecl"}, "Accept": {"application/json"}},
		{"User-Agent": {""}},
		{"Content-Type": {"application/json"}},
		{"Content-Type": {"application/vnd.api+json; charset=utf-8"}, "User-Agent": {"x"}},
		{"Content-Type": {"text/xml"}},
		{"Content-Type": {"application/x-www-form-urlencoded"}},
		{"Content-Type": {""}},
		{"Content-Type": {"application/json"}, "Accept": {"text/plain"}},
		{"Host": {"example.test"}, "X-Many": {"a", "b"}},
		{"Authorization": {"Bearer t"}, "Accept": {""}},
	}
	bodies := [][]byte{nil, {}, []byte(`{"a":1}`), []byte("plain words"), []byte("<x/>"), {0x89, 'P', 'N', 'G', 0, 1}}
	methods := []string{"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "PROPFIND"}
	ctx := context.Background()
	send := func(do func() (*http.Response, error)) wireRequest {
		t.Helper()
		resp, err := do()
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return <-got
	}
	for _, url := range []string{srv.URL + "/a%20b/c?q=1&r=x+y", srv.URL + "/307/a%20b/c?q=1&r=x+y"} {
		for _, method := range methods {
			for hi, h := range headers {
				for bi, body := range bodies {
					name := fmt.Sprintf("%s %s/header#%d/body#%d", method, url, hi, bi)
					viaResty := send(func() (*http.Response, error) {
						r := rc.R()
						r.SetContext(ctx)
						r.Header = h.Clone()
						if body != nil {
							r.SetBody(body)
						}
						resp, err := r.Execute(method, url)
						if err != nil {
							return nil, err
						}
						return resp.RawResponse, nil
					})
					viaNew := send(func() (*http.Response, error) {
						req, err := newRequest(ctx, method, url, h.Clone(), body)
						if err != nil {
							return nil, err
						}
						return hc.Do(req)
					})
					if diff := cmp.Diff(viaResty, viaNew); diff != "" {
						t.Errorf("%s: the request differs from resty's (-resty +new):\n%s", name, diff)
					}
				}
			}
		}
	}
}
