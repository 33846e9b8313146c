package apptest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// mcpdecl is the command, built once for the package's tests into a
// folder TestMain removes.
var mcpdecl struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mcpdecl.dir != "" {
		os.RemoveAll(mcpdecl.dir)
	}
	os.Exit(code)
}

// buildMcpdecl builds the command, the first time a test asks.
func buildMcpdecl(t *testing.T) string {
	t.Helper()
	mcpdecl.once.Do(func() {
		if mcpdecl.dir, mcpdecl.err = os.MkdirTemp("", "mcpdecl-apptest-"); mcpdecl.err != nil {
			return
		}
		mcpdecl.bin = filepath.Join(mcpdecl.dir, "mcpdecl")
		out, err := exec.Command("go", "build", "-o", mcpdecl.bin, "github.com/mcpdecl/mcpdecl/cmd/mcpdecl").CombinedOutput()
		if err != nil {
			mcpdecl.err = fmt.Errorf("go build ./cmd/mcpdecl: %v\n%s", err, out)
		}
	})
	if mcpdecl.err != nil {
		t.Fatal(mcpdecl.err)
	}
	return mcpdecl.bin
}

var servingLine = regexp.MustCompile(`serving .* on (http://\S+) \(`)

// serveHTTP runs `mcpdecl serve --http` on a free loopback port with args
// and returns the MCP endpoint's URL once it listens. The process ends with
// the test.
func serveHTTP(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	found := make(chan string, 1)
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if !sent {
				log.WriteString(line + "\n")
				if m := servingLine.FindStringSubmatch(line); m != nil {
					found <- m[1]
					sent = true
				}
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatalf("mcpdecl serve ended before serving:\n%s", log.String())
		}
		return url
	case <-time.After(60 * time.Second):
		t.Fatalf("mcpdecl serve did not start within 60s")
	}
	return ""
}

// serveFile serves one file of dir at /name on its own loopback origin.
func serveFile(t *testing.T, dir, name string) string {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/"+name {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/" + name
}

// runNode runs a Node script of the repository and returns its stdout.
func runNode(t *testing.T, bt browserTools, env []string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bt.node, args...)
	cmd.Dir = bt.root
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if s := stderr.String(); s != "" {
		t.Logf("node %s (stderr):\n%s", args[0], s)
	}
	return out
}
