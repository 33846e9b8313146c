package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// legacyClient is a 2025-11-25 client over HTTP: in a session once
// initialized (sid set), stateless before; with a bearer token or not.
type legacyClient struct {
	t     *testing.T
	url   string
	sid   string
	token string
}

// legacyTaskCaps declares the 2025-11-25 experimental tasks.
const legacyTaskCaps = `{"elicitation":{},"tasks":{"requests":{"elicitation":{"create":{}}}}}`

// startSession initializes a 2025-11-25 session named name (clients of
// different names get different ids, whatever the session scheme).
func startSession(t *testing.T, url, name, token string) *legacyClient {
	t.Helper()
	c := &legacyClient{t: t, url: url, token: token}
	resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + mcp.Version20251125 +
		`","capabilities":` + legacyTaskCaps + `,"clientInfo":{"name":"` + name + `","version":"1"}}}`)
	resp.Body.Close()
	c.sid = resp.Header.Get(mcp.HeaderSessionID)
	if resp.StatusCode != http.StatusOK || c.sid == "" {
		t.Fatalf("initialize: HTTP %d, session id %q", resp.StatusCode, c.sid)
	}
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	return c
}

func (c *legacyClient) post(body string) *http.Response {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	if c.sid != "" {
		req.Header.Set(mcp.HeaderSessionID, c.sid)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// try sends one request and returns its result or its error.
func (c *legacyClient) try(method, params string) (map[string]any, map[string]any) {
	c.t.Helper()
	body := `{"jsonrpc":"2.0","id":2,"method":"` + method + `","params":{` + params + `}}`
	req, _ := http.NewRequest("POST", c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	if c.sid != "" {
		req.Header.Set(mcp.HeaderSessionID, c.sid)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return roundTrip(c.t, req)
}

func (c *legacyClient) call(method, params string) map[string]any {
	c.t.Helper()
	res, e := c.try(method, params)
	if e != nil {
		c.t.Fatalf("%s %s: %v", method, params, e)
	}
	return res
}

// createTask starts a sleeper task and returns its id.
func (c *legacyClient) createTask(secs string) string {
	c.t.Helper()
	res := c.call("tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`},"task":{}`)
	task, _ := res["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if id == "" {
		c.t.Fatalf("no task: %v", res)
	}
	return id
}

// listed returns the task ids tasks/list gives c.
func (c *legacyClient) listed() string {
	c.t.Helper()
	return fmt.Sprint(c.call("tasks/list", "")["tasks"])
}

func mustBeUnknown(t *testing.T, who, method string, e map[string]any) {
	t.Helper()
	if e == nil || e["code"] != -32602.0 {
		t.Fatalf("%s: %s of another's task answered %v, want -32602 (unknown task)", who, method, e)
	}
}

// TestHostileTasksAcrossCallers: without authentication, a task is seen
// only by its creator. An anonymous 2026-07-28 client's task is known by
// its id alone: a 2025 tasks/list sent without a session lists none of
// them (it listed them all); a 2025 session's task is invisible to
// another session (listed, read, cancelled, awaited), with signed session
// ids and with --legacy-sessions alike.
func TestHostileTasksAcrossCallers(t *testing.T) {
	for store, open := range taskStores(t) {
		for _, legacySessions := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/legacy-sessions=%v", store, legacySessions), func(t *testing.T) {
				testTasksAcrossCallers(t, newReplicaHTTP(t, taskConfig, open(), nil, &mcp.HTTPOptions{LegacySessions: legacySessions}))
			})
		}
	}
}

func testTasksAcrossCallers(t *testing.T, a *replica) {
	secs := uniqueSeconds()
	anon := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)["taskId"].(string)

	stateless := &legacyClient{t: t, url: a.url}
	if l := stateless.listed(); strings.Contains(l, anon) || l != "[]" {
		t.Fatalf("a 2025 tasks/list without a session lists anonymous tasks: %s", l)
	}
	// The id is the key: whoever holds it may read the task.
	if got := stateless.call("tasks/get", `"taskId":"`+anon+`"`); got["status"] != "working" {
		t.Fatalf("tasks/get of an anonymous task by its id: %v", got)
	}

	alice, bob := startSession(t, a.url, "alice", ""), startSession(t, a.url, "bob", "")
	if alice.sid == bob.sid {
		t.Fatalf("two sessions share the id %q", alice.sid)
	}
	mine := alice.createTask(secs)
	if l := alice.listed(); !strings.Contains(l, mine) || strings.Contains(l, anon) {
		t.Fatalf("alice's tasks/list: %s (want %s, not the anonymous %s)", l, mine, anon)
	}
	if l := bob.listed(); strings.Contains(l, mine) || strings.Contains(l, anon) {
		t.Fatalf("bob's tasks/list shows others' tasks: %s", l)
	}
	if l := stateless.listed(); strings.Contains(l, mine) {
		t.Fatalf("a tasks/list without a session shows alice's task: %s", l)
	}
	for _, m := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		_, e := bob.try(m, `"taskId":"`+mine+`"`)
		mustBeUnknown(t, "bob", m, e)
		_, e = stateless.try(m, `"taskId":"`+mine+`"`)
		mustBeUnknown(t, "a client without a session", m, e)
		_, e = a.try(t, tasksCaps, m, `"taskId":"`+mine+`"`)
		if m != "tasks/result" { // not a 2026-07-28 method
			mustBeUnknown(t, "an anonymous 2026-07-28 client", m, e)
		}
	}
	if got := alice.call("tasks/get", `"taskId":"`+mine+`"`); got["status"] != "working" {
		t.Fatalf("alice's own tasks/get: %v", got)
	}
	alice.call("tasks/cancel", `"taskId":"`+mine+`"`)
	a.rpc(t, "tasks/cancel", `"taskId":"`+anon+`"`)
	waitSleepers(t, secs, 0)
}

