package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// rollingConfig has a quick tool for the steady load and a slow one that
// keeps a replica draining for a while after SIGTERM (it finishes the
// call), which is when it refuses new requests with 503.
const rollingConfig = `
server {
  name    = "rolling"
  version = "1.0.0"
}

tool "echo" {
  description = "Says the word back."
  arg "word" {
    type = string
  }
  shell {
    command = ["echo", args.word]
  }
}

tool "slow" {
  description = "Sleeps a second, then answers."
  shell {
    command = ["sh", "-c", "sleep 1; echo done"]
  }
}
`

// TestRollingRestartBehindNginx restarts each of three replicas in turn
// (SIGTERM, wait for the exit, start it again on its port) behind the
// shipped nginx configuration, while several clients send stateless
// 2026-07-28 calls without pause. Every call must succeed: the requests a
// draining replica refuses are retried by nginx on another replica.
func TestRollingRestartBehindNginx(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "rolling.hcl")
	if err := os.WriteFile(config, []byte(rollingConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startCluster(t, config)

	var sent, lost atomic.Int64
	var mu sync.Mutex
	var failures []string
	stop := make(chan struct{})
	var load sync.WaitGroup
	for g := 0; g < 6; g++ {
		load.Add(1)
		go func() {
			defer load.Done()
			client := &http.Client{Timeout: 30 * time.Second}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				word := fmt.Sprintf("w%d_%d", g, i)
				sent.Add(1)
				if err := statelessCall(client, c.url, "echo", `{"word":"`+word+`"}`, word); err != nil {
					lost.Add(1)
					mu.Lock()
					if len(failures) < 10 {
						failures = append(failures, err.Error())
					}
					mu.Unlock()
				}
			}
		}()
	}

	for i := range c.replicas {
		// A call in flight on the replica keeps it draining for a second.
		slow := make(chan error, 1)
		go func() {
			slow <- statelessCall(&http.Client{Timeout: 30 * time.Second}, c.replicas[i], "slow", `{}`, "done")
		}()
		c.waitInFlight(t, i)
		before := sent.Load()
		c.restart(t, i, config)
		if err := <-slow; err != nil {
			t.Errorf("replica %d: the call in flight at SIGTERM: %v", i+1, err)
		}
		// Load kept flowing through the restart.
		for sent.Load() < before+20 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	close(stop)
	load.Wait()

	drained := 0
	if b, err := os.ReadFile(filepath.Join(c.dir, "nginx-access.log")); err == nil {
		// The last field is every upstream's status, "503, 200" for a retry.
		drained = strings.Count(string(b), "503, ")
	}
	t.Logf("rolling restart of 3 replicas: %d calls sent, %d lost; nginx retried %d refusals of draining replicas", sent.Load(), lost.Load(), drained)
	if lost.Load() != 0 {
		t.Errorf("%d of %d calls lost during the rolling restart, e.g.:\n%s", lost.Load(), sent.Load(), strings.Join(failures, "\n"))
	}
}

// statelessCall makes one 2026-07-28 tools/call and checks its text.
func statelessCall(client *http.Client, url, tool, args, want string) error {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(raw, &m) != nil || m.Error != nil || m.Result.IsError ||
		len(m.Result.Content) != 1 || strings.TrimSpace(m.Result.Content[0].Text) != want {
		return fmt.Errorf("%s %s: %d %s", tool, args, resp.StatusCode, raw)
	}
	return nil
}

// waitInFlight waits until replica i runs a call (its slow tool's sleep).
func (c *cluster) waitInFlight(t *testing.T, i int) {
	t.Helper()
	pid := c.pid(t, i)
	for n := 0; n < 1000; n++ {
		out, _ := exec.Command("pgrep", "-P", fmt.Sprint(pid)).Output()
		if len(strings.TrimSpace(string(out))) > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("replica %d never started the slow call", i+1)
}

// pid is replica i's process id (the line i of DIR/pids).
func (c *cluster) pid(t *testing.T, i int) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, "pids"))
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(strings.Split(strings.TrimSpace(string(b)), "\n")[i], &pid)
	return pid
}

// restart stops replica i with SIGTERM, waits until its process is gone,
// and starts it again on the same address with the same key file; it
// returns once the new process answers /healthz. DIR/pids gets the new
// process, so that replicas.sh stop ends it.
func (c *cluster) restart(t *testing.T, i int, config string, flags ...string) {
	t.Helper()
	pid := c.pid(t, i)
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for alive(pid) {
		time.Sleep(10 * time.Millisecond)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(c.replicas[i], "http://"), "/mcp")
	logf, err := os.OpenFile(filepath.Join(c.dir, fmt.Sprintf("replica-%d.log", i+1)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	args := append([]string{"serve", "--http", addr, "--state-key-file", filepath.Join(c.dir, "state.keys")}, flags...)
	cmd := exec.Command(binPath, append(args, config)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait() // reaps it when replicas.sh stop ends it
	b, _ := os.ReadFile(filepath.Join(c.dir, "pids"))
	pids := strings.Split(strings.TrimSpace(string(b)), "\n")
	pids[i] = fmt.Sprint(cmd.Process.Pid)
	if err := os.WriteFile(filepath.Join(c.dir, "pids"), []byte(strings.Join(pids, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	health := strings.TrimSuffix(c.replicas[i], "/mcp") + "/healthz"
	for n := 0; n < 1000; n++ {
		if res, err := http.Get(health); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("replica %d did not come back on %s", i+1, addr)
}

// alive reports a process that has not exited: one that exists and is not
// a zombie (replicas.sh's replicas are reaped by whoever adopted them).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
