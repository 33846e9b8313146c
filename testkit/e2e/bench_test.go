package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/go-resty/resty/v2"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// The benchmark calls the search tool of examples/library.hcl through the
// whole in-process stack (mcp's HTTP handler, argument validation, the
// http adapter over loopback, the result mapping) against an API answering
// a 2 KB JSON array, and, in the same run, a plain resty v2 GET of the same
// URL with the same header followed by json.Unmarshal: the difference is
// what mcpdecl adds per call.
//
//	go test ./testkit/e2e/ -run '^$' -bench SearchTool -benchmem
//
// The mcpdecl line reports added-ns/op, added-cpu-ns/op and added-B/op
// (mcpdecl minus resty).

// booksAnswer2K is a 2 KB JSON array of {isbn, title, author}.
func booksAnswer2K() []byte {
	var books []book
	for i := 0; ; i++ {
		books = append(books, book{ISBN: fmt.Sprintf("97800000%05d", i), Title: fmt.Sprintf("River book number %d", i), Author: "Ada Brook"})
		b, _ := json.Marshal(books)
		if len(b) >= 2048 {
			return b
		}
	}
}

// staticAPI answers every request with body as JSON, recording nothing but
// the number of connections opened to it.
func staticAPI(tb testing.TB, body []byte) (string, *atomic.Int64) {
	conns := &atomic.Int64{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	tb.Cleanup(srv.Close)
	return srv.URL, conns
}

const searchCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"river"},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// benchWriter is a reusable ResponseWriter, so the harness allocates
// almost nothing itself.
type benchWriter struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (w *benchWriter) Header() http.Header         { return w.header }
func (w *benchWriter) WriteHeader(code int)        { w.code = code }
func (w *benchWriter) Write(b []byte) (int, error) { return w.body.Write(b) }

// searchCaller returns a function making one modern tools/call of search
// through the HTTP handler of examples/library.hcl served against apiURL.
func searchCaller(tb testing.TB, apiURL string) (call func(), w *benchWriter) {
	srv := openServer(tb, repoPath(tb, "examples/library.hcl"), map[string]string{"base_url": apiURL}, libraryEnv, nil)
	return httpCaller(tb, srv, searchCall, "search")
}

// httpCaller returns a function posting body, a modern tools/call of the
// tool named tool, to srv through mcp's HTTP handler.
func httpCaller(tb testing.TB, srv *server.Server, body, tool string) (call func(), w *benchWriter) {
	h := mcp.NewServer(srv, nil).HTTPHandler(nil)
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json, text/event-stream")
	header.Set("MCP-Protocol-Version", mcp.Version20260728)
	header.Set("Mcp-Method", "tools/call")
	header.Set("Mcp-Name", tool)
	target, _ := url.Parse("http://127.0.0.1/mcp")
	ctx := context.Background()
	w = &benchWriter{header: http.Header{}}
	var rd strings.Reader
	return func() {
		rd.Reset(body)
		clear(w.header)
		w.code = http.StatusOK
		w.body.Reset()
		req := &http.Request{Method: http.MethodPost, URL: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: header, Body: io.NopCloser(&rd), ContentLength: int64(len(body)), Host: target.Host, RequestURI: "/mcp"}
		h.ServeHTTP(w, req.WithContext(ctx))
	}, w
}

// restyCaller returns a function making the same GET with resty and
// decoding the answer.
func restyCaller(tb testing.TB, apiURL string) func() error {
	client := resty.New()
	ctx := context.Background()
	return func() error {
		resp, err := client.R().SetContext(ctx).
			SetHeader("Authorization", "Bearer "+secret).
			SetQueryParam("q", "river").SetQueryParam("_limit", "10").
			Get(apiURL + "/books")
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(resp.Body(), &v); err != nil {
			return err
		}
		if resp.StatusCode() != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode())
		}
		return nil
	}
}

