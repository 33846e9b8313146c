package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

const interopConfig = "testdata/interop.hcl"

// binDir holds the mcpdecl binary, built at most once per test run (only
// when a test needs it, so benchmarks alone do not pay for the build).
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpdecl-server-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// mcpdeclBinary returns the path of the mcpdecl command built from this
// module with `go build`.
func mcpdeclBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		p := filepath.Join(binDir, "mcpdecl")
		out, err := exec.Command("go", "build", "-o", p, "github.com/mcpdecl/mcpdecl/cmd/mcpdecl").CombinedOutput()
		if err != nil {
			binError = fmt.Errorf("go build ./cmd/mcpdecl: %v\n%s", err, out)
			return
		}
		binPath = p
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

// stdioProcess is `mcpdecl serve` running as a child process, with its
// stdin and stdout tapped for schema validation.
type stdioProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *syncBuffer
	done   chan error
}

type syncBuffer = wiretest.SyncBuffer

func startStdio(t *testing.T, log *wireLog, args ...string) *stdioProcess {
	t.Helper()
	cmd := exec.Command(mcpdeclBinary(t), append([]string{"serve"}, args...)...)
	p := &stdioProcess{cmd: cmd, stderr: &syncBuffer{}, done: make(chan error, 1)}
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
	tap := newStdioTap(log)
	p.stdin, p.stdout = tap.clientWriter(in), tap.serverReader(out)
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		p.stdin.Close()
		select {
		case err := <-p.done:
			if err != nil {
				t.Errorf("mcpdecl serve exited with %v; stderr:\n%s", err, p.stderr)
			} else if t.Failed() {
				t.Logf("stderr of mcpdecl serve:\n%s", p.stderr)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("mcpdecl serve did not exit on stdin EOF; stderr:\n%s", p.stderr)
		}
	})
	return p
}

