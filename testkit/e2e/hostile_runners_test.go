package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// injection is what a caller sends to run commands of its own.
const injection = "echo a; echo INJECTED; id -un"

// runnerInjections are commands that run an argument as code through a
// program other than a shell named in command: each was accepted by
// validate, and a call with the value shown ran the injected commands.
var runnerInjections = []struct {
	// elem starts the element refused, for the column validate names.
	name, command, value, elem string
}{
	{"flock -c", `["flock", "/tmp", "-c", args.x]`, injection, "args.x]"},
	{"script -c", `["script", "-q", "-c", args.x, "/dev/null"]`, injection, "args.x,"},
	{"env -S", `["env", "-S", args.x]`, "sh -c 'echo a; echo INJECTED; id -un'", "args.x]"},
	{"tar --checkpoint-action", `["tar", "-cf", "/dev/null", "--checkpoint=1", "--checkpoint-action=exec=${args.x}", "/etc/hostname"]`, injection, "\"--checkpoint-action"},
	{"git alias", `["git", "-c", "alias.x=!${args.x}", "x"]`, injection, "\"alias.x"},
	{"gdb -ex", `["gdb", "-batch", "-nx", "-ex", args.x]`, "shell " + injection, "args.x]"},
	{"make --eval", `["make", "-s", "-f", "/dev/null", "--eval=${args.x}", "--eval=all:", "all"]`, "$(info $(shell " + injection + "))", "\"--eval=${args.x}"},
}

// runnerPackages are the Debian packages of the runners.
var runnerPackages = map[string]string{
	"flock": "util-linux", "script": "bsdutils", "env": "coreutils", "tar": "tar",
	"git": "git", "gdb": "gdb", "make": "make",
}

func runnersConfig(command, extra string) string {
	return fmt.Sprintf(`server {
  name    = "runners"
  version = "0.1.0"
}

tool "t" {
  description = "A tool."
  arg "x" {
    type = string
  }
  shell {
    timeout = "20s"
    %s
    command = %s
  }
}
`, extra, command)
}

// TestHostileRunnersRefusedAtLoad: each injection runs the caller's
// commands when the configuration allows it (allow_shell = true, which is
// how every one of them was served before), and without that setting
// validate refuses the configuration, naming the file, line and column of
// the element and allow_shell, and serve does not start.
func TestHostileRunnersRefusedAtLoad(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range runnerInjections {
		t.Run(tt.name, func(t *testing.T) {
			prog := strings.Trim(strings.Fields(tt.command)[0], `[",`)
			testenv.Command(t, prog, "apt-get install "+runnerPackages[prog])
			allowed := writeNamedConfig(t, "runners.hcl", runnersConfig(tt.command, "allow_shell = true"))
			srv := setups[0].connect(t, allowed, nil, nil)
			res, err := srv.c.callTool(testCtx(t), "t", map[string]any{"x": tt.value})
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if !strings.Contains(res.Text, "INJECTED") || !strings.Contains(res.Text, me.Username) {
				t.Fatalf("with allow_shell = true the value did not run (so this case proves nothing): %+v", res)
			}

			cfg := writeNamedConfig(t, "runners.hcl", runnersConfig(tt.command, ""))
			out, err := exec.Command(binPath, "validate", cfg).CombinedOutput()
			if err == nil {
				t.Fatalf("validate accepted the configuration:\n%s", out)
			}
			// command = [...] starts at column 15 of line 14.
			pos := fmt.Sprintf("runners.hcl:14:%d:", 15+strings.Index(tt.command, tt.elem))
			for _, want := range []string{pos, "allow_shell = true"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("validate output lacks %q:\n%s", want, out)
				}
			}
			serve := exec.Command(binPath, "serve", cfg)
			serve.Stdin = strings.NewReader("")
			serve.Env = childEnv(nil)
			if out, err := serve.CombinedOutput(); err == nil || strings.Contains(string(out), "INJECTED") {
				t.Errorf("serve = %v; want it refused at load:\n%s", err, out)
			}
		})
	}
}

func writeNamedConfig(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
