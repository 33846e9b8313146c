package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// taskConfig has a command that sleeps (found by its unique duration in
// the process table), one that reports progress, a quick one, and a tool
// whose task asks the user a question.
const taskConfig = `
tool "sleeper" {
  description = "Sleeps for the given seconds."
  arg "seconds" {
    type = number
  }
  shell {
    command = ["sleep", args.seconds]
    timeout = "10m"
  }
  result {
    text = "'slept'"
  }
  task {
    poll_interval = "100ms"
  }
}

tool "stepper" {
  description = "Reports progress, then waits."
  shell {
    command          = ["sh", "-c", "echo 'step 1/2'; sleep 30"]
    progress_pattern = "^step (\\d+)/(\\d+)$"
    timeout          = "1m"
  }
  task {}
}

tool "quick" {
  description = "Answers at once, from a task that expires after a second."
  arg "word" {
    type = string
  }
  content "text" {
    text = "echo: ${args.word}"
  }
  task {
    ttl           = "1s"
    poll_interval = "100ms"
  }
}

tool "must_task" {
  description = "Runs only as a task."
  content "text" {
    text = "done"
  }
  task {
    mode = "required"
  }
}

tool "confirm" {
  description = "Asks for a confirmation from the task."
  elicit {
    key              = "ok"
    message          = "Go on?"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } }, required = ["ok"] }
  }
  result {
    text = "'confirmed: ' + string(elicit.content.ok)"
  }
  task {}
}
`

// replica is one server instance over HTTP, as a replica behind a load
// balancer would be; replicas of one test share a task store.
type replica struct {
	srv *server.Server
	url string
	log *wireLog
}

func newReplica(t *testing.T, store tasks.Store, opts *server.Options) *replica {
	t.Helper()
	return newReplicaOf(t, taskConfig, store, opts)
}

// newReplicaOf is newReplica serving another configuration.
func newReplicaOf(t *testing.T, config string, store tasks.Store, opts *server.Options) *replica {
	t.Helper()
	return newReplicaHTTP(t, config, store, opts, nil)
}

// newReplicaHTTP is newReplicaOf with HTTP options (legacy sessions, a
// token guard: hopts.Guard set to nil is given the server's Guard when
// opts.HTTPAuth is set).
func newReplicaHTTP(t *testing.T, config string, store tasks.Store, opts *server.Options, hopts *mcp.HTTPOptions) *replica {
	t.Helper()
	cfg, diags := lang.LoadSource("tasks.hcl", []byte(config))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if opts == nil {
		opts = &server.Options{}
	}
	opts.TaskStore = store
	srv, err := server.Open(context.Background(), tbl, opts)
	if err != nil {
		t.Fatal(err)
	}
	if hopts != nil && opts.HTTPAuth && hopts.Guard == nil {
		hopts.Guard, hopts.Principal = srv.Guard, server.Principal
	}
	log := &wireLog{}
	ts := httptest.NewServer(&httpTap{next: mcp.NewServer(srv, nil).HTTPHandler(hopts), log: log})
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = srv.DrainTasks(ctx)
		srv.Close()
	})
	return &replica{srv: srv, url: ts.URL, log: log}
}

const tasksCaps = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// rpc sends one 2026-07-28 request with the headers the revision requires
// and returns its result, or fails the test on an error.
func (r *replica) rpc(t *testing.T, method, params string, header ...string) map[string]any {
	t.Helper()
	res, e := r.try(t, tasksCaps, method, params, header...)
	if e != nil {
		t.Fatalf("%s %s: error %v", method, params, e)
	}
	return res
}

