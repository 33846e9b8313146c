package serving

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// BenchmarkRestHTTP calls scripts/bench-loopback.sh's rest tool (one GET
// of a REST backend on loopback, its JSON body answered as it came)
// through everything serve puts in front of it, beside a plain net/http
// handler making the same GET on a keep-alive client with no MCP checks.
// The backend runs in the same process, so both lines count its CPU and
// allocations too; the differences (x-bare, B-alloc-over-bare) are
// mcpdecl's own.
//
//	go test ./serving/ -run '^$' -bench RestHTTP -benchmem
func BenchmarkRestHTTP(b *testing.B) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.URL.Path[len("/items/"):], 10, 64)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":%d,"name":"item-%d-name","price":%d.5}`, id, id, id)
	}))
	defer backend.Close()

	inst, err := Start(context.Background(), Options{
		Paths: []string{"../scripts/testdata/loopback/rest.hcl"}, HTTP: "127.0.0.1:0",
		Vars: map[string]string{"backend_url": backend.URL},
		HTTPLimits: HTTPLimits{HeaderTimeout: 10 * time.Second, BodyTimeout: 30 * time.Second,
			WriteTimeout: 60 * time.Second, IdleTimeout: 30 * time.Second, MaxInFlight: 64, MaxStreams: 4096,
			MaxSessions: 1000, SessionIdleTimeout: 30 * time.Minute},
		DrainTimeout: time.Second,
	})
	if err != nil {
		b.Fatal(err)
	}
	defer inst.Stop()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	bare := &http.Server{Handler: bareRest(backend.URL)}
	go bare.Serve(ln)
	defer bare.Close()

	call := benchCall{
		tool: "item",
		args: func(n int) string { return `{"id":` + strconv.Itoa(n%1000+1) + `}` },
		want: func(n int) string { return `"structuredContent":{"id":` + strconv.Itoa(n%1000+1) + `,` },
	}
	bareCall := call
	bareCall.want = func(n int) string { return `"text":"{\"id\":` + strconv.Itoa(n%1000+1) + `,` }
	var bareCPU, bareBytes float64
	b.Run("bare", func(b *testing.B) {
		bareCPU, bareBytes = runCallHTTP(b, "http://"+ln.Addr().String()+"/mcp", bareCall)
	})
	b.Run("mcpdecl", func(b *testing.B) {
		cpu, bytes := runCallHTTP(b, "http://"+inst.Addr().String()+"/mcp", call)
		if bareCPU > 0 {
			b.ReportMetric(cpu/bareCPU, "x-bare")
			b.ReportMetric(bytes-bareBytes, "B-alloc-over-bare")
		}
	})
}

// bareRest is the plain handler of the rest job: it GETs the item on its
// own keep-alive client and answers the body as a text block.
func bareRest(backend string) http.HandlerFunc {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Arguments struct {
					ID int64 `json:"id"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		get, err := http.NewRequestWithContext(r.Context(), http.MethodGet,
			backend+"/items/"+strconv.FormatInt(req.Params.Arguments.ID, 10), nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		resp, err := client.Do(get)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			http.Error(w, fmt.Sprint("backend: ", resp.Status, err), http.StatusBadGateway)
			return
		}
		writeTextResult(w, req.ID, string(body))
	}
}
