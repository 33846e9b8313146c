package shelladapter

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// runnerRow is a program of the runners table: bad puts a value of the
// call where the program runs it (refused), good writes the same place
// literally, or keeps the value where it is data (accepted). stdin, when
// set, is the call's stdin for bad; good has none.
type runnerRow struct {
	bad, good, stdin string
}

// runnerRows has a row for every entry of the runners table (the test
// checks it), the first element of bad naming the entry.
var runnerRows = []runnerRow{
	// wrappers: the program they run, and that program's own code
	{bad: `"env", "-S", args.query`, good: `"env", "-S", "ls -l"`},
	{bad: `"timeout", "5", args.query`, good: `"timeout", "5", "ls", args.query`},
	{bad: `"nice", "-n", "5", "flock", "/tmp/l", "-c", args.query`, good: `"nice", "-n", "5", "flock", "/tmp/l", "ls", args.query`},
	{bad: `"nohup", args.query`, good: `"nohup", "ls", args.query`},
	{bad: `"stdbuf", "-o", "L", "su", "root", "-c", args.query`, good: `"stdbuf", "-o", "L", "ls", args.query`},
	{bad: `"chroot", "/srv/root", args.query`, good: `"chroot", "/srv/root", "ls", args.query`},
	{bad: `"ionice", "-c", "3", args.query`, good: `"ionice", "-c", "3", "ls", args.query`},
	{bad: `"chrt", "-b", "0", args.query`, good: `"chrt", "-p", "0", args.query`},
	{bad: `"taskset", "0x1", args.query`, good: `"taskset", "-p", "0x1", args.query`},
	{bad: `"time", "-f", "%e", args.query`, good: `"time", "-f", "%e", "ls", args.query`},
	{bad: `"strace", "-e", "trace=open", "script", "-q", "-c", args.query, "/dev/null"`, good: `"strace", "-e", "trace=open", "ls", args.query`},
	{bad: `"ltrace", "-o", "/tmp/t", args.query`, good: `"ltrace", "-o", "/tmp/t", "ls", args.query`},
	{bad: `"sudo", "-u", "app", "-s", "ls", args.query`, good: `"sudo", "-u", "app", "ls", args.query`},
	{bad: `"doas", "-u", "app", args.query`, good: `"doas", "-u", "app", "ls", args.query`},
	{bad: `"su", "root", "-c", args.query`, good: `"su", "root", "-c", "ls /srv"`},
	{bad: `"runuser", "-u", "app", "--", args.query`, good: `"runuser", "-u", "app", "--", "ls", args.query`},
	{bad: `"sg", "adm", "-c", args.query`, good: `"sg", "adm", "-c", "ls /var/log"`},
	{bad: `"script", "-q", "-c", args.query, "/dev/null"`, good: `"script", "-q", "-c", "ls /srv", "/tmp/${args.query}.log"`},
	{bad: `"flock", "/tmp/l", "-c", args.query`, good: `"flock", "/tmp/l", "-c", "ls /srv"`},
	{bad: `"unshare", "-r", args.query`, good: `"unshare", "-r", "ls", args.query`},
	{bad: `"nsenter", "-t", "1", "-m", args.query`, good: `"nsenter", "-t", "1", "-m", "ls", args.query`},
	{bad: `"capsh", "--", "-c", args.query`, good: `"capsh", "--print"`},
	{bad: `"start-stop-daemon", "--start", "--exec", args.query`, good: `"start-stop-daemon", "--start", "--exec", "/srv/app", "--", args.query`},
	{bad: `"systemd-run", "--user", "-p", "ExecStartPre=${args.query}", "ls"`, good: `"systemd-run", "--user", "-p", "MemoryMax=${args.query}", "ls"`},
	{bad: `"xargs", "-0", args.query`, good: `"xargs", "-0", "ls", "--", args.query`},
	{bad: `"watch", "-n", "5", "ls", args.query`, good: `"watch", "-n", "5", "-x", "ls", args.query`},
	{bad: `"parallel", args.query, ":::", "a"`, good: `"parallel", "echo", "{}", ":::", args.query`},
	{bad: `"caffeinate", "-t", "5", args.query`, good: `"caffeinate", "-t", "5", "ls", args.query`},
	{bad: `"setarch", "x86_64", args.query`, good: `"setarch", "x86_64", "ls", args.query`},
	{bad: `"cpulimit", "-l", "50", args.query`, good: `"cpulimit", "-l", "50", "ls", args.query`},
	{bad: `"numactl", "-N", "0", args.query`, good: `"numactl", "-N", "0", "ls", args.query`},
	{bad: `"cgexec", "-g", "cpu:a", args.query`, good: `"cgexec", "-g", "cpu:a", "ls", args.query`},
	{bad: `"pkexec", "--user", "app", args.query`, good: `"pkexec", "--user", "app", "ls", args.query`},
	{bad: `"sshpass", "-f", "/srv/pw", "ssh", "h", args.query`, good: `"sshpass", "-f", "/srv/pw", "ssh", "h", "uptime"`},
	{bad: `"xvfb-run", "-a", args.query`, good: `"xvfb-run", "-a", "ls", args.query`},
	{bad: `"proxychains", "-f", "/srv/p.conf", args.query`, good: `"proxychains", "-f", "/srv/p.conf", "ls", args.query`},
	{bad: `"entr", "-s", args.query`, good: `"entr", "make", "-C", "/srv"`},
	{bad: `"hyperfine", "--prepare", args.query, "ls"`, good: `"hyperfine", "--runs", args.query, "ls"`},
	{bad: `"watchexec", "-e", "go", args.query`, good: `"watchexec", "-e", args.query, "make"`},
	{bad: `"service", args.query, "status"`, good: `"service", "nginx", "status"`},
	// shells and interpreters, combined and attached
	{bad: `"bash", "-ec", args.query`, good: `"bash", "-ec", "ls \"$1\"", "x", args.query`},
	{bad: `"python3", "-Ic", "${args.query}"`, good: `"python3", "-Ic", "import sys; print(sys.argv[1])", args.query`},
	{bad: `"perl", "-e${args.query}"`, good: `"perl", "-e", "print $ARGV[0]", args.query`},
	{bad: `"ruby", "-r", args.query, "/srv/a.rb"`, good: `"ruby", "/srv/a.rb", args.query`},
	{bad: `"node", "--eval=${args.query}"`, good: `"node", "--eval=console.log(process.argv[1])", args.query`},
	{bad: `"php", "-d", "auto_prepend_file=${args.query}", "/srv/a.php"`, good: `"php", "/srv/a.php", args.query`},
	{bad: `"lua5.4", "-l", args.query, "/srv/a.lua"`, good: `"lua5.4", "/srv/a.lua", args.query`},
	{bad: `"R", "-e", args.query`, good: `"R", "--vanilla", "-e", "print(1)"`},
	{bad: `"Rscript", "--file=${args.query}"`, good: `"Rscript", "/srv/a.R", args.query`},
	{bad: `"expect", "-c", args.query`, good: `"expect", "/srv/a.exp", args.query`},
	{bad: `"tclsh"`, good: `"tclsh", "/srv/a.tcl"`, stdin: "args.query"},
	{bad: `"irb", "-r", args.query`, good: `"irb", "-r", "json", "/srv/a.rb"`},
	{bad: `"jrunscript", "-e", args.query`, good: `"jrunscript", "/srv/a.js", args.query`},
	{bad: `"dc", "-e", args.query`, good: `"dc", "-e", "2 3 + p"`},
	// remote shells and transfers
	{bad: `"ssh", "host", "--", args.query`, good: `"ssh", "host", "--", "uptime"`},
	{bad: `"scp", "-o", "ProxyCommand=${args.query}", "a", "h:b"`, good: `"scp", "-o", "ConnectTimeout=${args.query}", "a", "h:b"`},
	{bad: `"sftp", "-S", args.query, "h"`, good: `"sftp", "-b", "/srv/batch", "h"`},
	{bad: `"check_by_ssh", "-H", "h", "-C", args.query`, good: `"check_by_ssh", "-H", args.query, "-C", "uptime"`},
	{bad: `"rsync", "-a", "-e", args.query, "a", "h:b"`, good: `"rsync", "-a", "-e", "ssh -p 2222", "--", args.query, "h:b"`},
	{bad: `"smbclient", "//h/s", "-c", args.query`, good: `"smbclient", "//h/s", "-c", "ls"`},
	{bad: `"ftp", "-n", "h"`, good: `"ftp", "-n", "h"`, stdin: "args.query"},
	{bad: `"lftp", "-c", args.query`, good: `"lftp", "-c", "open h; ls"`},
	{bad: `"socat", "-", args.query`, good: `"socat", "-", "TCP:localhost:80"`},
	// archivers, package and build tools
	{bad: `"tar", "-xf", "/srv/a.tar", "--to-command=${args.query}"`, good: `"tar", "-xf", "/srv/a.tar", "--to-command=cat", "--", args.query`},
	{bad: `"zip", "-T", "-TT", args.query, "/tmp/a.zip", "f"`, good: `"zip", "/tmp/a.zip", "--", args.query`},
	{bad: `"dpkg", "-i", args.query`, good: `"dpkg", "-L", args.query`},
	{bad: `"apt-get", "-o", args.query, "update"`, good: `"apt-get", "-o", "APT::Get::Assume-Yes=true", "update"`},
	{bad: `"rpm", "--eval", args.query`, good: `"rpm", "-q", args.query`},
	{bad: `"pip", "install", args.query`, good: `"pip", "show", args.query`},
	{bad: `"npm", "run", args.query`, good: `"npm", "run", "build"`},
	{bad: `"npx", args.query`, good: `"npx", "eslint", "--", args.query`},
	{bad: `"gem", "install", args.query`, good: `"gem", "list", args.query`},
	{bad: `"go", "run", args.query`, good: `"go", "run", "./cmd/report", args.query`},
	{bad: `"cargo", "--config", args.query, "build"`, good: `"cargo", "--config", "build.jobs=2", "build"`},
	{bad: `"make", "-C", "/srv", args.query`, good: `"make", "-C", args.query, "build"`},
	// version control
	{bad: `"git", "-c", "core.sshCommand=${args.query}", "fetch"`, good: `"git", "-c", "user.name=${args.query}", "fetch"`},
	// editors, pagers, debuggers, mail
	{bad: `"vim", "-c", args.query`, good: `"vim", "-es", "-c", "%s/a/b/", "-c", "wq", "--", args.query`},
	{bad: `"less", args.query`, good: `"less", "--", args.query`},
	{bad: `"man", "-P", args.query, "ls"`, good: `"man", "-P", "cat", args.query`},
	{bad: `"nano", "--speller=${args.query}"`, good: `"nano", "--speller=aspell", args.query`},
	{bad: `"ed", args.query`, good: `"ed", "-s", "/srv/notes/${args.query}"`},
	{bad: `"gdb", "-batch", "-ex", args.query`, good: `"gdb", "-batch", "-ex", "bt", "/srv/app"`},
	{bad: `"emacs", "--batch", "--eval", args.query`, good: `"emacs", "--batch", "--eval", "(message \"hi\")"`},
	{bad: `"mutt", "-e", args.query`, good: `"mutt", "-s", args.query, "a@b"`},
	{bad: `"mail", "--exec=${args.query}"`, good: `"mail", "-s", args.query, "a@b"`},
	{bad: `"gimp", "-b", args.query`, good: `"gimp", "-b", "(gimp-quit 0)"`},
	{bad: `"pdflatex", args.query`, good: `"pdflatex", "/srv/docs/${args.query}.tex"`},
	// finders
	{bad: `"find", "/srv", "-name", "*.log", "-exec", args.query, ";"`, good: `"find", "/srv", "-name", args.query, "-exec", "ls", "-l", "{}", ";"`},
	{bad: `"fd", "-x", "sh", "-c", args.query`, good: `"fd", "-x", "ls", "-l"`},
	// services and network tools
	{bad: `"openvpn", "--config", "/srv/a.ovpn", "--up", args.query`, good: `"openvpn", "--config", "/srv/a.ovpn", "--remote", args.query`},
	{bad: `"aria2c", "--on-download-complete", args.query, "http://x"`, good: `"aria2c", "--dir", "/srv", "http://x/${args.query}"`},
	{bad: `"tcpdump", "-z", args.query, "-w", "/tmp/t"`, good: `"tcpdump", "-c", args.query, "-w", "/tmp/t"`},
	{bad: `"nmap", "--script", args.query, "h"`, good: `"nmap", "-p", "22", "--", args.query`},
	{bad: `"tshark", "-X", "lua_script:${args.query}"`, good: `"tshark", "-c", args.query, "-i", "eth0"`},
	{bad: `"at", "now"`, good: `"at", "-f", "/srv/job", "now"`, stdin: "args.query"},
	{bad: `"crontab", "-"`, good: `"crontab", "-l"`, stdin: "args.query"},
	// containers and sessions
	{bad: `"docker", "exec", "web", args.query`, good: `"docker", "exec", "web", "ls", args.query`},
	{bad: `"kubectl", "exec", "-n", "prod", "web", "--", args.query`, good: `"kubectl", "exec", "-n", "prod", "web", "--", "ls", args.query`},
	{bad: `"tmux", "new-session", "-d", args.query`, good: `"tmux", "new-session", "-d", "-s", args.query, "top"`},
	{bad: `"screen", "-dmS", "s", args.query`, good: `"screen", "-dmS", args.query, "top"`},
	{bad: `"ip", "netns", "exec", "blue", args.query`, good: `"ip", "netns", "exec", args.query, "ls"`},
	{bad: `"perf", "stat", "-e", "cycles", args.query`, good: `"perf", "stat", "-e", args.query, "ls"`},
}

