package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// TestPrometheusScrapes: a real Prometheus (Debian's package; .ci/run
// installs it) scrapes `serve --metrics` on loopback, and its query API
// returns the series of a call a real client made, and the SQL pool's.
func TestPrometheusScrapes(t *testing.T) {
	// Without it, /metrics is still read with Prometheus's parser by the
	// other metrics tests.
	prom := testenv.Command(t, "prometheus", "apt-get install prometheus (the test starts its own; .ci/run installs it)")
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "orders.sql"), "CREATE TABLE orders (id INTEGER PRIMARY KEY);\n")
	config := filepath.Join(dir, "pools.hcl")
	writeTestFile(t, config, poolsConfig)
	logs := &syncBuffer{}
	_, endpoint := serveBinary(t, []string{"--metrics", config}, nil, logs, true)
	target := strings.TrimPrefix(strings.TrimSuffix(endpoint, "/mcp"), "http://")
	cl := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint}, "2025-11-25")
	if res, err := cl.callTool(testCtx(t), "count_orders", nil); err != nil || res.IsError {
		t.Fatalf("count_orders: %+v %v\n%s", res, err, logs)
	}

	promConfig := filepath.Join(dir, "prometheus.yml")
	writeTestFile(t, promConfig, fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: mcpdecl
    static_configs:
      - targets: [%q]
`, target))
	promAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	promLogs := &syncBuffer{}
	cmd := exec.Command(prom, "--config.file="+promConfig, "--storage.tsdb.path="+filepath.Join(dir, "tsdb"),
		"--web.listen-address="+promAddr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = promLogs, promLogs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	for _, q := range []struct{ query, want string }{
		{`mcpdecl_calls_total{kind="tool",name="count_orders",outcome="ok"}`, "1"},
		{`mcpdecl_sql_pool_max_open_connections{backend="orders"}`, "6"},
		{`mcpdecl_streams_open{kind="listen"}`, "0"},
	} {
		var got string
		for range 300 {
			if got = promQuery(promAddr, q.query); got == q.want {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got != q.want {
			t.Errorf("Prometheus has %s = %q, want %q\nprometheus log:\n%s", q.query, got, q.want, promLogs)
		}
	}
}

// promQuery asks Prometheus's HTTP API for the value of an instant query
// with one series; "" when there is none (yet).
func promQuery(addr, query string) string {
	resp, err := http.Get("http://" + addr + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Value []any `json:"value"` // [time, "value"]
			} `json:"result"`
		} `json:"data"`
	}
	if json.NewDecoder(resp.Body).Decode(&body) != nil || body.Status != "success" || len(body.Data.Result) != 1 || len(body.Data.Result[0].Value) != 2 {
		return ""
	}
	v, _ := body.Data.Result[0].Value[1].(string)
	return v
}
