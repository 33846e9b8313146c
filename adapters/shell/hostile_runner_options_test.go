package shelladapter

import (
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestHostileRunnerOptions: the options that run code are found however
// they are written: clustered with flags (-ec, -qc), with the value
// attached (-oProxyCommand=, --rsh=, -e${...}), abbreviated as getopt_long
// allows (--to-com), behind a program path (/usr/bin/env), after
// variable assignments (env A=1 prog), behind several wrappers, after
// "--" for capsh, and in the values xargs adds from stdin. Written
// without a value of the call, or with the value where it is data, the
// same commands pass.
func TestHostileRunnerOptions(t *testing.T) {
	refused := []struct{ cmd, stdin, extra string }{
		{cmd: `"su", "-lc", args.query, "root"`},
		{cmd: `"su", "-", "root", "--command=${args.query}"`},
		{cmd: `"su", "root", args.query`},
		{cmd: `"flock", "-n", "/tmp/l", "--command", args.query`},
		{cmd: `"script", "-qc", args.query, "/dev/null"`},
		{cmd: `"script", "-q", "--command=${args.query}", "/dev/null"`},
		{cmd: `"env", "-iS${args.query}"`},
		{cmd: `"env", "--split-string=ls ${args.query}"`},
		{cmd: `"/usr/bin/env", "-S", args.query`},
		{cmd: `"env", "A=1", "B=2", args.query`},
		{cmd: `"env", "A=1", "sh", "-c", args.query`},
		{cmd: `"env", "-S", "sh -c", args.query`},
		{cmd: `"env", "-Ssh -c", args.query`},
		{cmd: `"ssh", "-p", "22", "-oProxyCommand=${args.query}", "host", "uptime"`},
		{cmd: `"ssh", "-o", args.query, "host", "uptime"`},
		{cmd: `"ssh", "-o${args.query}", "host", "uptime"`},
		{cmd: `"ssh", "host", "-o", "BatchMode=yes", "ls", args.query`},
		{cmd: `"ssh", "-tt", "host", "echo ${args.query}"`},
		{cmd: `"rsync", "-av", "--rsh=${args.query}", "a", "h:b"`},
		{cmd: `"rsync", "-ave", args.query, "a", "h:b"`},
		{cmd: `"rsync", "-a", "--rsync-path", "sudo ${args.query}", "a", "h:b"`},
		{cmd: `"tar", "-x", "-f", "/srv/a.tar", "--to-com=${args.query}"`},
		{cmd: `"tar", "-xI", args.query, "-f", "/srv/a.tar"`},
		{cmd: `"tar", "-xf", "/srv/a.tar", "--use-compress-program", args.query`},
		{cmd: `"tar", "-cf", "/tmp/a.tar", "--checkpoint=1", "--checkpoint-action=exec=${args.query}", "/srv"`},
		{cmd: `"git", "-c", args.query, "status"`},
		{cmd: `"git", "-c", "alias.x=!${args.query}", "x"`},
		{cmd: `"git", "clone", "--upload-pack=${args.query}", "h:r"`},
		{cmd: `"git", "clone", "-u", args.query, "h:r"`},
		{cmd: `"git", "clone", "--config", "core.sshCommand=${args.query}", "h:r"`},
		{cmd: `"git", "fetch", "--upload-pack", args.query, "origin"`},
		{cmd: `"git", "ls-remote", "-u", args.query, "h:r"`},
		{cmd: `"git", "config", "core.pager", args.query`},
		{cmd: `"git", "--exec-path=${args.query}", "status"`},
		{cmd: `"vim", "+${args.query}", "/srv/a"`},
		{cmd: `"vi", "--cmd", args.query`},
		{cmd: `"nvim", "--headless", "-c", args.query, "-c", "q"`},
		{cmd: `"vim", "-es", "/srv/a"`, stdin: "args.query"},
		{cmd: `"timeout", "5", "tclsh"`, stdin: "args.query"},
		{cmd: `"expect", "-d"`, stdin: "args.query"},
		{cmd: `"gdb", "-batch", "--eval-command=${args.query}"`},
		{cmd: `"gdb", "-nx", "-iex", args.query`},
		{cmd: `"find", "/srv", "-execdir", "sh", "-c", args.query, ";"`},
		{cmd: `"find", "/srv", "-ok", "${args.query}", "{}", "+"`},
		{cmd: `"find", "/srv", "-exec", "flock", "/tmp/l", "-c", args.query, ";"`},
		{cmd: `"timeout", "5", "nice", "sudo", "-u", "app", "watch", "-n1", args.query`},
		{cmd: `"sudo", "-iu", "app", args.query`},
		{cmd: `"sudo", "LD_PRELOAD=/x", "-s", args.query`},
		{cmd: `"xargs", "-I{}", "sh", "-c", "echo {}"`, stdin: "args.query"},
		{cmd: `"xargs", "-0", "sh", "-c"`, stdin: "args.query"},
		{cmd: `"xargs", "watch"`, stdin: "args.query"},
		{cmd: `"xargs", "watch", "--"`, stdin: "args.query"},
		{cmd: `"xargs", "-0", "ssh", "host", "--"`, stdin: "args.query"},
		{cmd: `"capsh", "--caps=cap_net_raw+ep", "--", "-c", args.query`},
		{cmd: `"zip", "-qT", "--unzip-command=${args.query}", "/tmp/a.zip", "f"`},
		{cmd: `"make", "--eval=${args.query}", "all"`},
		{cmd: `"make", "CC=${args.query}", "all"`},
		{cmd: `"python3.12", "-c${args.query}"`},
		{cmd: `"perl", "-Mstrict", "-we", args.query`},
		{cmd: `"watch", "-n", "2", "-d", "ls ${args.query}"`},
		{cmd: `"ip", "netns", "exec", "blue", "bash", "-c", args.query`},
		{cmd: `"docker", "run", "--rm", "-e", "A=1", "alpine", "sh", "-c", args.query`},
		{cmd: `"docker", "run", "--entrypoint", args.query, "alpine"`},
		{cmd: `"pip3", "install", "--index-url", args.query, "requests"`},
		{cmd: `"apt-get", "-oAPT::Update::Pre-Invoke::=${args.query}", "update"`},
		{cmd: `"man", "--pager=${args.query}", "ls"`},
		{cmd: `"less", "+!${args.query}", "/srv/a"`},
		// allow_options lets a value be any option, and then one that runs code
		{cmd: `"rsync", "-a", args.query, "a", "h:b"`, extra: "  allow_options = true\n"},
	}
	for _, c := range refused {
		if errs := compileRunner(t, c.cmd, c.stdin, c.extra); len(errs) == 0 {
			t.Errorf("[%s] (stdin %q) was accepted", c.cmd, c.stdin)
		}
	}
	accepted := []struct{ cmd, stdin string }{
		{cmd: `"su", "-lc", "ls /srv", "root"`},
		{cmd: `"env", "-i", "A=1", "ls", "--", args.query`},
		{cmd: `"/usr/bin/env", "-S", "ls -l", "--", args.query`},
		{cmd: `"ssh", "-oConnectTimeout=${args.query}", "host", "uptime"`},
		{cmd: `"ssh", "-p", "22", args.query, "uptime"`},
		{cmd: `"rsync", "-av", "--rsh=ssh -p 22", "--", args.query, "h:b"`},
		{cmd: `"tar", "-xf", "/srv/a.tar", "-C", "/tmp/x", "--", args.query`},
		{cmd: `"tar", "--checkpoint-action=dot", "-xf", "/srv/${args.query}.tar"`},
		{cmd: `"git", "log", "-c", "--oneline", "--end-of-options", args.query`},
		{cmd: `"git", "grep", "-c", "--", args.query`},
		{cmd: `"git", "-C", "/srv/repo", "-c", "color.ui=${args.query}", "log"`},
		{cmd: `"git", "config", "user.name", args.query`},
		{cmd: `"git", "config", "--get", args.query`},
		{cmd: `"vim", "-es", "+%s/a/b/", "+wq", "--", args.query`},
		{cmd: `"vim", "-es", "+wq", "/srv/${args.query}"`},
		{cmd: `"find", "/srv", "-name", args.query, "-execdir", "ls", "-l", "{}", "+"`},
		{cmd: `"find", "/srv", "-exec", "grep", "-l", "--", args.query, "{}", ";"`},
		{cmd: `"xargs", "-0", "ls", "--"`, stdin: "args.query"},
		{cmd: `"xargs", "-I{}", "ls", "--", "{}"`, stdin: "args.query"},
		{cmd: `"timeout", "5", "nice", "-n", "5", "grep", "-c", "--", args.query, "/srv/a"`},
		{cmd: `"python3", "-c", "import sys; print(sys.argv[1])", args.query`},
		{cmd: `"make", "-C", "/srv", "build"`},
		{cmd: `"tclsh", "/srv/a.tcl"`, stdin: "args.query"},
		{cmd: `"expect", "-c", "expect eof"`, stdin: "args.query"},
		{cmd: `"bash", "/srv/scripts/ssh", args.query`},
		{cmd: `"python3", "/srv/watch.py", "--", args.query`},
		{cmd: `"docker", "run", "--rm", "alpine", "ls", "--", args.query`},
	}
	for _, c := range accepted {
		if errs := compileRunner(t, c.cmd, c.stdin, ""); len(errs) > 0 {
			t.Errorf("[%s] was refused: %s", c.cmd, strings.Join(errs, "\n"))
		}
	}
}

// TestHostileRunnerStepAnswers: a step's answer is a value of the call
// too, refused where a runner runs code as an argument is.
func TestHostileRunnerStepAnswers(t *testing.T) {
	bin := binDir(t)
	fakeBin(t, bin, "flock", "ssh")
	got := checktest.CompileScoped(t, New(), strings.ReplaceAll(`
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["flock", "/tmp/l", "-c", steps.prev.text]
}
shell {
  backend = "b"
  command = ["ssh", "host", "uptime", "--", "${steps.prev.status}"]
}
shell {
  backend = "b"
  command = ["ssh", steps.prev.text, "uptime"]
}`, "BIN", bin), checktest.WithSteps)
	var errs []string
	for _, d := range checktest.Format(got.Diags) {
		if !strings.HasPrefix(d, "warning") {
			errs = append(errs, d)
		}
	}
	want := []string{"7:39 Arguments run as code", "11:45 Arguments run as code"}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors = %q, want %q", errs, want)
	}
}
