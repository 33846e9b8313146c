package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// Hostile input against shell tools, served to real clients: an argument
// must not choose environment variable names, become an option of the
// program, or become a script a shell or interpreter runs. Each attack
// aims at a marker file in the test's own directory, which must never
// appear.
//
//	go test ./testkit/e2e/ -run Hostile

// hostileShellConfig is served to the clients: git tools on a repository
// of the test's own, and a command whose output the byte cap cuts inside
// a character.
const hostileShellConfig = `
server {
  name    = "hostile-shell"
  version = "0.1.0"
}

variable "repo" {
  type = string
}

backend "shell" "git" {
  dir     = var.repo
  timeout = "10s"
  env     = { HOME = var.repo, GIT_CONFIG_NOSYSTEM = "1" }
}

tool "log" {
  description = "Show the commits of a revision, one line each."
  arg "rev" {
    type = string
  }
  shell {
    backend = "git"
    command = ["git", "log", "--oneline", args.rev]
  }
}

tool "status" {
  description = "Show the status of the repository, with a label in its environment."
  arg "label" {
    type = string
  }
  shell {
    backend = "git"
    command = ["git", "status", "--short"]
    env     = { LABEL = args.label }
  }
}

tool "accented" {
  description = "Print accented text longer than the output cap."
  shell {
    command          = ["printf", "abc\u00e9\u00e9"]
    max_output_bytes = 4
  }
}
`

// gitRepo makes a repository with one commit in a new directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	testenv.Command(t, "git", "apt-get install git")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first commit"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH")}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func writeConfig(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hostile.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkNoMarker(t *testing.T, what, marker string) {
	t.Helper()
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("%s: %s was written: the argument ran a command or became an option", what, marker)
	}
}

// TestHostileShellServed calls the served tools with values that try to
// become options of git (after a flag, where the load-time check once
// looked no further), environment variables that run commands, or a cut
// character; over HTTP in process and over stdio to the binary.
func TestHostileShellServed(t *testing.T) {
	requireSchemas(t)
	cfg := writeConfig(t, hostileShellConfig)
	for _, s := range []setup{setups[0], setups[3]} {
		t.Run(s.name, func(t *testing.T) {
			repo := gitRepo(t)
			marker := filepath.Join(t.TempDir(), "pwned")
			srv := s.connect(t, cfg, map[string]string{"repo": repo}, nil)
			c := srv.c
			ctx := testCtx(t)

			for _, rev := range []string{"--output=" + marker, "-o" + marker, "--output", "-"} {
				res, err := c.callTool(ctx, "log", map[string]any{"rev": rev})
				if err != nil {
					t.Fatalf("log %q: %v", rev, err)
				}
				if !res.IsError || !strings.Contains(res.Text, `starts with "-"`) {
					t.Errorf("log %q = %+v; want the value refused as an option", rev, res)
				}
				checkNoMarker(t, "log "+rev, marker)
			}
			res, err := c.callTool(ctx, "log", map[string]any{"rev": "HEAD"})
			if err != nil || res.IsError || !strings.Contains(res.Text, "first commit") {
				t.Errorf("log HEAD = %+v, %v; want the commit", res, err)
			}

			// A value holding lines of NAME=value stays the value of LABEL.
			label := "x\nGIT_CONFIG_COUNT=1\nGIT_CONFIG_KEY_0=core.fsmonitor\nGIT_CONFIG_VALUE_0=touch " + marker
			res, err = c.callTool(ctx, "status", map[string]any{"label": label})
			if err != nil || res.IsError {
				t.Errorf("status = %+v, %v; want success", res, err)
			}
			checkNoMarker(t, "status", marker)

			res, err = c.callTool(ctx, "accented", map[string]any{})
			if err != nil {
				t.Fatalf("accented: %v", err)
			}
			if want := "abc\n[output cut: 4 more bytes]"; res.Text != want {
				t.Errorf("accented = %q, want %q (cut before the character, not inside it)", res.Text, want)
			}
			srv.wire.verify(t, revision(s.era)+" tools/call")
		})
	}
}

// TestHostileShellRefusedAtLoad: configurations that would let a value
// choose environment variable names, or hand a shell or interpreter a
// script from the arguments, are refused by validate with the file, line
// and column and what to write instead, and serve does not start, so no
// call can reach them.
func TestHostileShellRefusedAtLoad(t *testing.T) {
	head := `
server {
  name    = "hostile-shell"
  version = "0.1.0"
}

tool "t" {
  description = "A tool."
  arg "value" {
    type = string
  }
  arg "vars" {
    type = map(string)
  }
  shell {
`
	tests := []struct {
		name, body, summary, pos, advice string
	}{
		{"computed env names", `    command = ["git", "status"]
    env     = args.vars
`, "Computed environment names", "hostile.hcl:17:15", "env = { NAME = args.x }"},
		{"computed env merged", `    command = ["tar", "-tf", "/dev/null"]
    env     = merge({ LC_ALL = "C" }, args.vars)
`, "Computed environment names", "hostile.hcl:17:15", "env = { NAME = args.x }"},
		{"shell script on stdin", `    command = ["sh"]
    stdin   = args.value
`, "Arguments run as code", "hostile.hcl:17:15", "allow_shell = true"},
		{"interpreter script on stdin behind a wrapper", `    command = ["timeout", "5", "python3", "-"]
    stdin   = "${args.value}\n"
`, "Arguments run as code", "hostile.hcl:17:15", "script file"},
		{"bash -s", `    command = ["bash", "-s", "--", "x"]
    stdin   = args.value
`, "Arguments run as code", "hostile.hcl:17:15", "script file"},
		{"script file from an argument", `    command = ["sh", args.value]
`, "Script taken from the arguments", "hostile.hcl:16:22", "/srv/scripts/report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := writeConfig(t, head+tt.body+"  }\n}\n")
			out, err := exec.Command(binPath, "validate", cfg).CombinedOutput()
			if err == nil {
				t.Fatalf("validate accepted the configuration:\n%s", out)
			}
			for _, want := range []string{tt.summary, tt.pos, tt.advice} {
				if !strings.Contains(string(out), want) {
					t.Errorf("validate output lacks %q:\n%s", want, out)
				}
			}
			serve := exec.Command(binPath, "serve", cfg)
			serve.Stdin = strings.NewReader("")
			serve.Env = childEnv(nil)
			if out, err := serve.CombinedOutput(); err == nil || !strings.Contains(string(out), tt.summary) {
				t.Errorf("serve = %v; want it refused with %q:\n%s", err, tt.summary, out)
			}
		})
	}
}