// compileRunner compiles one shell call whose command is the list body,
// with fake programs for its literal program names, and returns its
// error diagnostics.
func compileRunner(t *testing.T, body, stdin string, extra string) []string {
	t.Helper()
	bin := binDir(t)
	for _, f := range strings.Split(body, ",") {
		f = strings.TrimSpace(f)
		if name, ok := strings.CutPrefix(f, `"`); ok && !strings.ContainsAny(name, `/${ `) {
			name = strings.TrimSuffix(name, `"`)
			if name != "" && !strings.HasPrefix(name, "-") {
				fakeBin(t, bin, name)
			}
		}
	}
	src := "backend \"shell\" \"b\" {\n  path = \"" + bin + "\"\n}\nshell {\n  backend = \"b\"\n  command = [" + body + "]\n"
	if stdin != "" {
		src += "  stdin = " + stdin + "\n"
	}
	src += extra + "}\n"
	got := checktest.Compile(t, New(), src)
	var errs []string
	for _, d := range got.Diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d.Summary+": "+d.Detail)
		}
	}
	return errs
}

// TestHostileRunnerTable: for each program of the runners table, a value
// of the call where the program runs code (an option's value, its command
// operands, the program a wrapper runs, commands on stdin) is refused at
// load, naming allow_shell; the same place written in the config, or the
// value where the program reads data, is accepted; allow_shell = true
// accepts the refused form.
func TestHostileRunnerTable(t *testing.T) {
	covered := map[*runner]bool{}
	for _, row := range runnerRows {
		prog, _, _ := strings.Cut(row.bad, ",")
		prog = strings.Trim(prog, `"`)
		t.Run(prog, func(t *testing.T) {
			r := lookupRunner(filepath.Base(prog))
			if r == nil {
				t.Fatalf("%s is not in the runners table", prog)
			}
			covered[r] = true
			errs := compileRunner(t, row.bad, row.stdin, "")
			if len(errs) == 0 {
				t.Errorf("[%s] was accepted", row.bad)
			}
			for _, e := range errs {
				if !strings.Contains(e, "allow_shell = true") {
					t.Errorf("[%s]: the error does not say how to allow it: %s", row.bad, e)
				}
			}
			if errs := compileRunner(t, row.bad, row.stdin, "  allow_shell = true\n"); len(errs) > 0 {
				t.Errorf("[%s] with allow_shell = true: %q", row.bad, errs)
			}
			if errs := compileRunner(t, row.good, "", ""); len(errs) > 0 {
				t.Errorf("[%s] was refused: %q", row.good, errs)
			}
		})
	}
	for name, r := range runnerTable() {
		if !covered[r] {
			t.Errorf("the runners table's entry %q has no row here", name)
			covered[r] = true // one message per entry, not per alias
		}
	}
}
