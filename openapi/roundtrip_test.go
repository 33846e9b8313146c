package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

const petstoreKey = "special-key"

// TestPetstoreRoundTrip imports the Petstore document, serves the result
// with mcpdecl over Streamable HTTP on 127.0.0.1, and calls its tools with
// the go-sdk client against Prism mocking the same document: the client
// must get what the mock answers, the API key must reach it, and a call
// missing a required argument must be refused before any request is made.
func TestPetstoreRoundTrip(t *testing.T) {
	doc := filepath.Join(npmPackage(t, "openapi-specs", "@readme/oas-examples"), "3.0", "json", "petstore.json")
	prism := startPrism(t, doc)
	tap := newTap(t, prism)

	cs := servePetstore(t, doc, tap.url)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"get_pet_by_id", "get_inventory", "place_order", "find_pets_by_status"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tool %s is not listed; the tools are %v", want, names)
		}
	}

	t.Run("answer", func(t *testing.T) {
		got := callJSON(t, ctx, cs, "get_pet_by_id", map[string]any{"pet_id": 40})
		want := direct(t, prism, "GET", "/pet/40", "")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the tool answered %v; the mock answers %v", got, want)
		}
		last := tap.last(t)
		if last.path != "/pet/40" || last.apiKey != petstoreKey {
			t.Errorf("the mock got %s with api_key %q; want /pet/40 with the key from the environment", last.path, last.apiKey)
		}
	})

	t.Run("body", func(t *testing.T) {
		order := map[string]any{"petId": 40, "quantity": 2, "status": "placed"}
		got := callJSON(t, ctx, cs, "place_order", map[string]any{"body": order})
		want := direct(t, prism, "POST", "/store/order", `{"petId":40,"quantity":2,"status":"placed"}`)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the tool answered %v; the mock answers %v", got, want)
		}
		if last := tap.last(t); last.method != "POST" || last.body != `{"petId":40,"quantity":2,"status":"placed"}` {
			t.Errorf("the mock got %s %s; want the body as the client sent it", last.method, last.body)
		}
	})

	t.Run("map answer", func(t *testing.T) {
		got := callJSON(t, ctx, cs, "get_inventory", map[string]any{})
		if want := direct(t, prism, "GET", "/store/inventory", ""); !reflect.DeepEqual(got, want) {
			t.Errorf("the tool answered %v; the mock answers %v", got, want)
		}
	})

	t.Run("missing argument refused before the call", func(t *testing.T) {
		before := tap.count()
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "get_pet_by_id", Arguments: map[string]any{}})
		if err == nil && !res.IsError {
			t.Fatalf("a call without pet_id succeeded: %v", resultText(res))
		}
		msg := fmt.Sprint(err)
		if res != nil {
			msg += resultText(res)
		}
		if !strings.Contains(msg, "pet_id") {
			t.Errorf("the refusal does not name pet_id: %s", msg)
		}
		if n := tap.count(); n != before {
			t.Errorf("the mock got %d requests for a refused call", n-before)
		}
	})

	t.Run("the mock's refusal", func(t *testing.T) {
		// findPetsByStatus asks for OAuth (petstore_auth), which the
		// backend cannot get: Prism refuses the request (401), and the
		// client gets an error result rather than the refusal as data.
		before := tap.count()
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "find_pets_by_status", Arguments: map[string]any{"status": []any{"available"}}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			t.Errorf("the mock's 401 reached the client as a result: %s", resultText(res))
		}
		if tap.count() != before+1 || !strings.HasPrefix(tap.last(t).path, "/pet/findByStatus?status=available") {
			t.Errorf("the mock did not get the request: %+v", tap.last(t))
		}
	})
}

func callJSON(t *testing.T, ctx context.Context, cs *sdkmcp.ClientSession, tool string, args map[string]any) any {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s answered an error: %s", tool, resultText(res))
	}
	var v any
	if err := json.Unmarshal([]byte(resultText(res)), &v); err != nil {
		t.Fatalf("%s answered %q, not JSON: %v", tool, resultText(res), err)
	}
	return v
}

func resultText(res *sdkmcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdkmcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// direct asks the mock itself, as the backend does.
func direct(t *testing.T, base, method, path, body string) any {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("api_key", petstoreKey)
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return v
}

// servePetstore imports the document, compiles it with the base URL and
// key given as a user would, and serves it in-process over HTTP.
func servePetstore(t *testing.T, doc, base string) *sdkmcp.ClientSession {
	t.Helper()
	out := importFile(t, doc, Filter{})
	file := filepath.Join(t.TempDir(), "petstore.hcl")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lang.Load(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	env := func(name string) (string, bool) {
		if name == "SWAGGER_PETSTORE_API_KEY" {
			return petstoreKey, true
		}
		return "", false
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{Vars: map[string]string{"base_url": base}, LookupEnv: env})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := server.Open(ctx, tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcp.NewServer(srv, nil).HTTPHandler(nil))
	t.Cleanup(func() { ts.Close(); srv.Close() })
	client := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "openapi-roundtrip", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdkmcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// startPrism runs `prism mock` on a free loopback port and returns its URL.
func startPrism(t *testing.T, doc string) string {
	t.Helper()
	bin := filepath.Join(toolsDir(), "openapi-prism", "node_modules", ".bin", "prism")
	if _, err := os.Stat(bin); err != nil {
		testenv.Skip(t, "Prism in "+filepath.Dir(bin), "run ./scripts/openapi-deps.sh")
	}
	testenv.Command(t, "node", "apt-get install nodejs (Prism runs on it)")
	port := freePort(t)
	cmd := exec.Command(bin, "mock", "-p", fmt.Sprint(port), "-h", "127.0.0.1", doc)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logs := &strings.Builder{}
	var mu sync.Mutex
	cmd.Stdout = writerFunc(func(p []byte) { mu.Lock(); logs.Write(p); mu.Unlock() })
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		_ = cmd.Wait()
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/"); err == nil {
			resp.Body.Close()
			return base
		}
		time.Sleep(200 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Fatalf("Prism did not listen on %s within 90 s; its output:\n%s", base, logs.String())
	return ""
}

type writerFunc func([]byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// tap is a reverse proxy in front of the mock that records each request,
// so the test sees what mcpdecl sent.
type tap struct {
	url  string
	mu   sync.Mutex
	seen []seenRequest
}

type seenRequest struct{ method, path, apiKey, body string }

func newTap(t *testing.T, target string) *tap {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		tp.mu.Lock()
		tp.seen = append(tp.seen, seenRequest{r.Method, r.URL.RequestURI(), r.Header.Get("api_key"), string(body)})
		tp.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	tp.url = ts.URL
	return tp
}

func (tp *tap) count() int {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return len(tp.seen)
}

func (tp *tap) last(t *testing.T) seenRequest {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.seen) == 0 {
		t.Fatal("the mock got no request")
	}
	return tp.seen[len(tp.seen)-1]
}
