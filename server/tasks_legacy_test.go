package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// legacyPipe is a 2025 client on a stdio pipe whose every server message
// is validated against the revision's schema.
type legacyPipe struct {
	t     *testing.T
	w     io.Writer
	lines <-chan []byte
	log   *wireLog
	next  int
}

func openLegacyPipe(t *testing.T, rev, caps string) *legacyPipe {
	t.Helper()
	cfg, diags := lang.LoadSource("tasks.hcl", []byte(taskConfig))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	srv, err := server.Open(context.Background(), tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	proto := mcp.NewServer(srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	log := &wireLog{}
	tap := newStdioTap(log)
	w, r := tap.clientWriter(inW), tap.serverReader(outR)
	go func() { _ = proto.ServeStdio(ctx, inR, outW); outW.Close() }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer dcancel()
		_, _ = srv.DrainTasks(dctx)
		srv.Close()
	})
	p := &legacyPipe{t: t, w: w, lines: readLines(r), log: log}
	p.call("initialize", `{"protocolVersion":"`+rev+`","capabilities":`+caps+`,"clientInfo":{"name":"t","version":"0"}}`)
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return p
}

// call sends a request and returns its answer (result or error), answering
// server requests on the way with answer (nil: none expected).
func (p *legacyPipe) callAnswering(method, params string, answer func(method string) string) (map[string]any, map[string]any) {
	p.t.Helper()
	p.next++
	id := p.next
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, id, method)
	if params != "" {
		body += `,"params":` + params
	}
	if _, err := io.WriteString(p.w, body+"}\n"); err != nil {
		p.t.Fatal(err)
	}
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.t.Fatal("stdout closed")
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Result map[string]any  `json:"result"`
				Error  map[string]any  `json:"error"`
			}
			_ = json.Unmarshal(line, &m)
			if m.Method != "" && m.ID != nil {
				if answer == nil {
					p.t.Fatalf("unexpected server request: %s", line)
				}
				_, _ = io.WriteString(p.w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+answer(m.Method)+"}\n")
				continue
			}
			if string(m.ID) == fmt.Sprint(id) {
				return m.Result, m.Error
			}
		case <-time.After(15 * time.Second):
			p.t.Fatalf("no answer to %s", method)
		}
	}
}

func (p *legacyPipe) call(method, params string) map[string]any {
	p.t.Helper()
	res, e := p.callAnswering(method, params, nil)
	if e != nil {
		p.t.Fatalf("%s %s: %v", method, params, e)
	}
	return res
}

func (p *legacyPipe) try(method, params string) map[string]any {
	p.t.Helper()
	_, e := p.callAnswering(method, params, nil)
	if e == nil {
		p.t.Fatalf("%s %s: no error", method, params)
	}
	return e
}

