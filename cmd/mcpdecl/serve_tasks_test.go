package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/tasks"
)

const drainConfig = `
backend "shell" "local" {}

tool "sleeper" {
  description = "Sleeps for the given seconds."
  arg "seconds" {
    type = number
  }
  shell {
    command = ["sleep", args.seconds]
    timeout = "10m"
  }
  task {}
}
`

// TestServeDrainOnSIGTERM: the serve binary, its tasks in Redis. /readyz
// says ready and lists the backends; after SIGTERM it says draining
// (503) while a task runs; once --drain-timeout has passed the task is
// stopped (its command is gone) and recorded failed in the store, and the
// process exits cleanly.
func TestServeDrainOnSIGTERM(t *testing.T) {
	// The drain is tested with a shared task store.
	url := testenv.OwnKeys(t, testenv.Redis.Need(t))
	bin := buildBinary(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "drain.hcl")
	writeFile(t, config, drainConfig)
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--task-store", url, "--drain-timeout", "2s", config)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	base := waitListening(t, stderr)

	status, body := get(t, base+"/readyz")
	if status != 200 || body != "ready\nbackend local shell not checked\ntask_store redis ok\n" {
		t.Fatalf("/readyz before SIGTERM: %d %q", status, body)
	}
	secs := fmt.Sprintf("%d.%06d7", 3000+rand.IntN(600), rand.IntN(1000000))
	id := createSleepTask(t, base+"/mcp", secs)
	waitProcesses(t, secs, 1)

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body = get(t, base+"/readyz")
		if status == 503 && body == "draining\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz after SIGTERM: %d %q", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v; stderr:\n%s", err, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not exit; stderr:\n%s", stderr)
	}
	waitProcesses(t, secs, 0)
	store, err := tasks.OpenRedis(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	task, err := store.Get(context.Background(), id)
	if err != nil || task.Status != tasks.Failed || !strings.Contains(task.StatusMessage, "shut down") {
		t.Fatalf("the task after the drain: %+v, %v", task, err)
	}
	if !strings.Contains(stderr.String(), "recorded as failed") {
		t.Errorf("the log does not say tasks were stopped:\n%s", stderr)
	}
}

var listening = regexp.MustCompile(`on (http://[^ ]+)/mcp`)

func waitListening(t *testing.T, stderr *lockedBuffer) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := listening.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen; stderr:\n%s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func createSleepTask(t *testing.T, url, secs string) string {
	t.Helper()
	raw := callModern(t, url, "sleeper", `"arguments":{"seconds":`+secs+`}`, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
	var task struct {
		TaskID string `json:"taskId"`
	}
	if json.Unmarshal(raw, &task) != nil || task.TaskID == "" {
		t.Fatalf("no task: %s", raw)
	}
	return task.TaskID
}

// waitProcesses waits until `sleep secs` runs in want processes.
func waitProcesses(t *testing.T, secs string, want int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		n := 0
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
			if err == nil && string(b) == "sleep\x00"+secs+"\x00" {
				n++
			}
		}
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes `sleep %s`, want %d", n, secs, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeTaskLimitFlags: the bounds on finished tasks reach the store
// as counts and bytes; a negative bound is refused naming its flag.
func TestServeTaskLimitFlags(t *testing.T) {
	f := taskFlags{TaskResultsPerOwner: 7, TaskResultsAnonymous: 8, TaskResultsTotal: 9, TaskResultMibPerOwner: 1, TaskResultMibAnonymous: 2, TaskResultMibTotal: 3}
	l, err := f.taskLimits()
	want := tasks.Limits{PerOwner: 7, Anonymous: 8, Total: 9, PerOwnerBytes: 1 << 20, AnonymousBytes: 2 << 20, TotalBytes: 3 << 20}
	if err != nil || l != want {
		t.Fatalf("taskLimits = %+v, %v; want %+v", l, err, want)
	}
	f.TaskResultMibTotal = -1
	if _, err := f.taskLimits(); err == nil || !strings.Contains(err.Error(), "--task-result-mib-total is -1") {
		t.Fatalf("a negative bound: %v", err)
	}
}