// authTaskSource is authSource with a tool that runs as a task.
const authTaskSource = authSource + `
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

// TestHostileTasksOfAuthenticatedCallers: with an auth block, a task
// belongs to the issuer and subject of the token that created it: another
// user cannot read, list, await or cancel it, in either era and whatever
// session he holds; its owner can, in both eras.
func TestHostileTasksOfAuthenticatedCallers(t *testing.T) {
	a := newReplicaHTTP(t, authTaskSource, tasks.NewMemory(), &server.Options{HTTPAuth: true}, &mcp.HTTPOptions{})
	secs := uniqueSeconds()
	mine := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`, "Authorization", "Bearer "+readerToken)["taskId"].(string)
	if mine == "" {
		t.Fatal("no task")
	}
	owner := &legacyClient{t: t, url: a.url, token: readerToken}
	if l := owner.listed(); !strings.Contains(l, mine) {
		t.Fatalf("the owner's tasks/list lacks the task: %s", l)
	}
	other := &legacyClient{t: t, url: a.url, token: adminToken}
	inSession := startSession(t, a.url, "other", adminToken)
	for _, c := range []*legacyClient{other, inSession} {
		if l := c.listed(); strings.Contains(l, mine) {
			t.Fatalf("another user's tasks/list shows the task: %s", l)
		}
		for _, m := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
			_, e := c.try(m, `"taskId":"`+mine+`"`)
			mustBeUnknown(t, "another user", m, e)
		}
	}
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		_, e := a.try(t, tasksCaps, m, `"taskId":"`+mine+`"`, "Authorization", "Bearer "+adminToken)
		mustBeUnknown(t, "another user (2026-07-28)", m, e)
	}
	if got := owner.call("tasks/get", `"taskId":"`+mine+`"`); got["status"] != "working" {
		t.Fatalf("the owner's tasks/get: %v", got)
	}
	a.rpc(t, "tasks/cancel", `"taskId":"`+mine+`"`, "Authorization", "Bearer "+readerToken)
	waitSleepers(t, secs, 0)
}

// TestHostileTaskIDs: an id that cannot be one this server issued (too
// long, too short, characters no id holds) is refused as unknown before
// the store sees it.
func TestHostileTaskIDs(t *testing.T) {
	a := newReplica(t, tasks.NewMemory(), nil)
	for _, id := range []string{"x", strings.Repeat("A", 65), "owner:*", "aaaaaaaaaaaaaaaa+/==", "aaaa aaaa aaaa aaaa", `..\..\aaaaaaaaaaaaaa`} {
		_, e := a.try(t, tasksCaps, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))
		if e == nil || e["code"] != -32602.0 || !strings.Contains(fmt.Sprint(e["message"]), "not a task id this server issues") {
			t.Fatalf("tasks/get %q: %v", id, e)
		}
	}
}

// TestHostileTaskSlotsPerCaller: one user cannot take every task slot of
// the server: at MaxTasksPerOwner his next call is refused while another
// user still gets a task, and once one of his ends he may start again.
func TestHostileTaskSlotsPerCaller(t *testing.T) {
	a := newReplicaHTTP(t, authTaskSource, tasks.NewMemory(), &server.Options{HTTPAuth: true, MaxTasks: 10, MaxTasksPerOwner: 2}, &mcp.HTTPOptions{})
	secs := uniqueSeconds()
	sleep := `"name":"sleeper","arguments":{"seconds":` + secs + `}`
	var mine []string
	for range 2 {
		mine = append(mine, a.rpc(t, "tools/call", sleep, "Authorization", "Bearer "+readerToken)["taskId"].(string))
	}
	if _, e := a.try(t, tasksCaps, "tools/call", sleep, "Authorization", "Bearer "+readerToken); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "the most one caller may run at once") {
		t.Fatalf("a third task of the same user: %v", e)
	}
	theirs := a.rpc(t, "tools/call", sleep, "Authorization", "Bearer "+adminToken)["taskId"].(string)
	a.rpc(t, "tasks/cancel", `"taskId":"`+mine[0]+`"`, "Authorization", "Bearer "+readerToken)
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, e := a.try(t, tasksCaps, "tools/call", sleep, "Authorization", "Bearer "+readerToken)
		if e == nil && res["taskId"] != nil {
			mine[0] = res["taskId"].(string)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no task accepted after one of the user's ended: %v", e)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, id := range mine {
		a.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`, "Authorization", "Bearer "+readerToken)
	}
	a.rpc(t, "tasks/cancel", `"taskId":"`+theirs+`"`, "Authorization", "Bearer "+adminToken)
	waitSleepers(t, secs, 0)
}