// TestTasksLegacy20251125: the experimental tasks of MCP 2025-11-25 over
// stdio, every message validated against that revision's schema.
func TestTasksLegacy20251125(t *testing.T) {
	requireSchemas(t)
	rev := mcp.Version20251125
	p := openLegacyPipe(t, rev, `{"elicitation":{},"tasks":{"requests":{"elicitation":{"create":{}}}}}`)
	init := p.log.All()[0]
	if !strings.Contains(string(init.Body), `"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`) ||
		strings.Contains(string(init.Body), "extensions") {
		t.Fatalf("initialize capabilities: %s", init.Body)
	}
	list := fmt.Sprint(p.call("tools/list", ""))
	for _, want := range []string{"taskSupport:optional", "taskSupport:required"} {
		if !strings.Contains(list, want) {
			t.Fatalf("tools/list lacks %s: %s", want, list)
		}
	}
	// Without params.task: an optional tool answers at once, a required
	// one is refused.
	if r := p.call("tools/call", `{"name":"quick","arguments":{"word":"now"}}`); r["task"] != nil {
		t.Fatalf("a call without params.task became a task: %v", r)
	}
	if e := p.try("tools/call", `{"name":"must_task"}`); e["code"] != -32601.0 {
		t.Fatalf("required task without params.task: %v", e)
	}

	// A task: CreateTaskResult, tasks/get, tasks/result, tasks/list.
	created := p.call("tools/call", `{"name":"quick","arguments":{"word":"later"},"task":{"ttl":60000}}`)
	task, _ := created["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if id == "" || task["ttl"] != 1000.0 || task["status"] != "working" {
		t.Fatalf("CreateTaskResult: %v", created)
	}
	res := p.call("tasks/result", `{"taskId":"`+id+`"}`)
	meta, _ := res["_meta"].(map[string]any)
	if !strings.Contains(fmt.Sprint(res["content"]), "echo: later") || fmt.Sprint(meta[mcp.MetaRelatedTask]) != "map[taskId:"+id+"]" {
		t.Fatalf("tasks/result: %v", res)
	}
	if got := p.call("tasks/get", `{"taskId":"`+id+`"}`); got["status"] != "completed" || got["result"] != nil {
		t.Fatalf("tasks/get: %v", got)
	}
	if l := fmt.Sprint(p.call("tasks/list", "")); !strings.Contains(l, id) {
		t.Fatalf("tasks/list lacks %s: %s", id, l)
	}
	if e := p.try("tasks/cancel", `{"taskId":"`+id+`"}`); e["code"] != -32602.0 {
		t.Fatalf("cancelling an ended task: %v", e)
	}

	// Cancelling a running task ends its command.
	secs := uniqueSeconds()
	id = p.call("tools/call", `{"name":"sleeper","arguments":{"seconds":`+secs+`},"task":{}}`)["task"].(map[string]any)["taskId"].(string)
	waitSleepers(t, secs, 1)
	if c := p.call("tasks/cancel", `{"taskId":"`+id+`"}`); c["status"] != "cancelled" {
		t.Fatalf("tasks/cancel: %v", c)
	}
	waitSleepers(t, secs, 0)

	// A task's questions are asked with the call (elicitation/create on
	// the pipe), then the task runs.
	r, e := p.callAnswering("tools/call", `{"name":"confirm","task":{}}`, func(method string) string {
		if method != "elicitation/create" {
			t.Errorf("server asked %s", method)
		}
		return `{"action":"accept","content":{"ok":true}}`
	})
	if e != nil {
		t.Fatal(e)
	}
	id = r["task"].(map[string]any)["taskId"].(string)
	if res := p.call("tasks/result", `{"taskId":"`+id+`"}`); !strings.Contains(fmt.Sprint(res["content"]), "confirmed: true") {
		t.Fatalf("tasks/result of the asking task: %v", res)
	}
	if e := p.try("tasks/get", `{"taskId":"nope"}`); e["code"] != -32602.0 {
		t.Fatalf("unknown task: %v", e)
	}
	p.log.verify(t, rev+" initialize", rev+" tools/call", rev+" tasks/get", rev+" tasks/result", rev+" tasks/list", rev+" tasks/cancel")
}

// TestTasksOlderRevisions: 2025-06-18 has no tasks: no capability, no
// execution on tools, tasks/* are unknown methods, params.task is ignored.
func TestTasksOlderRevisions(t *testing.T) {
	requireSchemas(t)
	rev := mcp.Version20250618
	p := openLegacyPipe(t, rev, `{}`)
	if init := p.log.All()[0]; strings.Contains(string(init.Body), "tasks") {
		t.Fatalf("2025-06-18 initialize mentions tasks: %s", init.Body)
	}
	if l := fmt.Sprint(p.call("tools/list", "")); strings.Contains(l, "execution") {
		t.Fatalf("2025-06-18 tools/list has execution: %s", l)
	}
	for _, m := range []string{"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"} {
		if e := p.try(m, `{"taskId":"x"}`); e["code"] != -32601.0 {
			t.Fatalf("%s under 2025-06-18: %v", m, e)
		}
	}
	if r := p.call("tools/call", `{"name":"quick","arguments":{"word":"w"},"task":{}}`); r["task"] != nil {
		t.Fatalf("2025-06-18 got a task: %v", r)
	}
	p.log.verify(t, rev+" initialize", rev+" tools/call")
}