// startHTTPBinary runs `mcpdecl serve --http 127.0.0.1:0` and returns the
// URL of a tapping reverse proxy in front of it.
func startHTTPBinary(t *testing.T, log *wireLog, config string) string {
	t.Helper()
	cmd := exec.Command(mcpdeclBinary(t), "serve", "--http", "127.0.0.1:0", config)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("mcpdecl serve --http did not stop on SIGINT")
		}
	})
	found := make(chan string, 1)
	go func() {
		defer close(done)
		defer cmd.Wait()
		re := regexp.MustCompile(`on (http://\S+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	var target string
	select {
	case target = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("mcpdecl serve --http did not report its address")
	}
	u, _ := url.Parse(target)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	proxy.FlushInterval = -1
	front := httptest.NewServer(&httpTap{next: proxy, log: log})
	t.Cleanup(front.Close)
	return front.URL + u.Path
}

// startHTTPInProcess serves the table through mcp's HTTP handler on an
// httptest server with a tap.
func startHTTPInProcess(t *testing.T, log *wireLog, h mcp.Handler) (string, *mcp.Server) {
	t.Helper()
	proto := mcp.NewServer(h, nil)
	ts := httptest.NewServer(&httpTap{next: proto.HTTPHandler(nil), log: log})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL + "/mcp", proto
}

// interopClient is what the scenario needs from an SDK client.
type interopClient interface {
	version() string
	listTools(ctx context.Context) ([]string, error)
	callTool(ctx context.Context, name string, args map[string]any) (text string, structured any, isError bool, err error)
	readResource(ctx context.Context, uri string) (string, error)
	getPrompt(ctx context.Context, name string, args map[string]string) (string, error)
	complete(ctx context.Context, prompt, arg, value string) ([]string, error)
	code(err error) int // the JSON-RPC error code of err; 0 if none
	close()
}

// go-sdk client -------------------------------------------------------------

type sdkClient struct{ cs *sdkmcp.ClientSession }

func connectSDK(t *testing.T, tr sdkmcp.Transport, version string) interopClient {
	t.Helper()
	c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "interop-go-sdk", Version: "1.8.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &sdkmcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("go-sdk Connect(%s): %v", version, err)
	}
	return &sdkClient{cs}
}

func (c *sdkClient) version() string { return c.cs.InitializeResult().ProtocolVersion }
func (c *sdkClient) close()          { c.cs.Close() }

func (c *sdkClient) listTools(ctx context.Context) ([]string, error) {
	var names []string
	for tool, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		names = append(names, tool.Name)
	}
	return names, nil
}

func (c *sdkClient) callTool(ctx context.Context, name string, args map[string]any) (string, any, bool, error) {
	res, err := c.cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", nil, false, err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdkmcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.StructuredContent, res.IsError, nil
}

func (c *sdkClient) readResource(ctx context.Context, uri string) (string, error) {
	res, err := c.cs.ReadResource(ctx, &sdkmcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 {
		return "", fmt.Errorf("%d contents", len(res.Contents))
	}
	return res.Contents[0].Text, nil
}

func (c *sdkClient) getPrompt(ctx context.Context, name string, args map[string]string) (string, error) {
	res, err := c.cs.GetPrompt(ctx, &sdkmcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	var texts []string
	for _, m := range res.Messages {
		if tc, ok := m.Content.(*sdkmcp.TextContent); ok {
			texts = append(texts, string(m.Role)+": "+tc.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

func (c *sdkClient) complete(ctx context.Context, prompt, arg, value string) ([]string, error) {
	res, err := c.cs.Complete(ctx, &sdkmcp.CompleteParams{
		Ref:      &sdkmcp.CompleteReference{Type: "ref/prompt", Name: prompt},
		Argument: sdkmcp.CompleteParamsArgument{Name: arg, Value: value},
	})
	if err != nil {
		return nil, err
	}
	return res.Completion.Values, nil
}

func (c *sdkClient) code(err error) int {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return int(we.Code)
	}
	return 0
}

// mcp-go client -------------------------------------------------------------

type mcpgoClient struct {
	c   *mcpgoclient.Client
	ver string
}

func connectMCPGo(t *testing.T, tr mcpgotransport.Interface, version string) interopClient {
	t.Helper()
	c, ver := wiretest.StartMCPGo(t, tr, version, "interop-mcp-go")
	return &mcpgoClient{c: c, ver: ver}
}

func (c *mcpgoClient) version() string { return c.ver }
func (c *mcpgoClient) close()          { c.c.Close() }

func (c *mcpgoClient) listTools(ctx context.Context) ([]string, error) {
	res, err := c.c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names, nil
}

func (c *mcpgoClient) callTool(ctx context.Context, name string, args map[string]any) (string, any, bool, error) {
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.c.CallTool(ctx, req)
	if err != nil {
		return "", nil, false, err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.StructuredContent, res.IsError, nil
}

func (c *mcpgoClient) readResource(ctx context.Context, uri string) (string, error) {
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.c.ReadResource(ctx, req)
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 {
		return "", fmt.Errorf("%d contents", len(res.Contents))
	}
	tc, ok := res.Contents[0].(mcpgo.TextResourceContents)
	if !ok {
		return "", fmt.Errorf("contents of type %T", res.Contents[0])
	}
	return tc.Text, nil
}

func (c *mcpgoClient) getPrompt(ctx context.Context, name string, args map[string]string) (string, error) {
	req := mcpgo.GetPromptRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.c.GetPrompt(ctx, req)
	if err != nil {
		return "", err
	}
	var texts []string
	for _, m := range res.Messages {
		if tc, ok := m.Content.(mcpgo.TextContent); ok {
			texts = append(texts, string(m.Role)+": "+tc.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

func (c *mcpgoClient) complete(ctx context.Context, prompt, arg, value string) ([]string, error) {
	req := mcpgo.CompleteRequest{}
	req.Params.Ref = mcpgo.PromptReference{Type: "ref/prompt", Name: prompt}
	req.Params.Argument = mcpgo.CompleteArgument{Name: arg, Value: value}
	res, err := c.c.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	return res.Completion.Values, nil
}

func (c *mcpgoClient) code(err error) int {
	switch {
	case errors.Is(err, mcpgo.ErrInvalidParams):
		return mcp.CodeInvalidParams
	case errors.Is(err, mcpgo.ErrResourceNotFound):
		return mcp.CodeResourceNotFound
	case errors.Is(err, mcpgo.ErrMethodNotFound):
		return mcp.CodeMethodNotFound
	case err != nil:
		return -1
	}
	return 0
}

// The scenario ----------------------------------------------------------------

// runScenario drives one connected client through every static feature of
// testdata/interop.hcl.
func runScenario(t *testing.T, c interopClient, era mcp.Era) {
	// A guard against a hang, not a measure: a loaded machine running the
	// race detector may take seconds per message.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	wantVersion := mcp.Version20251125
	if era == mcp.EraModern {
		wantVersion = mcp.Version20260728
	}
	if got := c.version(); got != wantVersion {
		t.Errorf("negotiated protocol version = %q, want %q", got, wantVersion)
	}

	names, err := c.listTools(ctx)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if diff := cmp.Diff([]string{"greet", "add"}, names); diff != "" {
		t.Errorf("tools/list mismatch (-want +got):\n%s", diff)
	}

	type call struct {
		name           string
		args           map[string]any
		wantText       []string // substrings, in order
		wantStructured any
		wantError      bool
	}
	for _, tc := range []call{
		{name: "greet", args: map[string]any{"name": "Ada"}, wantText: []string{"Hello Ada"},
			wantStructured: map[string]any{"greeting": "Hello Ada"}},
		{name: "add", args: map[string]any{"a": 2, "b": 3}, wantText: []string{"2 + 3 = 5"}},
		// Every violation at once, as one isError result (SEP-1303).
		{name: "add", args: map[string]any{"a": -1, "b": "x", "colour": "pink", "zzz": 1}, wantError: true,
			wantText: []string{"'zzz' not allowed", "argument a: minimum", "argument b: got string, want integer",
				"argument colour: value must be one of 'red', 'green', 'blue'"}},
		{name: "greet", args: map[string]any{}, wantError: true, wantText: []string{"name"}},
		// The validation block's own message.
		{name: "add", args: map[string]any{"a": 60, "b": 50}, wantError: true,
			wantText: []string{"a + b must be at most 100, not 110; use smaller numbers."}},
	} {
		text, structured, isError, err := c.callTool(ctx, tc.name, tc.args)
		if err != nil {
			t.Errorf("tools/call %s %v: %v", tc.name, tc.args, err)
			continue
		}
		if isError != tc.wantError {
			t.Errorf("tools/call %s %v: isError = %v, want %v (text %q)", tc.name, tc.args, isError, tc.wantError, text)
		}
		rest := text
		for _, w := range tc.wantText {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("tools/call %s %v: text %q lacks %q", tc.name, tc.args, text, w)
				break
			}
			rest = rest[i+len(w):]
		}
		if tc.wantStructured != nil {
			if diff := cmp.Diff(tc.wantStructured, structured); diff != "" {
				t.Errorf("tools/call %s structuredContent mismatch (-want +got):\n%s", tc.name, diff)
			}
		}
	}
	if _, _, _, err := c.callTool(ctx, "nope", nil); c.code(err) != mcp.CodeInvalidParams {
		t.Errorf("tools/call of an unknown tool: err = %v, want -32602", err)
	}

	for uri, want := range map[string]string{"docs://readme": "A test server for interop.", "greet://Bob": "Hello Bob"} {
		got, err := c.readResource(ctx, uri)
		if err != nil || got != want {
			t.Errorf("resources/read %s = %q, %v; want %q", uri, got, err, want)
		}
	}
	wantNotFound := mcp.CodeResourceNotFound // legacy: -32002
	if era == mcp.EraModern {
		wantNotFound = mcp.CodeInvalidParams // modern: -32602 (MUST)
	}
	if _, err := c.readResource(ctx, "docs://missing"); c.code(err) != wantNotFound {
		t.Errorf("resources/read of a missing resource: err = %v (code %d), want code %d", err, c.code(err), wantNotFound)
	}

	got, err := c.getPrompt(ctx, "review", map[string]string{"code": "x := 1", "language": "go"})
	if want := "user: Review this go: x := 1"; err != nil || got != want {
		t.Errorf("prompts/get review = %q, %v; want %q", got, err, want)
	}
	if _, err := c.getPrompt(ctx, "review", map[string]string{"language": "go"}); c.code(err) != mcp.CodeInvalidParams {
		t.Errorf("prompts/get without the required argument: err = %v, want -32602", err)
	}

	values, err := c.complete(ctx, "review", "language", "r")
	if err != nil {
		t.Errorf("completion/complete: %v", err)
	} else if diff := cmp.Diff([]string{"ruby", "rust"}, values); diff != "" {
		t.Errorf("completion/complete mismatch (-want +got):\n%s", diff)
	}
}

// wantSeen lists the (revision, method) pairs each run must have validated.
func wantSeen(era mcp.Era) []string {
	if era == mcp.EraModern {
		return []string{"2026-07-28 server/discover", "2026-07-28 tools/list", "2026-07-28 tools/call",
			"2026-07-28 resources/read", "2026-07-28 prompts/get", "2026-07-28 completion/complete"}
	}
	return []string{"2025-11-25 initialize", "2025-11-25 tools/list", "2025-11-25 tools/call",
		"2025-11-25 resources/read", "2025-11-25 prompts/get", "2025-11-25 completion/complete"}
}

var eras = []struct {
	name    string
	era     mcp.Era
	version string
}{
	{"modern", mcp.EraModern, mcp.Version20260728},
	{"legacy", mcp.EraLegacy, mcp.Version20251125},
}

// TestInteropGoSDK runs go-sdk v1.8.0's client against mcpdecl in both eras
// (it probes server/discover for 2026-07-28 and sends initialize for
// 2025-11-25) over stdio (the built binary), in-process HTTP and the
// binary's own HTTP listener. Every server message is schema-checked.
func TestInteropGoSDK(t *testing.T) {
	requireSchemas(t)
	for _, e := range eras {
		t.Run("stdio/"+e.name, func(t *testing.T) {
			log := &wireLog{}
			p := startStdio(t, log, interopConfig)
			c := connectSDK(t, &sdkmcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, e.version)
			runScenario(t, c, e.era)
			c.close()
			log.verify(t, wantSeen(e.era)...)
		})
		t.Run("http/"+e.name, func(t *testing.T) {
			log := &wireLog{}
			u, _ := startHTTPInProcess(t, log, server.New(compileFile(t, interopConfig), nil))
			c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, e.version)
			runScenario(t, c, e.era)
			c.close()
			log.verify(t, wantSeen(e.era)...)
		})
		t.Run("http-binary/"+e.name, func(t *testing.T) {
			log := &wireLog{}
			u := startHTTPBinary(t, log, interopConfig)
			c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, e.version)
			runScenario(t, c, e.era)
			c.close()
			log.verify(t, wantSeen(e.era)...)
		})
	}
}

// TestInteropMCPGo does the same with mark3labs/mcp-go v1.2.1's client.
func TestInteropMCPGo(t *testing.T) {
	requireSchemas(t)
	for _, e := range eras {
		t.Run("stdio/"+e.name, func(t *testing.T) {
			log := &wireLog{}
			p := startStdio(t, log, interopConfig)
			c := connectMCPGo(t, mcpgotransport.NewIO(p.stdout, p.stdin, io.NopCloser(strings.NewReader(""))), e.version)
			runScenario(t, c, e.era)
			log.verify(t, wantSeen(e.era)...)
		})
		t.Run("http/"+e.name, func(t *testing.T) {
			log := &wireLog{}
			u, _ := startHTTPInProcess(t, log, server.New(compileFile(t, interopConfig), nil))
			tr, err := mcpgotransport.NewStreamableHTTP(u)
			if err != nil {
				t.Fatal(err)
			}
			c := connectMCPGo(t, tr, e.version)
			runScenario(t, c, e.era)
			c.close()
			log.verify(t, wantSeen(e.era)...)
		})
		t.Run("http-binary/"+e.name, func(t *testing.T) {
			log := &wireLog{}
			u := startHTTPBinary(t, log, interopConfig)
			tr, err := mcpgotransport.NewStreamableHTTP(u)
			if err != nil {
				t.Fatal(err)
			}
			c := connectMCPGo(t, tr, e.version)
			runScenario(t, c, e.era)
			c.close()
			log.verify(t, wantSeen(e.era)...)
		})
	}
}