// measure runs fn b.N times and returns wall ns, process CPU ns (user and
// system, the fake API's share included) and bytes allocated per call. On
// a loaded shared machine the CPU time is the steadier figure.
func measure(b *testing.B, fn func()) (ns, cpu, bytes float64) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		fn()
	}
	b.StopTimer()
	cpu = float64(cpuTime()-cpu0) / float64(b.N)
	runtime.ReadMemStats(&after)
	b.ReportMetric(cpu, "cpu-ns/op")
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N), cpu, float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkSearchTool(b *testing.B) {
	apiURL, _ := staticAPI(b, booksAnswer2K())
	call, w := searchCaller(b, apiURL)
	call()
	if w.code != http.StatusOK || !strings.Contains(w.body.String(), "River book number 1 by Ada Brook") || strings.Contains(w.body.String(), `"isError":true`) {
		b.Fatalf("tools/call search: %d %s", w.code, w.body.String())
	}
	get := restyCaller(b, apiURL)
	if err := get(); err != nil {
		b.Fatal(err)
	}
	var base baseline
	b.Run("resty", func(b *testing.B) {
		base.ns, base.cpu, base.bytes = measure(b, func() {
			if err := get(); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mcpdecl", func(b *testing.B) {
		base.reportAdded(b)(measure(b, call))
	})
}

// baseline is what the plain side of a benchmark measured.
type baseline struct{ ns, cpu, bytes float64 }

// reportAdded returns a function reporting what a measurement adds to the
// baseline as added-ns/op, added-cpu-ns/op and added-B/op (nothing when
// the baseline did not run, as with -bench .../mcpdecl).
func (base *baseline) reportAdded(b *testing.B) func(ns, cpu, bytes float64) {
	return func(ns, cpu, bytes float64) {
		if base.ns == 0 {
			return
		}
		b.ReportMetric(ns-base.ns, "added-ns/op")
		b.ReportMetric(cpu-base.cpu, "added-cpu-ns/op")
		b.ReportMetric(bytes-base.bytes, "added-B/op")
	}
}

// TestSearchToolBudget keeps the added cost honest in ordinary runs: what
// mcpdecl allocates per search call beyond a plain resty GET + Unmarshal
// must stay within 40 KB (about 24 KB at the time of writing). Time on a
// shared machine is not stable, so the 60 µs goal is only logged here and
// read from the benchmark.
func TestSearchToolBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations")
	}
	requireSchemas(t)
	apiURL, conns := staticAPI(t, booksAnswer2K())
	call, w := searchCaller(t, apiURL)
	call()
	if w.code != http.StatusOK || !strings.Contains(w.body.String(), "River book number 1 by Ada Brook") {
		t.Fatalf("tools/call search: %d %s", w.code, w.body.String())
	}
	for _, msg := range splitHTTPMessages(w.header.Get("Content-Type"), w.body.Bytes()) {
		for _, err := range checkSent(mcp.Version20260728, "tools/call", msg) {
			t.Error(err)
		}
	}
	get := restyCaller(t, apiURL)
	var failed error
	r := testing.Benchmark(func(b *testing.B) {
		measure(b, func() {
			if err := get(); err != nil {
				failed = err
			}
		})
	})
	m := testing.Benchmark(func(b *testing.B) { measure(b, call) })
	if failed != nil || r.N == 0 || m.N == 0 {
		t.Fatalf("benchmark failed: %v", failed)
	}
	added := m.AllocedBytesPerOp() - r.AllocedBytesPerOp()
	// Both clients keep their connection alive: one each, not one a call.
	if n := conns.Load(); n > 4 {
		t.Errorf("the API saw %d connections for %d calls; keep-alive is not working", n, r.N+m.N)
	}
	t.Logf("resty: %d ns/op %d B/op %d allocs/op; mcpdecl: %d ns/op %d B/op %d allocs/op; added %d ns, %d B",
		r.NsPerOp(), r.AllocedBytesPerOp(), r.AllocsPerOp(), m.NsPerOp(), m.AllocedBytesPerOp(), m.AllocsPerOp(),
		m.NsPerOp()-r.NsPerOp(), added)
	if added > 40<<10 {
		// Where it went when it last grew: the decoded answer's maps
		// (adapters/http parseJSON), the structured content and the result
		// as JSON (internal/jsonenc, mcp/encode.go), the result
		// expressions' strings (expr), the arguments.
		t.Errorf("a search call through mcpdecl allocates %d B more than resty + Unmarshal (%d vs %d B/op, %d vs %d allocs/op); the budget is 40 KB",
			added, m.AllocedBytesPerOp(), r.AllocedBytesPerOp(), m.AllocsPerOp(), r.AllocsPerOp())
	}
}
