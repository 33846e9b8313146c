package shelladapter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// binDir returns a directory holding an executable "tool" and a
// non-executable "data", for PATH lookups that do not depend on the host.
func binDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fakeBin adds an executable for each name to dir, so that commands naming
// interpreters and wrappers compile whatever the host has installed.
func fakeBin(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiagnostics(t *testing.T) {
	bin := binDir(t)
	fakeBin(t, bin, "env", "timeout", "nice", "xargs", "python3", "perl", "ruby", "node", "nodejs",
		"php", "lua", "Rscript", "pwsh", "osascript", "awk", "gawk", "git", "ls", "grep", "sh", "bash", "kill")
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "valid call without backend",
			src: `
shell {
  command = ["ls", "-l", "/srv/${args.dir}", "--", args.n]
  timeout = "10s"
  env     = { LC_ALL = "C", DIR = args.dir }
}`,
		},
		{
			name: "valid call with backend",
			src: `
backend "shell" "tools" {
  path    = "BIN:/usr/bin"
  env     = { LANG = "C.UTF-8" }
  timeout = "1m"
}
shell {
  backend          = "tools"
  command          = ["tool", "--", args.query]
  output           = "json"
  progress_pattern = "(\\d+)/(\\d+)"
}`,
		},
		{
			name: "command not written as a list",
			src: `
shell {
  command = split(" ", args.query)
}
shell {
  command = []
}`,
			want: []string{
				"3:13 Command is not a list",
				"6:13 Empty command",
			},
		},
		{
			name: "program checks",
			src: `
shell {
  command = ["${args.query}", "x"]
}
shell {
  command = ["no-such-program-xyz"]
}
shell {
  command = ["./run.sh"]
}
shell {
  command = ["BIN/data"]
}
shell {
  command = ["BIN/missing"]
}`,
			want: []string{
				"3:14 Interpolated program name",
				"6:14 Program not found",
				"warning: 9:14 Relative program path",
				"12:14 Program not executable",
				"15:14 Program not found",
			},
		},
		{
			name: "shell parses interpolated script",
			src: `
shell {
  command = ["sh", "-c", "du -sh /srv/${args.dir}"]
}
shell {
  command = ["/bin/bash", "-ec", "echo ${args.query}"]
}
shell {
  command = ["sh", "-c", "du -sh -- \"$1\"", "sh", "/srv/${args.dir}"]
}
shell {
  command     = ["sh", "-c", "du -sh /srv/${args.dir}"]
  allow_shell = true
}`,
			want: []string{
				"3:26 Arguments parsed by the shell",
				"6:34 Arguments parsed by the shell",
			},
		},
		{
			name: "shell behind a wrapper",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["env", "sh", "-c", args.query]
}
shell {
  backend = "b"
  command = ["timeout", "5", "bash", "-c", "echo ${args.query}"]
}
shell {
  backend = "b"
  command = ["nice", "-n", "10", "/bin/sh", "-ec", "echo ${args.query}"]
}
shell {
  backend = "b"
  command = ["xargs", "sh", "-c", "echo ${args.query}"]
}
shell {
  backend = "b"
  command = ["env", "sh", "-c", "echo \"$1\"", "sh", args.query]
}`,
			want: []string{
				"7:33 Arguments parsed by the shell",
				"11:44 Arguments parsed by the shell",
				"15:52 Arguments parsed by the shell",
				"19:35 Arguments parsed by the shell",
			},
		},
		{
			name: "interpreters run interpolated code",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["python3", "-c", args.query]
}
shell {
  backend = "b"
  command = ["env", "python3.12", "-uc", "print('${args.query}')"]
}
shell {
  backend = "b"
  command = ["perl", "-lne", "print if /${args.query}/"]
}
shell {
  backend = "b"
  command = ["ruby", "-e", args.query]
}
shell {
  backend = "b"
  command = ["node", "--eval", args.query]
}
shell {
  backend = "b"
  command = ["nodejs", "-p", args.query]
}
shell {
  backend = "b"
  command = ["php", "-r", args.query]
}
shell {
  backend = "b"
  command = ["lua", "-e", args.query]
}
shell {
  backend = "b"
  command = ["Rscript", "-e", args.query]
}
shell {
  backend = "b"
  command = ["pwsh", "-NoProfile", "-Command", args.query]
}
shell {
  backend = "b"
  command = ["osascript", "-e", args.query]
}
shell {
  backend = "b"
  command = ["timeout", "5", "perl", "-E", args.query]
}`,
			want: []string{
				"7:31 Arguments run as code",
				"11:42 Arguments run as code",
				"15:30 Arguments run as code",
				"19:28 Arguments run as code",
				"23:32 Arguments run as code",
				"27:30 Arguments run as code",
				"31:27 Arguments run as code",
				"35:27 Arguments run as code",
				"39:31 Arguments run as code",
				"43:48 Arguments run as code",
				"47:33 Arguments run as code",
				"51:44 Arguments run as code",
			},
		},
		{
			name: "awk program from the arguments",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["awk", args.query]
}
shell {
  backend = "b"
  command = ["gawk", "-F", ":", "-v", "x=1", "{ print ${args.query} }", "/etc/passwd"]
}
shell {
  backend = "b"
  command = ["env", "mawk", "--", args.query]
}
shell {
  backend = "b"
  command = ["awk", "-v", "pattern=${args.query}", "$0 ~ pattern", "/etc/passwd"]
}
shell {
  backend = "b"
  command = ["awk", "-f", "/srv/prog.awk", args.dir]
}`,
			want: []string{
				"7:21 Arguments run as code",
				"11:46 Arguments run as code",
				"15:35 Arguments run as code",
			},
		},
		{
			name: "interpreters with values as separate arguments",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["python3", "/srv/script.py", "--", args.query]
}
shell {
  backend = "b"
  command = ["python3", "-c", "import sys; print(sys.argv[1])", args.query]
}
shell {
  backend = "b"
  command = ["env", "LANG=C", "ls", "--", args.dir]
}
shell {
  backend = "b"
  command = ["perl", "-e", "print $ARGV[0]", args.query]
}
shell {
  backend     = "b"
  command     = ["python3", "-c", args.query]
  allow_shell = true
}`,
		},
		{
			name: "arguments that may be read as options",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["git", "log", args.query, "--"]
}
shell {
  backend = "b"
  command = ["env", "LANG=C", "ls", "${args.dir}/sub", "--format=long", args.status]
}
shell {
  backend = "b"
  command = ["ls", "--", args.dir]
}
shell {
  backend = "b"
  command = ["git", "log", "--end-of-options", args.query]
}
shell {
  backend = "b"
  command = ["grep", "-e", args.query, "--", "/srv/log", args.n, "/srv/${args.dir}"]
}
shell {
  backend = "b"
  command = ["python3", "/srv/script.py", args.query]
}
shell {
  backend = "b"
  command = ["sh", "-c", "grep -- \"$1\" /srv/log", "sh", args.query]
}`,
			want: []string{
				"warning: 7:28 Argument may be read as an option",
				"warning: 11:37 Argument may be read as an option",
				"warning: 11:73 Argument may be read as an option",
				"warning: 23:28 Argument may be read as an option",
			},
		},
		{
			name: "environment names come from the config",
			src: `
