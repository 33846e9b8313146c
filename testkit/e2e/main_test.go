package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// secret is the LIBRARY_TOKEN every test serves with; it must reach the
// library API in the Authorization header and nowhere else.
const secret = "s3cr3t-Lib-7f9a1c0e-token"

// binPath is the mcpdecl binary built by TestMain.
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpdecl-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binPath = filepath.Join(dir, "mcpdecl")
	out, err := exec.Command("go", "build", "-o", binPath, "github.com/mcpdecl/mcpdecl/cmd/mcpdecl").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/mcpdecl: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoPath returns the absolute path of a file of the repository.
func repoPath(t testing.TB, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer = wiretest.SyncBuffer

// served is one configuration being served to a client.
type served struct {
	c    client
	wire *wireLog
	logs *syncBuffer // the server's log (in process) or stderr (binary)
}

// tellOnFailure logs, when the test fails, the last messages the server
// sent and the tail of its log: enough to tell a request that was never
// answered from an answer the client did not take.
func (s *served) tellOnFailure(t *testing.T) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		msgs := s.wire.All()
		for _, m := range msgs[max(0, len(msgs)-8):] {
			t.Logf("server sent (%s %s): %.300s", m.Rev, m.Method, m.Body)
		}
		log := s.logs.String()
		t.Logf("%d messages sent in all; the server's log ends:\n%s", len(msgs), log[max(0, len(log)-3000):])
	})
}

