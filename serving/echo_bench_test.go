package serving

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkEchoHTTP calls scripts/bench-loopback.sh's echo tool (a
// 2026-07-28 tools/call) over loopback through everything serve puts in
// front of it (the routes, the Host and Origin rule, the HTTP limits at
// the serve flags' defaults), beside a plain net/http handler doing the
// same job with no MCP checks, on a real keep-alive client. Both lines
// count the client's allocations too; the difference is the server's.
// The mcpdecl line reports x-bare (its CPU time over the plain
// handler's in the same run) and B-alloc-over-bare, the bytes per call
// it allocates beyond the plain handler.
//
//	go test ./serving/ -run '^$' -bench EchoHTTP -benchmem
func BenchmarkEchoHTTP(b *testing.B) {
	compareWithBare(b, "../scripts/testdata/loopback/echo.hcl", nil, http.HandlerFunc(bareEcho), echoCall, echoCall)
}

// compareWithBare serves config (with vars) as serve does, at the serve
// flags' default limits, and the plain handler bare beside it, and runs
// call against each (bareCall against the plain handler, whose answer has
// its own shape): the mcpdecl line reports x-bare and B-alloc-over-bare.
func compareWithBare(b *testing.B, config string, vars map[string]string, bare http.Handler, call, bareCall benchCall) {
	inst, err := Start(context.Background(), Options{
		Paths: []string{config}, HTTP: "127.0.0.1:0", Vars: vars,
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
	plain := &http.Server{Handler: bare}
	go plain.Serve(ln)
	defer plain.Close()

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

// benchCall is one call of a benchmark: the tool, its arguments as JSON
// for call n, and a part its answer must hold.
type benchCall struct {
	tool string
	args func(n int) string
	want func(n int) string
}

// echoCall calls the echo tool with a text of its own each time.
var echoCall = benchCall{
	tool: "echo",
	args: func(n int) string { return `{"text":"hello ` + strconv.Itoa(n) + `"}` },
	want: func(n int) string { return `"text":"echo: hello ` + strconv.Itoa(n) + `"` },
}

// runCallHTTP makes b.N calls on one keep-alive connection, checks each
// answer, and returns the process's CPU time and bytes allocated per call.
func runCallHTTP(b *testing.B, url string, c benchCall) (cpuPerCall, bytesPerCall float64) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	call := func(n int) {
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(n) + `,"method":"tools/call","params":{"name":"` + c.tool +
			`","arguments":` + c.args(n) +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", c.tool)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		answer, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Contains(answer, []byte(c.want(n))) {
			b.Fatalf("call %d: %d %s %v", n, resp.StatusCode, answer, err)
		}
	}
	for n := range 50 { // the connection and the server's pools warm
		call(n)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := processCPU()
	b.ResetTimer()
	for n := range b.N {
		call(n)
	}
	b.StopTimer()
	cpu := processCPU() - cpu0
	runtime.ReadMemStats(&after)
	cpuPerCall = float64(cpu.Nanoseconds()) / float64(b.N)
	bytesPerCall = float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
	b.ReportMetric(cpuPerCall, "cpu-ns/op")
	return cpuPerCall, bytesPerCall
}

// bareEcho is the plain handler: no header, version or argument checks.
func bareEcho(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Params struct {
			Arguments struct {
				Text string `json:"text"`
			} `json:"arguments"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeTextResult(w, req.ID, "echo: "+req.Params.Arguments.Text)
}

// writeTextResult answers the call id with one text block, as the plain
// handlers do.
func writeTextResult(w http.ResponseWriter, id json.RawMessage, text string) {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type result struct {
		Content    []block `json:"content"`
		IsError    bool    `json:"isError"`
		ResultType string  `json:"resultType"`
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  result          `json:"result"`
	}{"2.0", id, result{[]block{{"text", text}}, false, "complete"}})
}

// processCPU is the process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
