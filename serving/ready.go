package serving

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// readiness answers /readyz: 503 until the configuration is served and
// again once draining has begun; otherwise 200 when every backend that can
// be checked answers (a database is pinged, the Redis task store too) and
// 503 when one does not. HTTP and shell backends are listed as not
// checked: a probe never sends a request an API would count or bill. The
// body has one line per backend, or JSON with ?format=json or
// Accept: application/json.
type readiness struct {
	srv      atomic.Pointer[server.Server]
	draining atomic.Bool
	store    tasks.Store

	// mu makes one probe check at a time; the others wait and take its
	// answer, kept for readyCacheFor, so a burst of probes pings each
	// database once.
	mu      sync.Mutex
	last    *ReadyReport
	lastAt  time.Time
	lastFor *table.Table
}

// readyTimeout bounds a whole check; readyCacheFor is how long its answer
// is kept. The deployment's probe timeout must exceed readyTimeout.
const (
	readyTimeout  = 2 * time.Second
	readyCacheFor = time.Second
)

// The statuses of a readiness line.
const (
	readyOK          = "ok"
	readyUnreachable = "unreachable"
	readyNotChecked  = "not checked"
)

// ReadyReport is the answer of /readyz (and of Instance.Ready).
type ReadyReport struct {
	Status    string       `json:"status"` // ready, not ready, loading, draining
	Backends  []ReadyCheck `json:"backends,omitempty"`
	TaskStore *ReadyCheck  `json:"task_store,omitempty"`
}

// ReadyCheck is the state of one backend (or the task store).
type ReadyCheck struct {
	Name   string `json:"name,omitempty"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

func (c *ReadyCheck) line(what string) string {
	fields := []string{what}
	if c.Name != "" {
		fields = append(fields, c.Name)
	}
	fields = append(fields, c.Kind, c.Status)
	l := strings.Join(fields, " ")
	if c.Error != "" {
		l += ": " + oneLine(c.Error)
	}
	return l + "\n"
}

func (r *readiness) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	rep := r.report(req.Context())
	code := http.StatusOK
	if rep.Status != "ready" {
		code = http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	if wantsJSON(req) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(rep)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	var b strings.Builder
	b.WriteString(rep.Status + "\n")
	for i := range rep.Backends {
		b.WriteString(rep.Backends[i].line("backend"))
	}
	if rep.TaskStore != nil {
		b.WriteString(rep.TaskStore.line("task_store"))
	}
	_, _ = io.WriteString(w, b.String())
}

func wantsJSON(req *http.Request) bool {
	if f := req.URL.Query().Get("format"); f != "" {
		return f == "json"
	}
	return strings.Contains(req.Header.Get("Accept"), "application/json")
}

// report checks, or returns the answer of a check made less than
// readyCacheFor ago on the same configuration.
func (r *readiness) report(ctx context.Context) *ReadyReport {
	srv := r.srv.Load()
	switch {
	case r.draining.Load():
		return &ReadyReport{Status: "draining"}
	case srv == nil:
		return &ReadyReport{Status: "loading"}
	}
	tbl := srv.Table()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last != nil && r.lastFor == tbl && time.Since(r.lastAt) < readyCacheFor {
		return r.last
	}
	// The check outlives a probe that gave up: the next one takes it.
	checkCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyTimeout)
	defer cancel()
	rep := checkReady(checkCtx, tbl, r.store)
	r.last, r.lastAt, r.lastFor = rep, time.Now(), tbl
	return rep
}

// checkReady pings every backend that can be checked, and the task store,
// at once; a ping still unanswered when ctx ends counts as unreachable.
func checkReady(ctx context.Context, t *table.Table, store tasks.Store) *ReadyReport {
	rep := &ReadyReport{Status: "ready"}
	names := make([]string, 0, len(t.Backends))
	for name := range t.Backends {
		names = append(names, name)
	}
	sort.Strings(names)
	checks := make([]*ReadyCheck, 0, len(names)+1)
	pingers := make([]adapter.Pinger, 0, len(names)+1)
	for _, name := range names {
		b := t.Backends[name]
		c := &ReadyCheck{Name: name, Kind: backendKind(b), Status: readyNotChecked}
		checks = append(checks, c)
		p, _ := b.(adapter.Pinger)
		pingers = append(pingers, p)
	}
	if store != nil {
		c := &ReadyCheck{Kind: "memory", Status: readyNotChecked}
		p, _ := store.(adapter.Pinger)
		if p != nil {
			c.Kind = "redis"
		}
		checks = append(checks, c)
		pingers = append(pingers, p)
	}
	pingAll(ctx, checks, pingers)
	for i, c := range checks {
		if c.Status == readyUnreachable {
			rep.Status = "not ready"
		}
		if store != nil && i == len(checks)-1 {
			rep.TaskStore = c
			continue
		}
		rep.Backends = append(rep.Backends, *c)
	}
	return rep
}

// pingAll runs the pings of checks at once (a nil pinger is not checked)
// and waits for them until ctx ends.
func pingAll(ctx context.Context, checks []*ReadyCheck, pingers []adapter.Pinger) {
	type answer struct {
		i   int
		err error
	}
	answers := make(chan answer, len(checks))
	waiting := map[int]bool{}
	for i, p := range pingers {
		if p == nil {
			continue
		}
		waiting[i] = true
		go func() { answers <- answer{i, p.Ping(ctx)} }()
	}
	for len(waiting) > 0 {
		select {
		case a := <-answers:
			delete(waiting, a.i)
			checks[a.i].Status = readyOK
			if a.err != nil {
				checks[a.i].Status, checks[a.i].Error = readyUnreachable, a.err.Error()
			}
		case <-ctx.Done():
			for i := range waiting {
				checks[i].Status, checks[i].Error = readyUnreachable, fmt.Sprintf("no answer within %s", readyTimeout)
			}
			return
		}
	}
}

// backendKind is the block kind of a backend (sql, http, shell), as its
// description names it.
func backendKind(b adapter.Backend) string {
	if k, ok := b.Describe()["kind"].(string); ok {
		return k
	}
	return "unknown"
}

// oneLine keeps an error on its line of the body.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
