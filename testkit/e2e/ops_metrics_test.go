package e2e

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// scrape reads /metrics with Prometheus's own parser.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// metricValue is the value of the gauge or counter name whose labels,
// written "k=v,k=v" in name order, are exactly labels; -1 when there is
// no such sample.
func metricValue(families map[string]*dto.MetricFamily, name, labels string) float64 {
	for _, m := range families[name].GetMetric() {
		var pairs []string
		for _, l := range m.GetLabel() {
			pairs = append(pairs, l.GetName()+"="+l.GetValue())
		}
		if strings.Join(pairs, ",") != labels {
			continue
		}
		if m.Counter != nil {
			return m.Counter.GetValue()
		}
		return m.Gauge.GetValue()
	}
	return -1
}

// waitMetric scrapes until name{labels} is want, and fails the test if it
// never is.
func waitMetric(t *testing.T, base, name, labels string, want float64) {
	t.Helper()
	var got float64
	for range 500 {
		if got = metricValue(scrape(t, base), name, labels); got == want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s{%s} = %v, want %v", name, labels, got, want)
}

const poolsConfig = `
backend "sql" "orders" {
  driver         = "sqlite"
  dsn            = "file:orders.db"
  init_sql       = "orders.sql"
  read_only      = false
  max_open_conns = 3
}
tool "count_orders" {
  description = "Counts the orders."
  sql "orders" {
    query = "SELECT count(*) AS n FROM orders"
  }
}
`

// TestMetricsSQLPools: after calls from a real client, /metrics shows the
// pool of each SQL backend under its block's name: SQLite (two pools of 3,
// one for writes and one for reads) and PostgreSQL, where three calls at
// once through one connection wait for it.
func TestMetricsSQLPools(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "orders.sql"), "CREATE TABLE orders (id INTEGER PRIMARY KEY);\n")
	config := poolsConfig
	pgDSN := testenv.Postgres.Optional(t, "the PostgreSQL pool (only the SQLite one is checked)")
	if pgDSN != "" {
		config += `
backend "sql" "pg" {
  driver         = "postgres"
  dsn            = "` + pgDSN + `"
  max_open_conns = 1
}
tool "pg_nap" {
  description = "Holds the one connection a moment."
  sql "pg" {
    query = "SELECT 1 AS ok FROM pg_sleep(0.3)"
  }
}
`
	}
	path := filepath.Join(dir, "pools.hcl")
	writeTestFile(t, path, config)
	logs := &syncBuffer{}
	_, endpoint := serveBinary(t, []string{"--metrics", path}, nil, logs, true)
	base := strings.TrimSuffix(endpoint, "/mcp")
	cl := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint}, "2025-11-25")
	for range 3 {
		if res, err := cl.callTool(testCtx(t), "count_orders", nil); err != nil || res.IsError {
			t.Fatalf("count_orders: %+v %v\n%s", res, err, logs)
		}
	}
	if pgDSN != "" {
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				if res, err := cl.callTool(testCtx(t), "pg_nap", nil); err != nil || res.IsError {
					t.Errorf("pg_nap: %+v %v", res, err)
				}
			})
		}
		wg.Wait()
	}
	f := scrape(t, base)
	for _, c := range []struct {
		name string
		want float64
	}{
		{"mcpdecl_sql_pool_max_open_connections", 6},
		{"mcpdecl_sql_pool_in_use_connections", 0},
		{"mcpdecl_sql_pool_waits_total", 0},
	} {
		if got := metricValue(f, c.name, "backend=orders"); got != c.want {
			t.Errorf("%s{backend=orders} = %v, want %v", c.name, got, c.want)
		}
	}
	open, idle := metricValue(f, "mcpdecl_sql_pool_open_connections", "backend=orders"), metricValue(f, "mcpdecl_sql_pool_idle_connections", "backend=orders")
	if open < 1 || idle != open {
		t.Errorf("orders: %v open, %v idle; want at least one, all idle", open, idle)
	}
	if pgDSN == "" {
		return
	}
	if got := metricValue(f, "mcpdecl_sql_pool_max_open_connections", "backend=pg"); got != 1 {
		t.Errorf("pg: max open %v, want 1", got)
	}
	if got := metricValue(f, "mcpdecl_sql_pool_waits_total", "backend=pg"); got < 1 {
		t.Errorf("pg: %v waits for the one connection, want at least 1 of 3 calls at once", got)
	}
	if got := metricValue(f, "mcpdecl_sql_pool_wait_seconds_total", "backend=pg"); got <= 0 {
		t.Errorf("pg: %v s waited, want more than 0", got)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const tasksConfig = `
backend "shell" "local" {}
tool "sleeper" {
  description = "Sleeps for the given seconds."
  arg "seconds" {
    type = number
  }
  shell {
    command = ["sleep", args.seconds]
  }
  task {}
}
tool "chatty" {
  description = "Says more than its tasks keep."
  shell {
    command = ["seq", "1", "1000"]
  }
  task {
    max_result_bytes = 100
  }
}
`

// TestMetricsTasks: tasks this replica runs, counted by state while they
// run and by how they ended, with tasks in memory and in Redis.
func TestMetricsTasks(t *testing.T) {
	stores := []string{"memory"}
	if url := testenv.Redis.Optional(t, "tasks in Redis"); url != "" {
		stores = append(stores, testenv.OwnKeys(t, url))
	}
	for _, store := range stores {
		t.Run(strings.SplitN(store, ":", 2)[0], func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tasks.hcl")
			writeTestFile(t, path, tasksConfig)
			logs := &syncBuffer{}
			_, endpoint := serveBinary(t, []string{"--metrics", "--task-store", store, path}, nil, logs, true)
			base := strings.TrimSuffix(endpoint, "/mcp")
			secs := fmt.Sprintf("%d.%06d7", 300+rand.IntN(200), rand.IntN(1000000))
			t.Cleanup(func() { killSleeps(secs) })

			long := taskRPC(t, endpoint, "tools/call", "sleeper", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)
			id, _ := long["taskId"].(string)
			if id == "" {
				t.Fatalf("no task: %v\n%s", long, logs)
			}
			waitMetric(t, base, "mcpdecl_tasks", "state=working", 1)
			taskRPC(t, endpoint, "tools/call", "sleeper", `"name":"sleeper","arguments":{"seconds":0}`)
			waitMetric(t, base, "mcpdecl_tasks_ended_total", "state=completed", 1)
			taskRPC(t, endpoint, "tools/call", "chatty", `"name":"chatty","arguments":{}`)
			waitMetric(t, base, "mcpdecl_tasks_ended_total", "state=failed", 1)
			taskRPC(t, endpoint, "tasks/cancel", id, `"taskId":"`+id+`"`)
			waitMetric(t, base, "mcpdecl_tasks_ended_total", "state=cancelled", 1)
			f := scrape(t, base)
			for _, c := range []struct {
				name, labels string
				want         float64
			}{
				{"mcpdecl_tasks", "state=working", 0},
				{"mcpdecl_tasks", "state=input_required", 0},
				{"mcpdecl_tasks_ended_total", "state=completed", 1},
				{"mcpdecl_tasks_ended_total", "state=failed", 1},
			} {
				if got := metricValue(f, c.name, c.labels); got != c.want {
					t.Errorf("%s{%s} = %v, want %v", c.name, c.labels, got, c.want)
				}
			}
		})
	}
}