// try is rpc that returns a JSON-RPC error instead of failing.
func (r *replica) try(t *testing.T, caps, method, params string, header ...string) (map[string]any, map[string]any) {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + meta
	if params != "" {
		body += "," + params
	}
	body += "}}"
	req, _ := http.NewRequest("POST", r.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	var p struct {
		Name   string `json:"name"`
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal([]byte("{"+params+"}"), &p)
	if p.Name != "" {
		req.Header.Set("Mcp-Name", p.Name)
	}
	if p.TaskID != "" {
		req.Header.Set("Mcp-Name", p.TaskID)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return roundTrip(t, req)
}

func roundTrip(t *testing.T, req *http.Request) (map[string]any, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	msgs := wiretest.SplitHTTPMessages(resp.Header.Get("Content-Type"), b)
	if len(msgs) == 0 {
		t.Fatalf("no answer (HTTP %d)", resp.StatusCode)
	}
	var m struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal(msgs[len(msgs)-1], &m); err != nil {
		t.Fatalf("answer is not JSON: %s", b)
	}
	return m.Result, m.Error
}

// waitFor polls tasks/get on r until cond holds (10 s at most).
func (r *replica) waitFor(t *testing.T, id string, what string, cond func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := r.rpc(t, "tasks/get", `"taskId":"`+id+`"`)
		if cond(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s never became %s; last: %v", id, what, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func status(s string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["status"] == s }
}

// uniqueSeconds is a duration no other test sleeps, written as the
// command line shows it (no trailing zero).
func uniqueSeconds() string {
	return fmt.Sprintf("%d.%06d7", 3000+rand.IntN(600), rand.IntN(1000000))
}

// sleepers counts the processes running `sleep <arg>`.
func sleepers(arg string) int {
	n := 0
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && bytes.Equal(b, []byte("sleep\x00"+arg+"\x00")) {
			n++
		}
	}
	return n
}

func waitSleepers(t *testing.T, arg string, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for sleepers(arg) != want {
		if time.Now().After(deadline) {
			t.Fatalf("%d processes `sleep %s`, want %d", sleepers(arg), arg, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// taskStores are the shared stores the replica tests run on: one memory
// store shared in process, and Redis when MCPDECL_TEST_REDIS_URL is set
// (each replica with its own connection, as separate processes have).
func taskStores(t *testing.T) map[string]func() tasks.Store {
	mem := tasks.NewMemory()
	out := map[string]func() tasks.Store{"memory": func() tasks.Store { return mem }}
	url := testenv.Redis.Optional(t, "replicas sharing Redis")
	if url == "" {
		return out
	}
	prefix := fmt.Sprintf("mcpdecl-test-%d:", rand.Int64())
	out["redis"] = func() tasks.Store {
		r, err := tasks.OpenRedis(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Close() })
		return r.WithPrefix(prefix)
	}
	return out
}

// TestTasksAcrossReplicas: a task created on replica A is polled, shows
// its progress, is cancelled and has its result fetched on replica B; the
// cancellation reaches A, whose command is gone afterwards.
func TestTasksAcrossReplicas(t *testing.T) {
	requireSchemas(t)
	for name, open := range taskStores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := newReplica(t, open(), nil), newReplica(t, open(), nil)
			secs := uniqueSeconds()
			created := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)
			id, _ := created["taskId"].(string)
			if created["resultType"] != "task" || len(id) < 20 || created["status"] != "working" || created["pollIntervalMs"] != 100.0 {
				t.Fatalf("CreateTaskResult: %v", created)
			}
			if _, ok := created["ttlMs"].(float64); !ok {
				t.Fatalf("no ttlMs: %v", created)
			}
			got := b.rpc(t, "tasks/get", `"taskId":"`+id+`"`)
			if got["taskId"] != id || got["resultType"] != "complete" || got["result"] != nil {
				t.Fatalf("tasks/get on B: %v", got)
			}
			waitSleepers(t, secs, 1)
			if ack := b.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`); ack["resultType"] != "complete" || ack["taskId"] != nil {
				t.Fatalf("cancel ack: %v", ack)
			}
			waitSleepers(t, secs, 0) // A ended the command
			a.waitFor(t, id, "cancelled", status("cancelled"))

			// Progress becomes the status message, seen on B.
			step := a.rpc(t, "tools/call", `"name":"stepper"`)
			b.waitFor(t, step["taskId"].(string), "step 1/2", func(m map[string]any) bool { return m["statusMessage"] == "step 1/2" })
			b.rpc(t, "tasks/cancel", `"taskId":"`+step["taskId"].(string)+`"`)

			// A quick task's result, fetched on B.
			q := a.rpc(t, "tools/call", `"name":"quick","arguments":{"word":"hi"}`)
			done := b.waitFor(t, q["taskId"].(string), "completed", status("completed"))
			res, _ := done["result"].(map[string]any)
			content, _ := res["content"].([]any)
			if len(content) != 1 || content[0].(map[string]any)["text"] != "echo: hi" || res["resultType"] != "complete" {
				t.Fatalf("inlined result: %v", done)
			}
			a.log.verify(t)
			b.log.verify(t)
		})
	}
}

// TestTaskQuestionsAnsweredOnAnotherReplica: a running task asks its
// question through the store; the answer is sent to replica B, and the
// task on A goes on.
func TestTaskQuestionsAnsweredOnAnotherReplica(t *testing.T) {
	for name, open := range taskStores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := newReplica(t, open(), nil), newReplica(t, open(), nil)
			id := a.rpc(t, "tools/call", `"name":"confirm"`)["taskId"].(string)
			asked := b.waitFor(t, id, "input_required", status("input_required"))
			reqs, _ := asked["inputRequests"].(map[string]any)
			ok, _ := reqs["ok"].(map[string]any)
			if ok["method"] != "elicitation/create" {
				t.Fatalf("inputRequests: %v", asked)
			}
			b.rpc(t, "tasks/update", `"taskId":"`+id+`","inputResponses":{"ok":{"action":"accept","content":{"ok":true}}}`)
			done := a.waitFor(t, id, "completed", status("completed"))
			if !strings.Contains(fmt.Sprint(done["result"]), "confirmed: true") {
				t.Fatalf("result: %v", done)
			}
		})
	}
}

// TestTaskAbandonedByItsReplica: a task whose replica died (its lease
// runs out without renewal) is reported failed, with a message saying so,
// by any replica that reads it; nobody sees it "working" forever.
func TestTaskAbandonedByItsReplica(t *testing.T) {
	for name, open := range taskStores(t) {
		t.Run(name, func(t *testing.T) {
			store := open()
			b := newReplica(t, open(), nil)
			now := time.Now()
			dead := &tasks.Task{ID: "abandoned-" + name + fmt.Sprint(rand.Int64()), Status: tasks.Working, CreatedAt: now, UpdatedAt: now,
				TTL: time.Hour, Runner: "gone", LeaseUntil: now.Add(300 * time.Millisecond)}
			if err := store.Create(context.Background(), dead); err != nil {
				t.Fatal(err)
			}
			got := b.waitFor(t, dead.ID, "failed", status("failed"))
			e, _ := got["error"].(map[string]any)
			if e["code"] != -32603.0 || !strings.Contains(fmt.Sprint(got["statusMessage"]), "stopped before it finished") {
				t.Fatalf("abandoned task: %v", got)
			}
		})
	}
}

// TestTaskResultExpires: a task is gone once its TTL has passed.
func TestTaskResultExpires(t *testing.T) {
	for name, open := range taskStores(t) {
		t.Run(name, func(t *testing.T) {
			a := newReplica(t, open(), nil)
			id := a.rpc(t, "tools/call", `"name":"quick","arguments":{"word":"x"}`)["taskId"].(string)
			a.waitFor(t, id, "completed", status("completed"))
			deadline := time.Now().Add(15 * time.Second)
			for {
				_, e := a.try(t, tasksCaps, "tasks/get", `"taskId":"`+id+`"`)
				if e != nil && e["code"] == -32602.0 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the task outlived its 1 s TTL by far (error %v)", e)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// TestTaskOwnership: with an identity, a task is visible only to the
// identity that created it: to others it does not exist.
func TestTaskOwnership(t *testing.T) {
	ident := func(_ context.Context, req *mcp.Request) string { return req.Header.Get("X-Test-User") }
	a := newReplica(t, tasks.NewMemory(), &server.Options{Identity: ident})
	secs := uniqueSeconds()
	id := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`, "X-Test-User", "alice")["taskId"].(string)
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		if _, e := a.try(t, tasksCaps, m, `"taskId":"`+id+`"`, "X-Test-User", "bob"); e == nil || e["code"] != -32602.0 {
			t.Fatalf("%s by another identity: %v", m, e)
		}
		if _, e := a.try(t, tasksCaps, m, `"taskId":"`+id+`"`); e == nil || e["code"] != -32602.0 {
			t.Fatalf("%s without an identity: %v", m, e)
		}
	}
	if got := a.rpc(t, "tasks/get", `"taskId":"`+id+`"`, "X-Test-User", "alice"); got["status"] != "working" {
		t.Fatalf("the owner's tasks/get: %v", got)
	}
	a.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`, "X-Test-User", "alice")
	waitSleepers(t, secs, 0)
}

// TestTaskRequiredWithoutExtension: a tool that must run as a task is
// refused with -32021 naming the extension to a client that did not
// declare it; an optional one runs synchronously for it.
func TestTaskRequiredWithoutExtension(t *testing.T) {
	a := newReplica(t, tasks.NewMemory(), nil)
	_, e := a.try(t, `{}`, "tools/call", `"name":"must_task"`)
	data, _ := e["data"].(map[string]any)
	if e["code"] != -32021.0 || !strings.Contains(fmt.Sprint(data), mcp.ExtensionTasks) {
		t.Fatalf("required task without the extension: %v", e)
	}
	res, e := a.try(t, `{}`, "tools/call", `"name":"quick","arguments":{"word":"sync"}`)
	if e != nil || res["resultType"] != "complete" || res["taskId"] != nil {
		t.Fatalf("optional task without the extension: %v %v", res, e)
	}
	if _, e := a.try(t, `{}`, "tasks/get", `"taskId":"x"`); e == nil || e["code"] != -32021.0 {
		t.Fatalf("tasks/get without the extension: %v", e)
	}
}

// TestTaskDrain: a drain that runs out of time stops the running task and
// records it failed, so a rolling update leaves nothing "working".
func TestTaskDrain(t *testing.T) {
	store := tasks.NewMemory()
	a := newReplica(t, store, nil)
	secs := uniqueSeconds()
	id := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)["taskId"].(string)
	waitSleepers(t, secs, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	n, err := a.srv.DrainTasks(ctx)
	if n != 1 || err != nil {
		t.Fatalf("DrainTasks = %d, %v", n, err)
	}
	waitSleepers(t, secs, 0)
	got, err := store.Get(context.Background(), id)
	if err != nil || got.Status != tasks.Failed || !strings.Contains(got.StatusMessage, "shut down") {
		t.Fatalf("after the drain: %+v, %v", got, err)
	}
	if _, e := a.try(t, tasksCaps, "tools/call", `"name":"quick","arguments":{"word":"late"}`); e == nil {
		t.Fatal("a new task was accepted while draining")
	}
}

// TestTaskNotificationsOnListen: a subscriptions/listen naming a task gets
// notifications/tasks with the whole task, first as it is, then at each
// change (here a cancellation made on another replica); naming tasks
// without declaring the extension is -32021.
func TestTaskNotificationsOnListen(t *testing.T) {
	requireSchemas(t)
	for name, open := range taskStores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := newReplica(t, open(), nil), newReplica(t, open(), nil)
			secs := uniqueSeconds()
			id := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)["taskId"].(string)
			if _, e := b.try(t, `{}`, "subscriptions/listen", `"notifications":{"taskIds":["`+id+`"]}`); e == nil || e["code"] != -32021.0 {
				t.Fatalf("listen for tasks without the extension: %v", e)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			body := `{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{"notifications":{"taskIds":["` + id + `","unknown"]},` +
				`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + tasksCaps + `}}}`
			req, _ := http.NewRequestWithContext(ctx, "POST", b.url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "subscriptions/listen")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			events := sseData(resp.Body)
			next := func() map[string]any {
				t.Helper()
				select {
				case ev, ok := <-events:
					if !ok {
						t.Fatal("the listen stream ended")
					}
					var m map[string]any
					_ = json.Unmarshal(ev, &m)
					return m
				case <-time.After(10 * time.Second):
					t.Fatal("no event on the listen stream")
				}
				return nil
			}
			ack := next()
			if ack["method"] != "notifications/subscriptions/acknowledged" || fmt.Sprint(ack["params"]) != fmt.Sprintf("map[_meta:map[io.modelcontextprotocol/subscriptionId:L1] notifications:map[taskIds:[%s]]]", id) {
				t.Fatalf("acknowledgment: %v", ack)
			}
			first := next()
			params, _ := first["params"].(map[string]any)
			if first["method"] != "notifications/tasks" || params["taskId"] != id || params["status"] != "working" {
				t.Fatalf("first task notification: %v", first)
			}
			a.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`)
			for {
				n := next()
				params, _ := n["params"].(map[string]any)
				meta, _ := params["_meta"].(map[string]any)
				if meta[mcp.MetaSubscriptionID] != "L1" {
					t.Fatalf("notification without the subscription id: %v", n)
				}
				if params["status"] == "cancelled" {
					break
				}
			}
			waitSleepers(t, secs, 0)
		})
	}
}

// sseData delivers the data of each server-sent event of r.
func sseData(r io.Reader) <-chan []byte {
	ch := make(chan []byte, 16)
	go func() {
		defer close(ch)
		var data []byte
		for line := range readLines(r) {
			switch {
			case bytes.HasPrefix(line, []byte("data:")):
				data = append(data, bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
			case len(line) == 0 && len(data) > 0:
				ch <- data
				data = nil
			}
		}
	}()
	return ch
}

// TestHostileTaskFlood: a client cannot start commands without end: past
// MaxTasks running tasks a call is refused, and once one ends (here
// cancelled) a new one is accepted.
func TestHostileTaskFlood(t *testing.T) {
	a := newReplica(t, tasks.NewMemory(), &server.Options{MaxTasks: 2})
	secs := uniqueSeconds()
	var ids []string
	for range 2 {
		ids = append(ids, a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)["taskId"].(string))
	}
	if _, e := a.try(t, tasksCaps, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "most it runs at once") {
		t.Fatalf("a third task: %v", e)
	}
	a.rpc(t, "tasks/cancel", `"taskId":"`+ids[0]+`"`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, e := a.try(t, tasksCaps, "tools/call", `"name":"quick","arguments":{"word":"again"}`)
		if e == nil && res["taskId"] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no task accepted after one ended: %v", e)
		}
		time.Sleep(20 * time.Millisecond)
	}
	a.rpc(t, "tasks/cancel", `"taskId":"`+ids[1]+`"`)
	waitSleepers(t, secs, 0)
}
