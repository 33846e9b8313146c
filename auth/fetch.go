package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Bounds of every fetch from an authorization server.
const (
	maxDocumentBytes = 1 << 20 // metadata, key sets, introspection answers
	fetchTimeout     = 10 * time.Second
)

func defaultHTTPClient() *http.Client {
	return &http.Client{
		Timeout: fetchTimeout,
		// Redirects are not followed: a metadata or key set URL that moved
		// is a configuration problem, and following would let the answer
		// come from a host nobody configured.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// errNotFound marks a 404, which discovery takes as "try the next URL".
var errNotFound = errors.New("not found")

// getJSON fetches u and decodes its JSON body into out. The error names the
// URL and the problem, never the body.
func (v *Verifier) getJSON(ctx context.Context, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	return v.doJSON(req, out)
}

// postForm posts form to u with HTTP basic client authentication (when id
// is set) and decodes the JSON answer into out.
func (v *Verifier) postForm(ctx context.Context, u string, form url.Values, id, secret string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if id != "" {
		// RFC 6749 §2.3.1: both parts form-encoded before basic encoding.
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	return v.doJSON(req, out)
}

func (v *Verifier) doJSON(req *http.Request, out any) error {
	ctx, cancel := context.WithTimeout(req.Context(), fetchTimeout)
	defer cancel()
	resp, err := v.client.Do(req.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("%s %s: %w", req.Method, redactURL(req.URL), unwrapURLError(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocumentBytes+1))
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: reading the answer: %w", req.Method, redactURL(req.URL), err)
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%s %s: %w", req.Method, redactURL(req.URL), errNotFound)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("%s %s: status %d", req.Method, redactURL(req.URL), resp.StatusCode)
	case len(body) > maxDocumentBytes:
		return fmt.Errorf("%s %s: the answer is larger than %d bytes", req.Method, redactURL(req.URL), maxDocumentBytes)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the expected JSON: %v", req.Method, redactURL(req.URL), jsonProblem(err))
	}
	return nil
}

// redactURL drops credentials and the query, which may carry secrets.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	return c.String()
}

// unwrapURLError keeps the cause of a *url.Error, whose own text repeats
// the URL with its query.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// jsonProblem describes a decoding error without quoting the document.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("syntax error at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q has the wrong type (%s)", typ.Field, typ.Value)
	}
	return "malformed JSON"
}