const streamsConfig = `
backend "shell" "local" {}
tool "echo" {
  description = "Echoes the text."
  arg "text" {
    type = string
  }
  shell {
    command = ["echo", args.text]
  }
}
tool "sleeper" {
  description = "Sleeps for the given seconds."
  arg "seconds" {
    type = number
  }
  shell {
    command = ["sleep", args.seconds]
  }
  task {}
}
`

// TestMetricsSessionsAndStreams: stateful 2025 sessions, their GET
// streams and 2026-07-28 listen streams are counted while open, and no
// longer once the client closes its session, a session expires idle, a
// client drops its stream, or the server shuts down.
func TestMetricsSessionsAndStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "streams.hcl")
	writeTestFile(t, path, streamsConfig)
	logs := &syncBuffer{}
	cmd, endpoint := serveBinary(t, []string{"--metrics", "--legacy-sessions", "--session-idle-timeout", "1s", "--drain-timeout", "20s", path}, nil, logs, false)
	base := strings.TrimSuffix(endpoint, "/mcp")

	// go-sdk holds a session and its GET stream until it closes them.
	sdk := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint}, "2025-11-25")
	if res, err := sdk.callTool(testCtx(t), "echo", map[string]any{"text": "hi"}); err != nil || res.IsError {
		t.Fatalf("echo: %+v %v\n%s", res, err, logs)
	}
	waitMetric(t, base, "mcpdecl_sessions_open", "", 1)
	waitMetric(t, base, "mcpdecl_streams_open", "kind=get", 1)
	sdk.close()
	waitMetric(t, base, "mcpdecl_streams_open", "kind=get", 0)
	waitMetric(t, base, "mcpdecl_sessions_open", "", 0)

	// A session left idle expires (--session-idle-timeout 1s).
	tr, err := mcpgotransport.NewStreamableHTTP(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	mg := connectMCPGo(t, tr, "2025-11-25")
	if res, err := mg.callTool(testCtx(t), "echo", map[string]any{"text": "hi"}); err != nil || res.IsError {
		t.Fatalf("echo: %+v %v\n%s", res, err, logs)
	}
	if got := metricValue(scrape(t, base), "mcpdecl_sessions_open", ""); got != 1 {
		t.Errorf("mcp-go's session: %v open, want 1", got)
	}
	waitMetric(t, base, "mcpdecl_sessions_open", "", 0)

	// A listen stream counts until its client goes away.
	stop := openListen(t, endpoint)
	waitMetric(t, base, "mcpdecl_streams_open", "kind=listen", 1)
	stop()
	waitMetric(t, base, "mcpdecl_streams_open", "kind=listen", 0)

	// One still open when the server shuts down ends with it; the server
	// serves /metrics while a task keeps the drain going.
	openListen(t, endpoint)
	waitMetric(t, base, "mcpdecl_streams_open", "kind=listen", 1)
	secs := fmt.Sprintf("%d.%06d7", 300+rand.IntN(200), rand.IntN(1000000))
	t.Cleanup(func() { killSleeps(secs) })
	taskRPC(t, endpoint, "tools/call", "sleeper", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitMetric(t, base, "mcpdecl_streams_open", "kind=listen", 0)
	if got := metricValue(scrape(t, base), "mcpdecl_tasks", "state=working"); got != 1 {
		t.Errorf("the draining task: %v working, want 1", got)
	}
}

// openListen opens a 2026-07-28 subscriptions/listen stream and reads its
// acknowledgment; the func it returns drops the stream.
func openListen(t *testing.T, endpoint string) func() {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	buf := make([]byte, 4096)
	n, _ := resp.Body.Read(buf)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(buf[:n]), "acknowledged") {
		t.Fatalf("subscriptions/listen: %s %s", resp.Status, buf[:n])
	}
	return func() { resp.Body.Close() }
}
