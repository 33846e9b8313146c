package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// redisProcess is a redis-server of the test's own, on a loopback port,
// keeping nothing on disk.
type redisProcess struct {
	t    *testing.T
	port int
	cmd  *exec.Cmd
}

// startRedis starts redis-server on port (0: a free one) and waits until
// it answers.
func startRedis(t *testing.T, port int) *redisProcess {
	t.Helper()
	bin := testenv.Command(t, "redis-server", "apt-get install redis-server (the test starts and kills its own)")
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &redisProcess{t: t, port: port, cmd: cmd}
	t.Cleanup(p.kill)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", p.addr())
		if err == nil {
			_, _ = c.Write([]byte("PING\r\n"))
			buf := make([]byte, 7)
			_ = c.SetReadDeadline(time.Now().Add(time.Second))
			n, _ := c.Read(buf)
			c.Close()
			if strings.HasPrefix(string(buf[:n]), "+PONG") {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on port %d never answered", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *redisProcess) addr() string { return "127.0.0.1:" + strconv.Itoa(p.port) }
func (p *redisProcess) url() string  { return "redis://" + p.addr() + "/0" }

// kill ends the server at once (as a crash would) and waits for it.
func (p *redisProcess) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// TestTaskStoreOutage: while Redis is down every task method answers
// -32603 "the task store cannot be reached" (creating a task said "task
// id already in use", reading one "could not be stored", listing blamed
// the client's cursor with -32602); the server logs the outage once, not
// once per call, and logs when Redis answers again, after which tasks
// work as before.
func TestTaskStoreOutage(t *testing.T) {
	rp := startRedis(t, 0)
	store, err := tasks.OpenRedis(context.Background(), rp.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	var logs syncBuffer
	a := newReplica(t, store, &server.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	session := startSession(t, a.url, "poller", "")

	before := a.rpc(t, "tools/call", `"name":"quick","arguments":{"word":"up"}`)["taskId"].(string)
	a.waitFor(t, before, "completed", status("completed"))
	if l := session.listed(); l != "[]" {
		t.Fatalf("a new session's tasks/list: %s", l)
	}

	rp.kill()
	calls := 0
	down := func(what string, e map[string]any) {
		t.Helper()
		calls++
		if e == nil || e["code"] != -32603.0 || !strings.Contains(fmt.Sprint(e["message"]), "the task store cannot be reached") {
			t.Fatalf("%s with Redis down: %v, want -32603 the task store cannot be reached", what, e)
		}
	}
	for range 3 {
		_, e := a.try(t, tasksCaps, "tools/call", `"name":"quick","arguments":{"word":"down"}`)
		down("tools/call", e)
		for _, m := range []string{"tasks/get", "tasks/cancel"} {
			_, e = a.try(t, tasksCaps, m, `"taskId":"`+before+`"`)
			down(m, e)
		}
		_, e = session.try("tasks/list", "")
		down("tasks/list", e)
		_, e = session.try("tasks/get", `"taskId":"`+before+`"`)
		down("2025 tasks/get", e)
		_, e = session.try("tools/call", `"name":"quick","arguments":{"word":"down"},"task":{}`)
		down("2025 tools/call", e)
	}

	// The outage so far: one line when it began, few repeats.
	during := logs.String()
	began := strings.Count(during, `"msg":"task store unreachable`)
	still := strings.Count(during, `"msg":"task store still unreachable"`)
	if began != 1 || still >= calls/2 {
		t.Fatalf("%d failed calls logged %d outage lines and %d repeats; want 1 and few:\n%s", calls, began, still, during)
	}

	startRedis(t, rp.port)
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	// Right after the restart the client may still refuse for a moment
	// (it probes the server again before dialling); then tasks work.
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, e := a.try(t, tasksCaps, "tools/call", `"name":"quick","arguments":{"word":"back"}`)
		if e == nil {
			id, _ := res["taskId"].(string)
			got, e := awaitEnd(t, a, id)
			if e == nil && got["status"] == "completed" {
				if !strings.Contains(fmt.Sprint(got["result"]), "echo: back") {
					t.Fatalf("the task after the outage: %v", got)
				}
				break
			}
		}
		if e != nil && e["code"] != -32603.0 {
			t.Fatalf("after Redis came back: %v", e)
		}
		if time.Now().After(deadline) {
			t.Fatalf("tasks never worked again once Redis answered: %v", e)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if l := session.listed(); l != "[]" { // the restarted Redis kept nothing
		t.Fatalf("tasks/list after the outage: %s", l)
	}
	if _, e := session.try("tasks/list", `"cursor":"AAAAAAAAAAAAAAAAAAAAAA"`); e == nil || e["code"] != -32602.0 {
		t.Fatalf("a cursor naming no task, Redis up: %v", e)
	}
	text := logs.String()
	if !strings.Contains(text, `"msg":"task store reachable again"`) {
		t.Fatalf("no line said the store came back:\n%s", text)
	}
	for _, bad := range []string{"already in use", "could not be stored", "invalid cursor"} {
		if strings.Contains(text, bad) {
			t.Fatalf("the log blames something else (%q):\n%s", bad, text)
		}
	}
}

// awaitEnd polls a task until it ends (10 s at most), returning the first
// error met.
func awaitEnd(t *testing.T, r *replica, id string) (map[string]any, map[string]any) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, e := r.try(t, tasksCaps, "tasks/get", `"taskId":"`+id+`"`)
		if e != nil || got["status"] != "working" || time.Now().After(deadline) {
			return got, e
		}
		time.Sleep(50 * time.Millisecond)
	}
}
