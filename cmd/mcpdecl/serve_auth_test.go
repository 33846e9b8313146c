package main

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	aliceToken = "alice-c4e91b07f3a2685d9e1b"
	bobToken   = "bob-9a2f6c1e84b3d07e5f4a1c"
)

// authServeConfig has one static token (alice) that may read; reloaded,
// alice may also administer and bob appears.
func authServeConfig(reloaded bool) string {
	aliceScopes, bob := `["read"]`, ""
	if reloaded {
		aliceScopes = `["read", "admin"]`
		bob = `
  token "bob" {
    value  = "` + bobToken + `"
    scopes = ["read"]
  }`
	}
	return `
auth {
  resource              = "http://127.0.0.1/mcp"
  authorization_servers = ["http://127.0.0.1:1"]
  scope "read" {}
  scope "admin" {}
  token "alice" {
    value  = "` + aliceToken + `"
    scopes = ` + aliceScopes + `
  }` + bob + `
}
tool "whoami" {
  description = "Who is calling."
  scopes      = ["read"]
  content "text" {
    text = "you are ${auth.subject}"
  }
}
tool "purge" {
  description = "Administration."
  scopes      = ["admin"]
  content "text" {
    text = "purged"
  }
}
`
}

func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the mcpdecl binary")
	}
	bin := filepath.Join(t.TempDir(), "mcpdecl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var servingRE = regexp.MustCompile(`on (http://\S+/mcp)`)

// TestServeHTTPAuth runs `serve --http` with an auth block: /healthz and
// the metadata need no token, MCP requests do, a missing scope is 403,
// and SIGHUP picks up a changed auth block (new scopes, a new token).
func TestServeHTTPAuth(t *testing.T) {
	bin := buildBinary(t)
	config := filepath.Join(t.TempDir(), "auth.hcl")
	writeFile(t, config, authServeConfig(false))
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--metrics", config)
	stderr := &lockedBuffer{}
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGINT); _ = cmd.Wait() })
	endpoint := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			stderr.Write([]byte(sc.Text() + "\n"))
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				endpoint <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-endpoint:
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not start; stderr:\n%s", stderr)
	}
	base := strings.TrimSuffix(url, "/mcp")
	get := func(path string) int {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if get("/healthz") != 200 || get("/.well-known/oauth-protected-resource/mcp") != 200 {
		t.Fatalf("healthz or metadata refused")
	}
	call := func(tool, token string) (int, string) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `"}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := call("whoami", ""); code != 401 {
		t.Errorf("no token: %d", code)
	}
	metrics := func(token string) int {
		req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := metrics(""); code != 401 {
		t.Errorf("/metrics without a token beside an auth block: %d, want 401", code)
	}
	if code := metrics(aliceToken); code != 200 {
		t.Errorf("/metrics with a valid token: %d, want 200", code)
	}
	if code, body := call("whoami", aliceToken); code != 200 || !strings.Contains(body, "you are alice") {
		t.Errorf("alice: %d %s", code, body)
	}
	if code, _ := call("purge", aliceToken); code != 403 {
		t.Errorf("alice purge before the reload: %d", code)
	}
	if code, _ := call("whoami", bobToken); code != 401 {
		t.Errorf("bob before the reload: %d", code)
	}
	writeFile(t, config, authServeConfig(true))
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(stderr.String(), "configuration reloaded") {
		if time.Now().After(deadline) {
			t.Fatalf("no reload; stderr:\n%s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, body := call("purge", aliceToken); code != 200 || !strings.Contains(body, "purged") {
		t.Errorf("alice purge after the reload: %d %s", code, body)
	}
	if code, body := call("whoami", bobToken); code != 200 || !strings.Contains(body, "you are bob") {
		t.Errorf("bob after the reload: %d %s", code, body)
	}
	if strings.Contains(stderr.String(), aliceToken) || strings.Contains(stderr.String(), bobToken) {
		t.Errorf("a token reached the log:\n%s", stderr)
	}
}

// TestServeStdioWarnsAboutAuth: an auth block served over stdio is not
// used, and the server says so.
func TestServeStdioWarnsAboutAuth(t *testing.T) {
	bin := buildBinary(t)
	config := filepath.Join(t.TempDir(), "auth.hcl")
	writeFile(t, config, authServeConfig(false))
	cmd := exec.Command(bin, "serve", config)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "auth block is not used over stdio") {
		t.Errorf("no warning:\n%s", out)
	}
}
