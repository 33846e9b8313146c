package openapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// fetch gets a document, or a file it refers to, over HTTP. Every hop of
// a redirect must stay on origin (the document's scheme and host, or the
// same host upgraded to https): a document or reference that redirects
// elsewhere is refused rather than read from a host the user did not
// name. At most 5 redirects; the whole fetch has one minute. Messages
// show URLs redacted (see Redacted).
func fetch(ctx context.Context, loc string, origin *url.URL, maxBytes int64, client *http.Client) ([]byte, error) {
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	name := Redacted(loc)
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirected to %s URL %s: only http and https documents are read", req.URL.Scheme, Redacted(req.URL.String()))
		}
		if !sameOrigin(origin, req.URL) {
			return fmt.Errorf("redirected to %s, which is not on %s: import follows redirects on the document's own host only (import that URL directly if you trust it)", Redacted(req.URL.String()), originName(origin))
		}
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", name, unwrapURLError(err))
	}
	req.Header.Set("Accept", "application/json, application/yaml;q=0.9, */*;q=0.5")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", name, unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("fetching %s: the server answered %s", name, resp.Status)
	}
	if resp.ContentLength > maxBytes {
		return nil, tooLarge(name, maxBytes)
	}
	return readCapped(resp.Body, name, maxBytes)
}

// sameOrigin: the same scheme, host and port, or the same host name
// moving from http to https.
func sameOrigin(origin, u *url.URL) bool {
	if u.Scheme == origin.Scheme && u.Host == origin.Host {
		return true
	}
	return origin.Scheme == "http" && u.Scheme == "https" && u.Hostname() == origin.Hostname()
}

func originName(u *url.URL) string { return u.Scheme + "://" + u.Host }

// unwrapURLError drops net/url's wrapping, which repeats the URL with its
// query and user name.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
