package httpadapter

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// fakeExchangeAS is a token endpoint that exchanges "caller-X" for
// "for-api-X-<n>", checking the request as RFC 8693 writes it.
type fakeExchangeAS struct {
	*httptest.Server
	exchanges atomic.Int32
	// answer, when set, replaces the exchange's answer.
	answer func(w http.ResponseWriter, r *http.Request) bool
	gate   chan struct{} // when set, each exchange waits for it
}

func newFakeExchangeAS(t *testing.T) *fakeExchangeAS {
	as := &fakeExchangeAS{}
	as.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := as.exchanges.Add(1)
		if as.gate != nil {
			<-as.gate
		}
		if as.answer != nil && as.answer(w, r) {
			return
		}
		id, secret, ok := r.BasicAuth()
		if !ok || id != "orders-mcp" || secret != "client-secret-1" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"invalid_client"}`)
			return
		}
		_ = r.ParseForm()
		f := r.PostForm
		if f.Get("grant_type") != grantTokenExchange || f.Get("subject_token_type") != tokenTypeAccessToken ||
			f.Get("audience") != "orders-api" || f.Get("scope") != "orders:read" || !strings.HasPrefix(f.Get("subject_token"), "caller-") {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"invalid_request","error_description":"unexpected form %s"}`, f.Encode())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"for-api-%s-%d","issued_token_type":%q,"token_type":"Bearer","expires_in":600}`,
			strings.TrimPrefix(f.Get("subject_token"), "caller-"), n, tokenTypeAccessToken)
	}))
	t.Cleanup(as.Close)
	return as
}

func exchangeBackend(t *testing.T, as *fakeExchangeAS, api string) *compiled {
	t.Helper()
	return compileEnv(t, fmt.Sprintf(`
backend "http" "orders" {
  base_url = %q
  auth {
    token_exchange {
      token_url     = "%s/token"
      client_id     = "orders-mcp"
      client_secret = env("SECRET")
      audience      = "orders-api"
      scopes        = ["orders:read"]
    }
  }
}
http "orders" { path = "/orders" }
`, api, as.URL), map[string]string{"SECRET": "client-secret-1"})
}

func invokeAs(c *compiled, caller string) (*adapter.Result, error) {
	return c.actions[0].Invoke(context.Background(), &adapter.Request{
		Args: args(nil), Static: c.static, CallerToken: caller,
		Progress: func(float64, float64, string) {}, Log: func(string, any) {},
	})
}

func TestTokenExchangePerCaller(t *testing.T) {
	as := newFakeExchangeAS(t)
	api := newRecorder(t, nil)
	c := exchangeBackend(t, as, api.URL)
	if needs := c.backends["orders"].ActsForCaller(); needs == nil || !needs.Token || needs.Block != "token_exchange" {
		t.Fatalf("ActsForCaller = %+v", needs)
	}
	for _, caller := range []string{"caller-ann", "caller-bob", "caller-ann", "caller-bob"} {
		if _, err := invokeAs(c, caller); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range api.requests() {
		got = append(got, r.Header.Get("Authorization"))
	}
	want := []string{"Bearer for-api-ann-1", "Bearer for-api-bob-2", "Bearer for-api-ann-1", "Bearer for-api-bob-2"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the API got %q, want %q (each caller its own token, exchanged once)", got, want)
	}
	if n := as.exchanges.Load(); n != 2 {
		t.Errorf("%d exchanges, want 2 (one per caller)", n)
	}
}

func TestTokenExchangeWithoutCallerToken(t *testing.T) {
	as := newFakeExchangeAS(t)
	api := newRecorder(t, nil)
	c := exchangeBackend(t, as, api.URL)
	_, err := invokeAs(c, "")
	if err == nil || !strings.Contains(err.Error(), "carries no verified access token") {
		t.Fatalf("err = %v", err)
	}
	if api.count() != 0 || as.exchanges.Load() != 0 {
		t.Errorf("a call without a caller reached the API (%d) or the authorization server (%d)", api.count(), as.exchanges.Load())
	}
}

func TestTokenExchangeSharedByConcurrentCalls(t *testing.T) {
	as := newFakeExchangeAS(t)
	as.gate = make(chan struct{})
	api := newRecorder(t, nil)
	c := exchangeBackend(t, as, api.URL)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := invokeAs(c, "caller-ann")
			errs <- err
		}()
	}
	// The first call's exchange waits at the gate; whoever comes after it
	// either waits for it or finds its token cached.
	for as.exchanges.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(as.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := as.exchanges.Load(); n != 1 {
		t.Errorf("%d exchanges for 20 concurrent calls of one caller, want 1", n)
	}
	if api.count() != 20 {
		t.Errorf("the API got %d calls, want 20", api.count())
	}
}

func TestTokenExchangeCacheExpiresAndIsBounded(t *testing.T) {
	as := newFakeExchangeAS(t)
	api := newRecorder(t, nil)
	c := exchangeBackend(t, as, api.URL)
	rt, err := c.backends["orders"].runtime()
	if err != nil {
		t.Fatal(err)
	}
	x := rt.exchange
	now := time.Now()
	x.now = func() time.Time { return now }
	x.max = 3
	ctx := context.Background()
	first, err := x.Token(ctx, "caller-ann")
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(8 * time.Minute) // 600s less a minute: still good
	if again, _ := x.Token(ctx, "caller-ann"); again != first {
		t.Errorf("before its end the token was not reused: %q, then %q", first, again)
	}
	now = now.Add(time.Minute + time.Second) // past 600s less a minute
	if later, _ := x.Token(ctx, "caller-ann"); later == first {
		t.Errorf("the token %q was used past its end (less the leeway)", later)
	}
	for i := range 10 {
		if _, err := x.Token(ctx, fmt.Sprintf("caller-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	x.mu.Lock()
	size := len(x.cache)
	x.mu.Unlock()
	if size > 3 {
		t.Errorf("the cache holds %d tokens, more than its bound 3", size)
	}
}

func TestTokenExchangeRefusal(t *testing.T) {
	as := newFakeExchangeAS(t)
	as.answer = func(w http.ResponseWriter, r *http.Request) bool {
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":"invalid_grant","error_description":"subject_token %s has expired (secret client-secret-1)"}`, r.PostForm.Get("subject_token"))
		return true
	}
	api := newRecorder(t, nil)
	c := exchangeBackend(t, as, api.URL)
	_, err := invokeAs(c, "caller-ann-secret-token")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"400 Bad Request", "invalid_grant", "has expired", "signing in again may help"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	for _, secret := range []string{"caller-ann-secret-token", "client-secret-1"} {
		if strings.Contains(msg, secret) {
			t.Errorf("message %q repeats %q", msg, secret)
		}
	}
	if api.count() != 0 {
		t.Error("the API was called without a token")
	}
}

func TestTokenExchangeAPIRefusesToken(t *testing.T) {
	as := newFakeExchangeAS(t)
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, "{}")
	})
	c := exchangeBackend(t, as, api.URL)
	res, err := invokeAs(c, "caller-ann")
	if err != nil || res.Failure != "" {
		t.Fatalf("err = %v, failure = %q", err, res.Failure)
	}
	got := []string{}
	for _, r := range api.requests() {
		got = append(got, r.Header.Get("Authorization"))
	}
	if strings.Join(got, ",") != "Bearer for-api-ann-1,Bearer for-api-ann-2" {
		t.Errorf("the API got %q: a refused token is exchanged again once", got)
	}
}
