package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// serveDoc runs `mcpdecl serve` with args (--http 127.0.0.1:0 among
// them) in dir and returns its MCP endpoint and its stderr; the server
// is stopped when the test ends.
func serveDoc(t *testing.T, bin, dir string, args ...string) (string, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return waitListening(t, stderr) + "/mcp", stderr
}

// examplesCopy copies examples/ to a new folder, so that what serving
// creates (orders.db) stays out of the repository; it returns the folder
// holding examples/.
func examplesCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS("../../examples")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readmeSection is the README text from the line starting with from up
// to the next heading or bold paragraph title.
func readmeSection(t *testing.T, from string) string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	i := strings.Index(text, from)
	if i < 0 {
		t.Fatalf("README.md has no %q", from)
	}
	rest := text[i+len(from):]
	if j := regexp.MustCompile(`\n(#|\*\*)`).FindStringIndex(rest); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

// TestDocsServeHTTP serves as README's "Serving over HTTP" says and checks
// what it promises: port 0 and the start line naming the endpoint, the
// headers of --cors, the 2026-07-28 curl request, and that an app-only
// tool is still listed and answered (docs/language.md, ui).
func TestDocsServeHTTP(t *testing.T) {
	bin := buildBinary(t)
	dir := examplesCopy(t)

	t.Run("port 0", func(t *testing.T) {
		endpoint, stderr := serveDoc(t, bin, dir, "--http", "127.0.0.1:0", "examples/orders.hcl")
		doc := docBlock(t, "README.md", "text", "level=INFO msg=\"serving orders on")
		doc = strings.TrimSpace(doc)
		// The documented line, with its time and port as the only free parts.
		pattern := regexp.QuoteMeta(doc)
		pattern = strings.ReplaceAll(pattern, `time=\.\.\.`, `time=\S+`)
		pattern = strings.ReplaceAll(pattern, `127\.0\.0\.1:41873`, `127\.0\.0\.1:(\d+)`)
		m := regexp.MustCompile(`(?m)^` + pattern + `$`).FindStringSubmatch(stderr.String())
		if m == nil {
			t.Fatalf("no start line like README's\n%s\nin stderr:\n%s", doc, stderr)
		}
		if m[1] == "0" || !strings.HasSuffix(endpoint, ":"+m[1]+"/mcp") {
			t.Errorf("the start line names port %s, the server listens at %s", m[1], endpoint)
		}
		if raw := postModern(t, endpoint, "tools/list", "", `"cursor":null`, `{}`); !strings.Contains(string(raw), `"open_orders"`) {
			t.Errorf("tools/list at the printed endpoint: %s", raw)
		}
	})

	t.Run("cors", func(t *testing.T) {
		endpoint, _ := serveDoc(t, bin, dir, "--http", "127.0.0.1:0", "--cors", "examples/orders.hcl")
		want := map[string]string{}
		for _, m := range regexp.MustCompile("(?m)^\\| `(Access-Control-[A-Za-z-]+)` \\| (.*) \\|$").FindAllStringSubmatch(readmeSection(t, "**Browsers (`--cors`).**"), -1) {
			want[m[1]] = m[2]
		}
		if len(want) != 5 {
			t.Fatalf("README's --cors table has %d headers: %v", len(want), want)
		}
		req, _ := http.NewRequest(http.MethodOptions, endpoint, nil)
		req.Header.Set("Origin", "http://localhost:5173") // a loopback origin, on a loopback server
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-param-status")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("preflight: %d, want 204", resp.StatusCode)
		}
		for name, doc := range want {
			got := resp.Header.Get(name)
			switch name {
			case "Access-Control-Allow-Origin":
				if got != "http://localhost:5173" || !strings.Contains(doc, "the request's own `Origin`") || resp.Header.Get("Vary") != "Origin" {
					t.Errorf("%s: %q (Vary %q), README: %s", name, got, resp.Header.Get("Vary"), doc)
				}
			case "Access-Control-Allow-Headers":
				listed := regexp.MustCompile("^`([^`]+)`, and each `Mcp-Param-\\*` header the preflight asks for$").FindStringSubmatch(doc)
				if listed == nil || got != listed[1]+", mcp-param-status" {
					t.Errorf("%s: %q, README: %s", name, got, doc)
				}
			default:
				if "`"+got+"`" != doc {
					t.Errorf("%s: %q, README: %s", name, got, doc)
				}
			}
		}
		if got := resp.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Errorf("Access-Control-Allow-Credentials: %q, README says none is sent", got)
		}
		req.Header.Set("Origin", "https://elsewhere.example")
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from an origin not accepted: %d %v, want 403 without CORS headers", resp.StatusCode, resp.Header)
		}
	})

	t.Run("stateless curl", func(t *testing.T) {
		endpoint, _ := serveDoc(t, bin, dir, "--http", "127.0.0.1:0", "examples/orders.hcl")
		cmd := docBlock(t, "README.md", "sh", "MCP-Protocol-Version: 2026-07-28")
		req := curlRequest(t, cmd, endpoint)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var got struct {
			Result struct {
				Content []struct{ Text string } `json:"content"`
				IsError bool                    `json:"isError"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK || got.Error != nil || got.Result.IsError ||
			len(got.Result.Content) == 0 || !strings.Contains(got.Result.Content[0].Text, "Ada: 2") {
			t.Errorf("README's curl request: %d %s", resp.StatusCode, body)
		}
	})

	t.Run("app-only tool", func(t *testing.T) {
		app := t.TempDir()
		if err := os.MkdirAll(filepath.Join(app, "apps"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, "apps", "dashboard.html"), []byte("<!doctype html><title>Dashboard</title><p>totals</p>"), 0o644); err != nil {
			t.Fatal(err)
		}
		config := "server {\n  name    = \"dash\"\n  version = \"1.0.0\"\n}\n" + docBlock(t, "docs/language.md", "hcl", `tool "refresh_totals"`)
		if err := os.WriteFile(filepath.Join(app, "dash.hcl"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		lang, err := os.ReadFile("../../docs/language.md")
		if err != nil {
			t.Fatal(err)
		}
		if claim := "The server does not enforce it: every `tools/list` lists the tool, whatever the client, and every `tools/call` of it is answered like any other call"; !strings.Contains(strings.Join(strings.Fields(string(lang)), " "), claim) {
			t.Errorf("docs/language.md no longer says what this test checks: %q", claim)
		}
		endpoint, _ := serveDoc(t, bin, app, "--http", "127.0.0.1:0", "dash.hcl")
		list := postModern(t, endpoint, "tools/list", "", `"cursor":null`, `{}`)
		var listed struct {
			Result struct {
				Tools []struct {
					Name string `json:"name"`
					Meta struct {
						UI struct {
							Visibility []string `json:"visibility"`
						} `json:"ui"`
					} `json:"_meta"`
				} `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(list, &listed); err != nil {
			t.Fatalf("tools/list: %v\n%s", err, list)
		}
		found := false
		for _, tool := range listed.Result.Tools {
			found = found || tool.Name == "refresh_totals" && strings.Join(tool.Meta.UI.Visibility, ",") == "app"
		}
		if !found {
			t.Errorf("tools/list does not list refresh_totals with visibility [\"app\"]:\n%s", list)
		}
		raw := callModern(t, endpoint, "refresh_totals", `"arguments":{}`, `{}`)
		if !strings.Contains(string(raw), `"text":"refreshed"`) || strings.Contains(string(raw), `"isError":true`) {
			t.Errorf("tools/call refresh_totals: %s, want it answered", raw)
		}
	})
}

// curlRequest builds the request a curl command line makes: its URL
// (with its scheme and host replaced by endpoint's), -H headers and -d
// body. Only the options the README's curl examples use are known.
func curlRequest(t *testing.T, cmd, endpoint string) *http.Request {
	t.Helper()
	words := shellWords(t, strings.ReplaceAll(cmd, "\\\n", " "))
	if len(words) == 0 || words[0] != "curl" {
		t.Fatalf("not a curl command: %q", cmd)
	}
	var target, body string
	header := http.Header{}
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-s":
		case w == "-H" && i+1 < len(words):
			i++
			name, value, _ := strings.Cut(words[i], ":")
			header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		case w == "-d" && i+1 < len(words):
			i++
			body = words[i]
		case !strings.HasPrefix(w, "-") && target == "":
			target = w
		default:
			t.Fatalf("curl option %q is not known to this test", w)
		}
	}
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := url.Parse(endpoint)
	u.Scheme, u.Host = e.Scheme, e.Host
	method := http.MethodGet
	if body != "" {
		method = http.MethodPost
	}
	req, err := http.NewRequest(method, u.String(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	return req
}

// shellWords splits a command line as sh does for the quoting the docs
// use: single and double quotes, backslash escapes outside quotes.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				t.Fatalf("unclosed ' in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				t.Fatalf("unclosed \" in %q", line)
			}
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