// openServer loads and compiles a configuration, with env() reading env,
// and opens it as serve does (server.Open); the test's end closes it.
func openServer(t testing.TB, path string, vars, env map[string]string, opts *server.Options) *server.Server {
	t.Helper()
	cfg, diags := lang.Load(path)
	if diags.HasErrors() {
		t.Fatalf("lang.Load(%q): %v", path, diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{Vars: vars, LookupEnv: func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}})
	if diags.HasErrors() {
		t.Fatalf("table.Compile(%q): %v", path, diags)
	}
	srv, err := server.Open(context.Background(), tbl, opts)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// serveHTTPInProcess serves the configuration through mcp's Streamable
// HTTP handler on a tapped httptest server and returns the endpoint.
func serveHTTPInProcess(t testing.TB, path string, vars, env map[string]string, wire *wireLog, logs io.Writer) string {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	proto := mcp.NewServer(openServer(t, path, vars, env, &server.Options{Logger: logger}), nil)
	ts := httptest.NewServer(&httpTap{next: proto.HTTPHandler(nil), log: wire})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// stdioProcess is `mcpdecl serve` running as a child process, its stdin
// and stdout tapped for schema validation.
type stdioProcess struct {
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *syncBuffer
	exited chan struct{} // closed when the process has exited
	err    error         // its exit status, once exited
}

// stop closes the server's stdin and returns when the process has exited
// (or 10 s have passed), so that its log is complete: a call's log lines
// may be written after its answer.
func (p *stdioProcess) stop() {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
	}
}

// stoppingClient is a client of a child process whose close also waits
// for the process to exit.
type stoppingClient struct {
	client
	p *stdioProcess
}

func (c stoppingClient) close() {
	c.client.close()
	c.p.stop()
}

// startStdio runs `mcpdecl serve --log-level debug --var k=v... path` with
// env added to the environment; the child must exit cleanly when its stdin
// closes.
func startStdio(t *testing.T, path string, vars, env map[string]string, wire *wireLog) *stdioProcess {
	t.Helper()
	args := []string{"serve", "--log-level", "debug"}
	for k, v := range vars {
		args = append(args, "--var", k+"="+v)
	}
	cmd := exec.Command(binPath, append(args, path)...)
	cmd.Env = childEnv(env)
	p := &stdioProcess{stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	tap := newStdioTap(wire)
	p.stdin, p.stdout = tap.clientWriter(in), tap.serverReader(out)
	t.Cleanup(func() {
		p.stdin.Close()
		select {
		case <-p.exited:
			if p.err != nil {
				t.Errorf("mcpdecl serve exited with %v; stderr:\n%s", p.err, p.stderr)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("mcpdecl serve did not exit on stdin EOF; stderr:\n%s", p.stderr)
		}
	})
	return p
}

// childEnv is this process's environment without any MCPDECL_VAR_ or
// LIBRARY_TOKEN setting of the caller, plus env.
func childEnv(env map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MCPDECL_VAR_") || strings.HasPrefix(kv, "LIBRARY_TOKEN=") {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// setup is one way of reaching a served configuration: a client library,
// a transport and a protocol era.
type setup struct {
	name    string
	era     mcp.Era
	version string
	connect func(t *testing.T, path string, vars, env map[string]string) *served
}

var setups = []setup{
	{"go-sdk/http/modern", mcp.EraModern, mcp.Version20260728, sdkHTTP(mcp.Version20260728)},
	{"go-sdk/http/legacy", mcp.EraLegacy, mcp.Version20251125, sdkHTTP(mcp.Version20251125)},
	{"mcp-go/http/legacy", mcp.EraLegacy, mcp.Version20251125, mcpgoHTTP},
	{"go-sdk/stdio/modern", mcp.EraModern, mcp.Version20260728, sdkStdio(mcp.Version20260728)},
	{"go-sdk/stdio/legacy", mcp.EraLegacy, mcp.Version20251125, sdkStdio(mcp.Version20251125)},
	{"mcp-go/stdio/legacy", mcp.EraLegacy, mcp.Version20251125, mcpgoStdio},
	{"go-sdk/http-binary/modern", mcp.EraModern, mcp.Version20260728, sdkHTTPBinary},
}

// sdkHTTPBinary runs `mcpdecl serve --http 127.0.0.1:0` and connects
// go-sdk's client through a tapping reverse proxy.
func sdkHTTPBinary(t *testing.T, path string, vars, env map[string]string) *served {
	s := &served{wire: &wireLog{}, logs: &syncBuffer{}}
	u := startHTTPBinary(t, path, vars, env, s.wire, s.logs)
	s.c = connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, mcp.Version20260728)
	return s
}

// startHTTPBinary runs `mcpdecl serve --http 127.0.0.1:0 --log-level debug`
// with stderr copied to logs, and returns the URL of a tapping reverse
// proxy in front of it. The child must stop on SIGINT.
func startHTTPBinary(t *testing.T, path string, vars, env map[string]string, wire *wireLog, logs *syncBuffer) string {
	t.Helper()
	args := []string{"--log-level", "debug"}
	for k, v := range vars {
		args = append(args, "--var", k+"="+v)
	}
	_, target := serveBinary(t, append(args, path), env, logs, true)
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	proxy.FlushInterval = -1
	front := httptest.NewServer(&httpTap{next: proxy, log: wire})
	t.Cleanup(front.Close)
	return front.URL + u.Path
}

func sdkHTTP(version string) func(t *testing.T, path string, vars, env map[string]string) *served {
	return func(t *testing.T, path string, vars, env map[string]string) *served {
		s := &served{wire: &wireLog{}, logs: &syncBuffer{}}
		u := serveHTTPInProcess(t, path, vars, env, s.wire, s.logs)
		s.c = connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, version)
		return s
	}
}

func mcpgoHTTP(t *testing.T, path string, vars, env map[string]string) *served {
	s := &served{wire: &wireLog{}, logs: &syncBuffer{}}
	u := serveHTTPInProcess(t, path, vars, env, s.wire, s.logs)
	tr, err := mcpgotransport.NewStreamableHTTP(u)
	if err != nil {
		t.Fatal(err)
	}
	s.c = connectMCPGo(t, tr, mcp.Version20251125)
	return s
}

func sdkStdio(version string) func(t *testing.T, path string, vars, env map[string]string) *served {
	return func(t *testing.T, path string, vars, env map[string]string) *served {
		s := &served{wire: &wireLog{}}
		p := startStdio(t, path, vars, env, s.wire)
		s.logs = p.stderr
		s.tellOnFailure(t)
		s.c = stoppingClient{connectSDK(t, &sdkmcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, version), p}
		return s
	}
}

func mcpgoStdio(t *testing.T, path string, vars, env map[string]string) *served {
	s := &served{wire: &wireLog{}}
	p := startStdio(t, path, vars, env, s.wire)
	s.logs = p.stderr
	s.tellOnFailure(t)
	s.c = stoppingClient{connectMCPGo(t, mcpgotransport.NewIO(p.stdout, p.stdin, io.NopCloser(strings.NewReader(""))), mcp.Version20251125), p}
	return s
}

// handshake is the first method of an era's conversation.
func handshake(era mcp.Era) string {
	if era == mcp.EraModern {
		return "2026-07-28 server/discover"
	}
	return "2025-11-25 initialize"
}

func revision(era mcp.Era) string {
	if era == mcp.EraModern {
		return mcp.Version20260728
	}
	return mcp.Version20251125
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// serveBinary runs `mcpdecl serve --http 127.0.0.1:0 ARGS...` with stderr
// copied to logs, stops it with SIGINT when the test ends, and returns the
// endpoint it reports (http://127.0.0.1:PORT/mcp) with the process. With cleanExit, a
// server that does not exit 0 on SIGINT fails the test.
func serveBinary(t *testing.T, args []string, env map[string]string, logs *syncBuffer, cleanExit bool) (*exec.Cmd, string) {
	t.Helper()
	return serveBinaryAt(t, "127.0.0.1:0", args, env, logs, cleanExit)
}

// serveBinaryAt is serveBinary listening on addr.
func serveBinaryAt(t *testing.T, addr string, args []string, env map[string]string, logs *syncBuffer, cleanExit bool) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"serve", "--http", addr}, args...)...)
	cmd.Env = childEnv(env)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		re := regexp.MustCompile(`on (http://\S+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
			if err := cmd.Wait(); err != nil && cleanExit {
				t.Errorf("mcpdecl serve --http exited with %v; stderr:\n%s", err, logs)
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("mcpdecl serve --http did not stop on SIGINT; stderr:\n%s", logs)
		}
	})
	select {
	case endpoint := <-found:
		return cmd, endpoint
	case <-time.After(30 * time.Second):
		t.Fatalf("mcpdecl serve --http did not report its address; stderr:\n%s", logs)
	}
	return nil, ""
}
