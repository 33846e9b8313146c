package httpadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
)

func TestAuthKinds(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "bearer" {
  base_url = "%[1]s"
  auth { bearer = env("TOKEN") }
}
backend "http" "basic" {
  base_url = "%[1]s"
  auth {
    basic {
      username = "ann"
      password = env("SECRET")
    }
  }
}
backend "http" "header" {
  base_url = "%[1]s"
  auth {
    api_key {
      name  = "X-Api-Key"
      value = env("KEY")
    }
  }
}
backend "http" "query" {
  base_url = "%[1]s"
  auth {
    api_key {
      in    = "query"
      name  = "api key"
      value = env("KEY")
    }
  }
}
http "bearer" { path = "/b" }
http "basic" { path = "/b" }
http "header" { path = "/h" }
http "query" {
  path  = "/q"
  query = { q = "x" }
}
http "query" { path = "/q" }
`, srv.URL), map[string]string{"TOKEN": "tok-123", "SECRET": "pa:ss", "KEY": "k&1="})
	for i := range c.actions {
		if _, err := c.invoke(i, args(nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.requests()
	type got struct{ URI, Authorization, APIKey string }
	var g []got
	for _, r := range reqs {
		g = append(g, got{r.URI, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")})
	}
	want := []got{
		{"/b", "Bearer tok-123", ""},
		{"/b", "Basic YW5uOnBhOnNz", ""},
		{"/h", "", "k&1="},
		{"/q?q=x&api+key=k%261%3D", "", ""},
		{"/q?api+key=k%261%3D", "", ""},
	}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// tokenServer is an OAuth2 token endpoint that counts its requests.
type tokenServer struct {
	*recorder
	issued    atomic.Int32
	expiresIn int
	formOnly  bool
	delay     time.Duration
}

func newTokenServer(t *testing.T, expiresIn int) *tokenServer {
	ts := &tokenServer{expiresIn: expiresIn}
	ts.recorder = newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		time.Sleep(ts.delay)
		form, _ := url.ParseQuery(ts.recorder.requests()[n-1].Body)
		id, secret, ok := r.BasicAuth()
		// RFC 6749 §2.3.1: both are form-encoded inside basic auth.
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
		if ts.formOnly {
			id, secret, ok = form.Get("client_id"), form.Get("client_secret"), form.Get("client_id") != ""
		}
		if !ok || id != "app" || secret != "s3cr%t" || form.Get("grant_type") != "client_credentials" || r.Method != "POST" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			io.WriteString(w, `{"error": "invalid_client", "error_description": "bad secret s3cr%t"}`)
			return
		}
		k := ts.issued.Add(1)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"access_token": fmt.Sprintf("at-%d", k), "token_type": "bearer",
			"expires_in": ts.expiresIn, "scope": form.Get("scope"),
		})
	})
	return ts
}

func oauthConfig(api, token string) string {
	return fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  auth {
    oauth2 {
      token_url     = "%s/oauth/token"
      client_id     = "app"
      client_secret = env("SECRET")
      scopes        = ["read", "write"]
    }
  }
}
http "api" { path = "/x" }`, api, token)
}