shell {
  command = ["env"]
  env     = args.filters
}
shell {
  command = ["env"]
  env     = merge({ A = "x" }, { GIT_CONFIG_COUNT = args.query })
}
shell {
  command = ["env"]
  env     = { LD_PRELOAD = args.query, TAR_OPTIONS = "--no-same-owner", LC_ALL = args.query }
}
shell {
  command = ["env"]
  env     = { (args.query) = "x" }
}
shell {
  command = ["env"]
  env     = { for k, v in args.filters : k => v }
}
shell {
  command = ["env"]
  env     = merge({ A = "x" }, args.filters)
}`,
			want: []string{
				"4:13 Computed environment names",
				"8:13 Environment variable that runs code set from a call",
				"12:15 Environment variable that runs code set from a call",
				"16:15 Invalid map key",
				"20:13 Computed environment names",
				"24:13 Computed environment names",
			},
		},
		{
			name: "a variable that runs code may come from a call only with allow_shell",
			src: `
shell {
  command = ["env"]
  env     = { PERL5OPT = args.query, PAGER = "cat" }
}
shell {
  command     = ["env"]
  allow_shell = true
  env         = { GIT_SSH_COMMAND = args.query }
}
shell {
  command = ["env", "LD_PRELOAD=${args.query}", "true"]
}`,
			want: []string{
				"4:15 Environment variable that runs code set from a call",
				"warning: 9:19 Environment variable that runs code set from a call",
				"12:21 Environment variable that runs code set from a call",
			},
		},
		{
			name: "a flag before an argument does not make it a value",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["git", "log", "--oneline", args.query]
}
shell {
  backend       = "b"
  command       = ["git", "log", "--oneline", args.query]
  allow_options = true
}
shell {
  backend = "b"
  command = ["git", "log", "--format=${args.query}", "--end-of-options", "${args.status}"]
}
shell {
  backend = "b"
  command = ["git", "log", lower(args.query), "--", args.flag]
}
shell {
  backend = "b"
  command = ["kill", args.n]
}
shell {
  backend = "b"
  command = ["python3", args.query]
}
shell {
  backend = "b"
  command = ["grep", "-e", args.query, args.flag]
}
shell {
  backend = "b"
  command = ["ls", "-${args.query}", "--${args.status}=x", "-${args.n}", "-l${args.query}", "--", "x"]
}
shell {
  backend       = "b"
  command       = ["ls", "-${args.query}"]
  allow_options = true
}
shell {
  backend = "b"
  command = ["grep", "-r", "python3", "/srv", args.query]
}`,
			want: []string{
				"warning: 7:41 Argument may be read as an option",
				"warning: 20:28 Argument may be read as an option",
				"warning: 24:22 Argument may be read as an option",
				"28:25 Script taken from the arguments",
				"warning: 32:28 Argument may be read as an option",
				"36:20 Argument names an option",
				"36:38 Argument names an option",
				"warning: 45:47 Argument may be read as an option",
			},
		},
		{
			name: "scripts read from stdin or named by an argument",
			src: `
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["sh"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["timeout", "5", "bash", "-s", "--", "x"]
  stdin   = "echo ${args.query}"
}
shell {
  backend = "b"
  command = ["python3", "-"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["env", "perl", "/dev/stdin"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["python3", "/srv/script.py"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["sh", "-c", "wc -l"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["env", "python3", "-u", "${args.dir}/x.py"]
}
shell {
  backend     = "b"
  command     = ["sh"]
  stdin       = args.query
  allow_shell = true
}
shell {
  backend = "b"
  command = ["xargs", "python3"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["grep", "-c", "x"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["grep", "-r", "python3", "/srv/${args.dir}"]
  stdin   = args.query
}`,
			want: []string{
				"8:13 Arguments run as code",
				"13:13 Arguments run as code",
				"18:13 Arguments run as code",
				"23:13 Arguments run as code",
				"37:38 Script taken from the arguments",
				"48:13 Arguments run as code",
			},
		},
		{
			name: "argument values",
			src: `
shell {
  command = ["ls", args.tags, "%{ if args.flag }-v%{ endif }", "${args.nope}"]
}`,
			want: []string{
				"3:20 Invalid argument value",
				"3:32 Template directive not allowed",
				"3:67 Reference to undeclared argument",
			},
		},
		{
			name: "settings",
			src: `
shell {
  command          = ["ls"]
  output           = "jsno"
  mime_type        = "image/png"
  progress_pattern = "\\d+"
  timeout          = "soon"
  max_output_bytes = -1
  concurrency      = 0
  dir              = "/no/such/dir"
  env              = { "1BAD" = "x", OK = args.tags }
  stdin            = args.filters
  shell            = true
}
shell {
  command          = ["ls"]
  output           = "lines"
  mime_type        = "image/png"
  progress_pattern = "(["
}`,
			want: []string{
				"13:3 Unsupported argument",
				"7:22 Invalid duration",
				"8:22 Invalid number",
				"9:22 Invalid number",
				"10:22 Directory not found",
				"12:22 Invalid value type",
				"11:24 Invalid environment variable name",
				"11:43 Invalid value type",
				"4:22 Invalid output format",
				"6:22 Invalid progress pattern",
				"18:3 Conflicting output settings",
				"19:22 Invalid progress pattern",
			},
		},
		{
			name: "backend settings",
			src: `
backend "shell" "b" {
  path             = "bin:/usr/bin"
  env              = { "A-B" = "x" }
  concurrency      = 0
  dir              = "/no/such/dir"
}`,
			want: []string{
				"6:22 Directory not found",
				"4:24 Invalid environment variable name",
				"3:22 Relative PATH entry",
				"5:22 Invalid number",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.ReplaceAll(tt.src, "BIN", bin)
			got := checktest.Compile(t, New(), src)
			gotDiags := checktest.Format(got.Diags)
			if diff := cmp.Diff(tt.want, gotDiags); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
				for _, d := range got.Diags {
					t.Logf("%s", d.Error())
				}
			}
		})
	}
}

