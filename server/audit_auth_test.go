package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/server"
)

// TestAuditNamesTheTokensSubject: behind an auth block, each record says
// whose token made the call (its subject, and the principal the limits
// and tasks use), a call refused for its scope is recorded as such, a
// request without a token reaches no record, and no bearer token (sent
// in the Authorization header, never an argument) is in the trail.
func TestAuditNamesTheTokensSubject(t *testing.T) {
	tbl, err := compileSource("auth.hcl", authSource)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(tbl, &server.Options{HTTPAuth: true, Audit: log})
	proto := mcp.NewServer(srv, nil)
	ts := httptest.NewServer(proto.HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard}))
	t.Cleanup(ts.Close)
	url := ts.URL + "/mcp"
	for era, build := range authEras {
		if resp, body := send(t, build(t, url, "tools/call", "whoami", `"name":"whoami","arguments":{}`), readerToken); resp.StatusCode != http.StatusOK || !strings.Contains(body, "reader of team blue") {
			t.Fatalf("%s: whoami as reader: %d %s", era, resp.StatusCode, body)
		}
		if resp, _ := send(t, build(t, url, "tools/call", "whoami", `"name":"whoami","arguments":{}`), adminToken); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: whoami as admin: %d", era, resp.StatusCode)
		}
		if resp, _ := send(t, build(t, url, "tools/call", "purge", `"name":"purge","arguments":{}`), readerToken); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%s: purge as reader: %d; want 403", era, resp.StatusCode)
		}
		if resp, _ := send(t, build(t, url, "tools/call", "whoami", `"name":"whoami","arguments":{}`), ""); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s: no token: %d; want 401", era, resp.StatusCode)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, token := range []string{readerToken, adminToken} {
		if strings.Contains(string(data), token) {
			t.Errorf("the audit trail holds a bearer token:\n%s", data)
		}
	}
	subjects := map[string]int{}
	principals := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		subject, _ := r["subject"].(string)
		principal, _ := r["principal"].(string)
		subjects[subject+" "+r["name"].(string)+" "+r["outcome"].(string)]++
		if !strings.HasPrefix(principal, "sub:") {
			t.Errorf("a record without the token's principal: %s", line)
		}
		principals[principal] = true
	}
	want := map[string]int{"reader whoami ok": 2, "admin whoami ok": 2}
	for k, n := range want {
		if subjects[k] != n {
			t.Errorf("%q recorded %d times, want %d; all: %v\n%s", k, subjects[k], n, subjects, data)
		}
	}
	if len(principals) != 2 {
		t.Errorf("principals %v; want one per token", principals)
	}
	if subjects["reader purge protocol_error"] != 2 {
		t.Errorf("the reader's purge, refused for its scope, recorded as %v; want 2 protocol errors", subjects)
	}
}