func TestOAuth2CachesAndRefreshes(t *testing.T) {
	tok := newTokenServer(t, 3600)
	var rejectNext atomic.Bool
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if rejectNext.Swap(false) {
			w.WriteHeader(401)
			return
		}
		io.WriteString(w, "ok")
	})
	c := compileEnv(t, oauthConfig(api.URL, tok.URL), map[string]string{"SECRET": "s3cr%t"})
	for range 3 {
		if _, err := c.invoke(0, args(nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := tok.count(); n != 1 {
		t.Errorf("token requests = %d, want 1 (cached)", n)
	}
	if got := tok.requests()[0]; got.Body != "grant_type=client_credentials&scope=read+write" || got.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("token request %+v", got)
	}

	// Shortly before it expires, the token is replaced.
	ts := c.backends["api"].rt.oauth
	now := time.Now()
	ts.Now = func() time.Time { return now.Add(3600*time.Second - 30*time.Second) }
	if _, err := c.invoke(0, args(nil), nil); err != nil {
		t.Fatal(err)
	}
	if n := tok.count(); n != 2 {
		t.Errorf("token requests = %d, want 2 (refreshed before expiry)", n)
	}

	// A token the API refuses is dropped and the call made again once.
	rejectNext.Store(true)
	res, err := c.invoke(0, args(nil), nil)
	if err != nil || res.Fields["status"] != 200 {
		t.Fatalf("after 401: %v %v", err, res)
	}
	if n := tok.count(); n != 3 {
		t.Errorf("token requests = %d, want 3", n)
	}
	var auths []string
	for _, r := range api.requests() {
		auths = append(auths, r.Header.Get("Authorization"))
	}
	want := []string{"Bearer at-1", "Bearer at-1", "Bearer at-1", "Bearer at-2", "Bearer at-2", "Bearer at-3"}
	if diff := cmp.Diff(want, auths); diff != "" {
		t.Errorf("Authorization sent (-want +got):\n%s", diff)
	}
}

func TestOAuth2ConcurrentCallersShareOneRefresh(t *testing.T) {
	tok := newTokenServer(t, 3600)
	tok.delay = 50 * time.Millisecond
	api := newRecorder(t, nil)
	c := compileEnv(t, oauthConfig(api.URL, tok.URL), map[string]string{"SECRET": "s3cr%t"})
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			if _, err := c.invoke(0, args(nil), nil); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := tok.count(); n != 1 {
		t.Errorf("token requests = %d, want 1", n)
	}
	if n := api.count(); n != 20 {
		t.Errorf("API requests = %d, want 20", n)
	}
}

func TestOAuth2ClientSecretInForm(t *testing.T) {
	tok := newTokenServer(t, 0) // no expires_in: kept until refused
	tok.formOnly = true
	api := newRecorder(t, nil)
	c := compileEnv(t, oauthConfig(api.URL, tok.URL), map[string]string{"SECRET": "s3cr%t"})
	for range 2 {
		if _, err := c.invoke(0, args(nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	// Basic first (refused), then the form, which is remembered.
	if n, issued := tok.count(), tok.issued.Load(); n != 2 || issued != 1 {
		t.Errorf("token requests = %d, issued = %d; want 2 and 1", n, issued)
	}
}

func TestOAuth2Refused(t *testing.T) {
	tok := newTokenServer(t, 3600)
	api := newRecorder(t, nil)
	c := compileEnv(t, oauthConfig(api.URL, tok.URL), map[string]string{"SECRET": "wrong-secret"})
	_, err := c.invoke(0, args(nil), nil)
	var ce *adapter.CallError
	if !errors.As(err, &ce) || ce.Retryable {
		t.Fatalf("error = %#v", err)
	}
	want := "Could not get an OAuth2 access token: the token endpoint" +
		" answered 401 Unauthorized (invalid_client). The client_id or client_secret of the backend is wrong; retrying will not help."
	if ce.Message != want {
		t.Errorf("message:\n got %s\nwant %s", ce.Message, want)
	}
	if api.count() != 0 {
		t.Errorf("the API was called without a token")
	}
}

func TestOAuth2CallerGivingUpDoesNotCancelOthers(t *testing.T) {
	tok := newTokenServer(t, 3600)
	tok.delay = 200 * time.Millisecond
	api := newRecorder(t, nil)
	c := compileEnv(t, oauthConfig(api.URL, tok.URL), map[string]string{"SECRET": "s3cr%t"})
	impatient, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.invokeCtx(impatient, 0, args(nil), nil)
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	if _, err := c.invoke(0, args(nil), nil); err != nil {
		t.Fatalf("patient caller: %v", err)
	}
	var ce *adapter.CallError
	if err := <-done; !errors.As(err, &ce) || !strings.Contains(ce.Message, "the token endpoint gave no answer before the call's deadline") {
		t.Errorf("impatient caller: %v", err)
	}
	if n := tok.count(); n != 1 {
		t.Errorf("token requests = %d, want 1", n)
	}
}
