package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// TestReplicaKilledMidTask: three replicas share Redis for their tasks. A
// task runs on replica 1, which is killed (SIGKILL, nothing recorded);
// replica 2 reports the task "working" until the lease runs out, then
// "failed" with a message saying its server stopped.
func TestReplicaKilledMidTask(t *testing.T) {
	url := testenv.OwnKeys(t, testenv.Redis.Need(t))
	c := startCluster(t, repoPath(t, "testdata/conformance/everything.hcl"), "--task-store", url, "--task-lease", "1s")
	secs := fmt.Sprintf("%d.%06d7", 300+rand.IntN(200), rand.IntN(1000000))
	t.Cleanup(func() { killSleeps(secs) })
	created := taskRPC(t, c.replicas[0], "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":`+secs+`}`)
	id, _ := created["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", created)
	}
	if got := taskRPC(t, c.replicas[1], "tasks/get", id, `"taskId":"`+id+`"`); got["status"] != "working" {
		t.Fatalf("replica 2 sees %v", got)
	}
	pids, err := os.ReadFile(filepath.Join(c.dir, "pids"))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := strconv.Atoi(strings.Fields(string(pids))[0])
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := taskRPC(t, c.replicas[1], "tasks/get", id, `"taskId":"`+id+`"`)
		if got["status"] == "failed" {
			e, _ := got["error"].(map[string]any)
			if e["code"] != -32603.0 || !strings.Contains(fmt.Sprint(got["statusMessage"]), "stopped before it finished") {
				t.Fatalf("failed task: %v", got)
			}
			return
		}
		if got["status"] != "working" || time.Now().After(deadline) {
			t.Fatalf("task of the killed replica: %v", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// taskRPC posts one 2026-07-28 request declaring the tasks extension to
// one replica and returns its result.
func taskRPC(t *testing.T, url, method, name, params string) map[string]any {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Error != nil {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, raw)
	}
	return m.Result
}

// killSleeps ends the `sleep secs` a killed replica left behind.
func killSleeps(secs string) {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !bytes.Equal(b, []byte("sleep\x00"+secs+"\x00")) {
			continue
		}
		if pid, err := strconv.Atoi(d.Name()); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
