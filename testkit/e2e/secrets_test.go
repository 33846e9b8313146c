package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// transcript collects everything a server let out during a test, to be
// searched for the secret.
type transcript struct {
	parts []string
}

func (tr *transcript) add(what string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = fmt.Appendf(nil, "%v", v)
	}
	tr.parts = append(tr.parts, what+": "+string(b)+" / "+fmt.Sprint(v))
}

// check fails the test for every part that holds the secret.
func (tr *transcript) check(t *testing.T) {
	t.Helper()
	for _, p := range tr.parts {
		if strings.Contains(p, secret) {
			t.Errorf("the secret leaked: %s", p)
		}
	}
}

// exercise runs succeeding and failing calls of examples/library.hcl and
// records every result and error in tr.
func exercise(ctx context.Context, t *testing.T, c client, tr *transcript, apiUp bool) {
	t.Helper()
	call := func(name string, args map[string]any) toolResult {
		res, err := c.callTool(ctx, name, args)
		tr.add("tools/call "+name, res)
		if err != nil {
			tr.add("tools/call error", err.Error())
		}
		return res
	}
	read := func(uri string) error {
		text, mime, err := c.readResource(ctx, uri)
		tr.add("resources/read "+uri, []string{text, mime})
		if err != nil {
			tr.add("resources/read error", err.Error())
		}
		return err
	}

	res := call("search", map[string]any{"query": "river"})
	if apiUp != !res.IsError {
		t.Errorf("search river (API up %v) = %+v", apiUp, res)
	}
	if !apiUp && !strings.Contains(res.Text, "API") && !strings.Contains(res.Text, "connect") {
		t.Logf("search with the API down answered %q", res.Text)
	}
	if res := call("search", map[string]any{"query": queryBoom}); !res.IsError || (apiUp && !strings.Contains(res.Text, "500")) {
		t.Errorf("search that makes the API fail = %+v; want an isError result naming the 500", res)
	}
	if res := call("search", map[string]any{"query": queryEcho}); !res.IsError {
		t.Errorf("search that makes the API echo its headers = %+v; want an isError result", res)
	}
	call("search", map[string]any{"query": "x"})
	call("checkout", map[string]any{"isbn": isbnNoCopies, "member": "M-1"})
	call("checkout", map[string]any{"isbn": isbnUnknown, "member": "M-1"})
	if res := call("checkout", map[string]any{"isbn": isbnAtlas, "member": "M-1"}); apiUp == res.IsError {
		t.Errorf("checkout (API up %v) = %+v", apiUp, res)
	}
	if err := read("library://books/" + isbnAtlas); apiUp != (err == nil) {
		t.Errorf("reading a book (API up %v): %v", apiUp, err)
	}
	if err := read("library://books/" + isbnUnknown); err == nil {
		t.Errorf("reading an unknown book succeeded")
	}
	read("library://books/123")
	read("library://policy")
	msgs, err := c.getPrompt(ctx, "reading_list", map[string]string{"topic": "secrets"})
	tr.add("prompts/get", msgs)
	if err != nil {
		tr.add("prompts/get error", err.Error())
	}
}

// TestSecretNeverLeaks serves examples/library.hcl with LIBRARY_TOKEN set,
// against the fake API (successes, 404, 409 and 500 answers, one of which
// echoes the request's headers) and against a closed port, over every
// setup: the token reaches the API, and appears in no result, no error, no
// server message, no server log line (debug level) and no stderr line.
func TestSecretNeverLeaks(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/library.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			tr := &transcript{}
			api := libraryAPI(t)
			for _, up := range []bool{true, false} {
				vars := libraryVars(api)
				if !up {
					vars = map[string]string{"base_url": closedURL(t)}
				}
				srv := s.connect(t, cfg, vars, libraryEnv)
				exercise(testCtx(t), t, srv.c, tr, up)
				srv.c.close()
				srv.wire.verify(t, handshake(s.era))
				for _, m := range srv.wire.All() {
					tr.add("server message ("+m.Method+")", string(m.Body))
				}
				tr.add("server log", srv.logs.String())
				if !up && !strings.Contains(srv.logs.String(), "call failed") {
					t.Errorf("API up %v: the server log has no failed call; the capture may be broken:\n%s", up, srv.logs)
				}
				if testing.Verbose() {
					t.Logf("API up %v: server log:\n%s", up, srv.logs)
				}
			}
			sawToken := false
			for _, r := range api.requests() {
				if r.Header.Get("Authorization") == "Bearer "+secret {
					sawToken = true
				}
			}
			if !sawToken {
				t.Errorf("the library API never received the token")
			}
			tr.check(t)
		})
	}
}