func TestCompiled(t *testing.T) {
	bin := binDir(t)
	got := checktest.Compile(t, New(), strings.ReplaceAll(`
backend "shell" "tools" {
  path        = "BIN"
  env         = { API_TOKEN = "s3cret" }
  concurrency = 2
}
shell {
  backend = "tools"
  command = ["tool", "--token=${env("TOKEN")}", "/srv/${args.dir}", "--"]
  env     = { LC_ALL = "C" }
}`, "BIN", bin))
	if len(got.Diags) > 0 {
		t.Fatalf("unexpected diagnostics: %s", got.Diags.Error())
	}
	wantBackend := map[string]any{
		"kind": "shell", "name": "tools", "path": bin, "timeout": "30s",
		"max_output_bytes": int64(1 << 20), "concurrency": 2, "env": []any{"API_TOKEN"},
	}
	if diff := cmp.Diff(wantBackend, got.Backends["tools"].Describe()); diff != "" {
		t.Errorf("backend Describe (-want +got):\n%s", diff)
	}
	a := got.Actions[0].(*Action)
	wantAction := map[string]any{
		"kind":    "shell",
		"backend": "tools",
		"program": filepath.Join(bin, "tool"),
		"command": []any{"tool", `"--token=${env("TOKEN")}"`, `"/srv/${args.dir}"`, "--"},
		"output":  "text", "timeout": "30s", "max_output_bytes": int64(1 << 20),
		"concurrency": 2, "allow_shell": false, "allow_options": false, "env": []any{"LC_ALL"},
	}
	if diff := cmp.Diff(wantAction, a.Describe()); diff != "" {
		t.Errorf("action Describe (-want +got):\n%s", diff)
	}
	if len(a.Argv) != 4 {
		t.Errorf("argv has %d elements, want 4", len(a.Argv))
	}
}

func TestDefaultPathLookup(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh on this system")
	}
	got := checktest.Compile(t, New(), `
shell {
  command = ["sh", "-c", "echo hi"]
}`)
	if len(got.Diags) > 0 {
		t.Fatalf("unexpected diagnostics: %s", got.Diags.Error())
	}
	if p := got.Actions[0].(*Action).ProgramPath; !filepath.IsAbs(p) || filepath.Base(p) != "sh" {
		t.Errorf("ProgramPath = %q", p)
	}
}
