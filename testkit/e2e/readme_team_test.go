package e2e

import (
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// teamSection is README's walk-through of examples/team.hcl.
func teamSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(repoPath(t, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n### A team server behind OAuth\n")
	if !ok {
		t.Fatal("README.md has no section \"A team server behind OAuth\"")
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

var fence = regexp.MustCompile("(?s)```(sh|text)\n(.*?)```")

// TestREADMETeamWalkthrough runs README's walk-through of
// examples/team.hcl as written, with the ports of a real authorization
// server and of the example served over HTTP put in for 9400 and 8080:
// the request without a token gets the 401 shown, the token command and
// the call list acme's members, and the same call of add_member gets the
// 403 shown.
func TestREADMETeamWalkthrough(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed; the walk-through's commands use it")
	}
	section := teamSection(t)
	var sh, text []string
	for _, m := range fence.FindAllStringSubmatch(section, -1) {
		if m[1] == "sh" {
			sh = append(sh, m[2])
		} else {
			text = append(text, m[2])
		}
	}
	if len(sh) != 5 || len(text) != 2 {
		t.Fatalf("the walk-through has %d sh and %d text blocks, want 5 and 2", len(sh), len(text))
	}
	team, err := os.ReadFile(repoPath(t, "examples/team.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`default     = "http://127.0.0.1:8080/mcp"`, `default     = "http://127.0.0.1:9400"`} {
		if !strings.Contains(string(team), want) {
			t.Fatalf("examples/team.hcl has no %s, which the walk-through relies on", want)
		}
	}
	if !strings.Contains(sh[1], `AUTHSERVER_OPTIONS='{"port":9400}'`) || !strings.Contains(sh[2], "serve --http 127.0.0.1:8080 examples/team.hcl") {
		t.Fatalf("the walk-through starts the servers differently:\n%s\n%s", sh[1], sh[2])
	}
	for _, f := range []string{"testkit/authtest/testdata/authserver/server.mjs", "scripts/authserver.sh"} {
		if _, err := os.Stat(repoPath(t, f)); err != nil {
			t.Fatal(err)
		}
	}

	as := authtest.Start(t)
	endpoint, _ := serveTeamExample(t, as)
	asURL, _ := url.Parse(as.Issuer)
	mcpURL, _ := url.Parse(endpoint)
	local := func(s string) string {
		s = strings.ReplaceAll(s, "127.0.0.1:9400", asURL.Host)
		return strings.ReplaceAll(s, "127.0.0.1:8080", mcpURL.Host)
	}
	run := func(script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", local(script))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v running\n%s\n%s", err, local(script), out)
		}
		return strings.ReplaceAll(string(out), "\r", "")
	}
	shows := func(out, want string) {
		t.Helper()
		for _, line := range strings.Split(strings.TrimSpace(local(want)), "\n") {
			if !strings.Contains("\n"+out+"\n", "\n"+line+"\n") {
				t.Errorf("the output has no line\n%s\noutput:\n%s", line, out)
			}
		}
	}

	shows(run(sh[3]), text[0])

	out := run(sh[4])
	if !strings.Contains(out, `Ada (lead)\nBrian (developer)`) || strings.Contains(out, "Chen") {
		t.Errorf("the documented call answered %s", out)
	}

	params := regexp.MustCompile("`(\"params\":\\{\"name\":\"add_member\"[^`]*)`").FindStringSubmatch(section)
	if params == nil {
		t.Fatal("the walk-through gives no params of add_member")
	}
	add := strings.Replace(sh[4], `"params":{"name":"list_members","arguments":{}}`, params[1], 1)
	add = strings.Replace(add, "curl -s http", "curl -si http", 1)
	if add == sh[4] {
		t.Fatal("the documented call is not the list_members call the test expects")
	}
	shows(run(add), text[1])
}
