package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentCalls makes many calls at once through one server, over
// in-process HTTP and the binary's stdio: every answer is the one for its
// own arguments.
func TestConcurrentCalls(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/paths.hcl")
	for _, s := range []setup{setups[0], setups[4]} {
		t.Run(s.name, func(t *testing.T) {
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(time.Millisecond)
				writeJSON(w, http.StatusOK, map[string]string{"path": r.RequestURI})
			})
			srv := s.connect(t, cfg, map[string]string{"base_url": api.URL}, nil)
			ctx := testCtx(t)
			var wg sync.WaitGroup
			for g := range 16 {
				wg.Go(func() {
					for i := range 8 {
						id := fmt.Sprintf("g%d-c%d", g, i)
						res, err := srv.c.callTool(ctx, "item", map[string]any{"id": id})
						if err != nil || res.IsError || !strings.Contains(res.Text, `"/items/`+id+`/detail"`) {
							t.Errorf("item %s = %+v, %v", id, res, err)
						}
					}
				})
			}
			wg.Wait()
			if n := len(api.requests()); n != 16*8 {
				t.Errorf("the API received %d requests, want %d", n, 16*8)
			}
			srv.c.close()
			srv.wire.verify(t, handshake(s.era), revision(s.era)+" tools/call")
		})
	}
}

// TestCallTimeout: a call whose API does not answer within the call's
// timeout ends with an isError result that says so, and the request to
// the API is abandoned (its context is cancelled).
func TestCallTimeout(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/paths.hcl")
	for _, s := range []setup{setups[0], setups[4]} {
		t.Run(s.name, func(t *testing.T) {
			cancelled := make(chan struct{}, 8)
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
					cancelled <- struct{}{}
				case <-time.After(5 * time.Second):
					writeJSON(w, http.StatusOK, map[string]bool{"late": true})
				}
			})
			srv := s.connect(t, cfg, map[string]string{"base_url": api.URL}, nil)
			start := time.Now()
			res, err := srv.c.callTool(testCtx(t), "slow", nil)
			took := time.Since(start)
			if err != nil || !res.IsError {
				t.Errorf("slow = %+v, %v; want an isError result", res, err)
			}
			t.Logf("slow answered after %v: %q", took, res.Text)
			if took > 4*time.Second {
				t.Errorf("slow took %v; the call's timeout is 300ms", took)
			}
			select {
			case <-cancelled:
			case <-time.After(5 * time.Second):
				t.Errorf("the API's request was not cancelled")
			}
			if n := len(api.requests()); n != 1 {
				t.Errorf("the API received %d requests; a timed-out GET is not retried here", n)
			}
			srv.c.close()
			srv.wire.verify(t, handshake(s.era), revision(s.era)+" tools/call")
		})
	}
}