// TestSecretNotInCommands runs `mcpdecl inspect` and `mcpdecl validate` on
// the library example with LIBRARY_TOKEN in the environment.
func TestSecretNotInCommands(t *testing.T) {
	cfg := repoPath(t, "examples/library.hcl")
	for _, args := range [][]string{
		{"inspect", "--var", "base_url=http://127.0.0.1:1", cfg},
		{"inspect", cfg},
		{"validate", "--format", "json", "--var", "base_url=http://127.0.0.1:1", cfg},
		{"validate", cfg},
	} {
		cmd := exec.Command(binPath, args...)
		cmd.Env = childEnv(libraryEnv)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("mcpdecl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if strings.Contains(string(out), secret) {
			t.Errorf("mcpdecl %s printed the secret:\n%s", strings.Join(args, " "), out)
		}
		if args[0] == "inspect" && !strings.Contains(string(out), `"checkout"`) {
			t.Errorf("mcpdecl %s printed no tools:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestSecretEchoedBareByAPI: an API that names the bearer token it was
// sent in an error answer (401 {"error": "token <token> has expired"}).
// The default failure message quotes the answer's body to the model; the
// http adapter must redact the token alone, which came from
// env("LIBRARY_TOKEN"), not only the whole header value ("Bearer <token>").
func TestSecretEchoedBareByAPI(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/library.hcl")
	for _, s := range setups[:1] {
		api := libraryAPI(t)
		srv := s.connect(t, cfg, libraryVars(api), libraryEnv)
		res, err := srv.c.callTool(testCtx(t), "search", map[string]any{"query": queryBadToken})
		if err != nil || !res.IsError {
			t.Fatalf("search that makes the API answer 401 = %+v, %v; want an isError result", res, err)
		}
		if strings.Contains(res.Text, secret) || strings.Contains(srv.logs.String(), secret) {
			t.Fatal("adapters/http redacts the whole secret header value (\"Bearer <token>\") but not the env() value inside it; " +
				"an API error body that names the bare token reaches the model in the failure message: " +
				strings.ReplaceAll(res.Text, secret, "<LIBRARY_TOKEN>"))
		}
		srv.c.close()
		srv.wire.verify(t, handshake(s.era))
	}
}

// TestSecretNotInStartupError: a token with a trailing newline (a common
// mistake with `export TOKEN=$(cat file)`) stops `mcpdecl serve` before it
// serves; the message says what is wrong without printing the token.
func TestSecretNotInStartupError(t *testing.T) {
	api := libraryAPI(t)
	cmd := exec.Command(binPath, "serve", "--var", "base_url="+api.URL, repoPath(t, "examples/library.hcl"))
	cmd.Env = childEnv(map[string]string{"LIBRARY_TOKEN": secret + "\n"})
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Errorf("mcpdecl serve with a token holding a newline started:\n%s", out)
	}
	if strings.Contains(string(out), secret) {
		t.Errorf("mcpdecl serve printed the secret:\n%s", out)
	}
	if !strings.Contains(string(out), "line break") {
		t.Errorf("mcpdecl serve did not say what is wrong:\n%s", out)
	}
	if n := len(api.requests()); n != 0 {
		t.Errorf("the API received %d requests", n)
	}
}
