package e2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// lifecycleConfig serves an SQLite database; every answer names the
// generation it comes from.
func lifecycleConfig(db, gen string) string {
	return fmt.Sprintf(`
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:%s?mode=rwc"
}
tool "probe" {
  description = "Answers the generation."
  sql "db" {
    query = "SELECT '%s' AS gen"
  }
  result {
    text = "rows[0].gen"
  }
}
tool "slow" {
  description = "Counts for a while, then answers the generation."
  sql "db" {
    query = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 2000000) SELECT '%s' AS gen, count(*) AS n FROM c"
  }
  result {
    text = "rows[0].gen"
  }
}
`, db, gen, gen)
}

// reloadingServer is `mcpdecl serve --http` that the test reloads.
type reloadingServer struct {
	cmd      *exec.Cmd
	endpoint string
	logs     *syncBuffer
}

func startReloading(t *testing.T, config string) *reloadingServer {
	t.Helper()
	s := &reloadingServer{logs: &syncBuffer{}}
	s.cmd, s.endpoint = serveBinary(t, []string{config}, nil, s.logs, true)
	return s
}

// call runs a tool with a 2026-07-28 request and returns its text.
func (s *reloadingServer) call(t *testing.T, tool string) string {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":%q,"io.modelcontextprotocol/clientCapabilities":{}}}}`, tool, mcp.Version20260728)
	req, err := http.NewRequest(http.MethodPost, s.endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`"text":"([^"]*)"`).FindSubmatch(b)
	if m == nil || strings.Contains(string(b), `"isError":true`) {
		t.Fatalf("%s answered %s", tool, b)
	}
	return string(m[1])
}

// reload rewrites the configuration, sends SIGHUP and waits until the
// server says it reloaded.
func (s *reloadingServer) reload(t *testing.T, config, content string) {
	t.Helper()
	before := strings.Count(s.logs.String(), "configuration reloaded")
	if err := os.WriteFile(config, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(s.logs.String(), "configuration reloaded") == before {
		if time.Now().After(deadline) {
			t.Fatalf("no reload within 20s; stderr:\n%s", s.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// openFiles counts the server's file descriptors on the database.
func (s *reloadingServer) openFiles(t *testing.T, db string) int {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", s.cmd.Process.Pid)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(target, db) {
			n++
		}
	}
	return n
}

// TestHostileReloadReleasesBackends: each SIGHUP reload closes the
// previous configuration's connections as soon as no call uses them, so
// reloads do not pile up open files; a call running across a reload
// finishes on the configuration it started with.
func TestHostileReloadReleasesBackends(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts open files through /proc")
	}
	dir := t.TempDir()
	db, config := filepath.Join(dir, "gen.db"), filepath.Join(dir, "gen.hcl")
	if err := os.WriteFile(config, []byte(lifecycleConfig(db, "g0")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startReloading(t, config)
	if got := s.call(t, "probe"); got != "g0" {
		t.Fatalf("probe answered %q, want g0", got)
	}
	baseline := s.openFiles(t, db)
	if baseline == 0 {
		t.Fatal("the server has no open file on the database; the count below would prove nothing")
	}

	// A slow call started before a reload answers from its own generation.
	slow := make(chan string, 1)
	go func() { slow <- s.call(t, "slow") }()
	time.Sleep(50 * time.Millisecond)
	s.reload(t, config, lifecycleConfig(db, "g1"))
	if got := <-slow; got != "g0" {
		t.Errorf("the call in flight answered %q, want g0", got)
	}

	for i := 2; i <= 6; i++ {
		gen := fmt.Sprintf("g%d", i)
		s.reload(t, config, lifecycleConfig(db, gen))
		if got := s.call(t, "probe"); got != gen {
			t.Fatalf("after reload %d probe answered %q, want %s", i, got, gen)
		}
	}
	if n := s.openFiles(t, db); n > baseline {
		t.Errorf("after 6 reloads the server holds %d files of the database open, %d before: the previous generations were not closed", n, baseline)
	}
}
