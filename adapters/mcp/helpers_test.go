package mcpadapter_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

var (
	binDir  string
	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpdecl-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// mcpdeclBinary is the mcpdecl command built from this module.
func mcpdeclBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		p := filepath.Join(binDir, "mcpdecl")
		out, err := exec.Command("go", "build", "-o", p, "github.com/mcpdecl/mcpdecl/cmd/mcpdecl").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build ./cmd/mcpdecl: %v\n%s", err, out)
			return
		}
		binPath = p
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// everything is the entry point of the official "everything" server that
// scripts/mcp-everything.sh installs, and node to run it with.
func everything(t testing.TB) (node, entry string) {
	t.Helper()
	dir := os.Getenv("MCPDECL_TOOLS_DIR")
	if dir == "" {
		dir, _ = filepath.Abs(filepath.Join("..", "..", ".tools"))
	}
	entry = filepath.Join(dir, "mcp-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		testenv.Require(t, "@modelcontextprotocol/server-everything in "+filepath.Join(dir, "mcp-everything"), "run ./scripts/mcp-everything.sh")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Require(t, "node on PATH", "apt-get install nodejs")
	}
	return node, entry
}

// writeConfig writes a configuration file and returns its path.
func writeConfig(t testing.TB, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "mcpdecl.hcl")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// serveHTTP runs `mcpdecl serve --http addr config` and returns its MCP
// endpoint's URL once it listens; addr "" is any free port.
func serveHTTP(t testing.TB, config, addr string) string {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	cmd := exec.Command(mcpdeclBinary(t), "serve", "--http", addr, config)
	cmd.Env = append(os.Environ(), "PATH="+os.Getenv("PATH"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	var logMu sync.Mutex
	done := make(chan struct{})
	found := make(chan string, 1)
	go func() {
		defer close(done)
		defer cmd.Wait()
		re := regexp.MustCompile(`on (http://\S+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("mcpdecl serve --http did not stop on SIGINT")
		}
		if t.Failed() {
			logMu.Lock()
			t.Logf("stderr of mcpdecl serve %s:\n%s", filepath.Base(config), log.String())
			logMu.Unlock()
		}
	})
	select {
	case u := <-found:
		return u
	case <-done:
		t.Fatalf("mcpdecl serve exited:\n%s", log.String())
	case <-time.After(60 * time.Second):
		t.Fatal("mcpdecl serve --http did not report its address")
	}
	return ""
}

// freeAddr is a loopback address with a port nobody listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// client is a go-sdk client session with the progress it was sent.
type client struct {
	cs       *sdk.ClientSession
	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
}

func connect(t testing.TB, url string) *client {
	t.Helper()
	c := &client{}
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			c.mu.Lock()
			c.progress = append(c.progress, r.Params)
			c.mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := cl.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	c.cs = cs
	return c
}

// call calls a tool and returns its text, structured content and isError.
func (c *client) call(t testing.TB, name string, args map[string]any) (string, any, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return text(res), res.StructuredContent, res.IsError
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, b := range res.Content {
		if tc, ok := b.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

var execCommand = exec.Command

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
