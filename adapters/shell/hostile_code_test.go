package shelladapter

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestHostileProgramCode: sed runs commands of its script (e, s///e) and
// writes files (w), and awk reads its program from the file -f names:
// a value of the call as sed's script, or as awk's or sed's program file,
// or as their standard input when -f names it, is code from the caller,
// refused at load time like sh -c with an interpolated script. sed's
// --sandbox, which refuses those commands, and values as input files
// after a literal script pass.
func TestHostileProgramCode(t *testing.T) {
	bin := binDir(t)
	fakeBin(t, bin, "sed", "gsed", "awk", "env")
	src := strings.ReplaceAll(`
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["sed", "-n", "${args.query}p", "/var/log/app.log"]
}
shell {
  backend = "b"
  command = ["env", "gsed", "-E", "-e", "s/a/b/", "-e", args.query, "/f"]
}
shell {
  backend = "b"
  command = ["sed", "--expression=${args.query}", "/f"]
}
shell {
  backend = "b"
  command = ["sed", "-f", args.dir, "/f"]
}
shell {
  backend = "b"
  command = ["sed", "-f", "/dev/stdin", "/f"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["awk", "-f", "-"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["awk", "-f", args.dir, "/f"]
}
shell {
  backend = "b"
  command = ["sed", "--sandbox", "-n", "${args.query}p", "/f"]
}
shell {
  backend = "b"
  command = ["sed", "-n", "1,5p", "--", args.dir]
}
shell {
  backend = "b"
  command = ["sed", "-e", "s/x/y/", args.dir]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["awk", "-f", "/srv/a.awk", "-f", args.dir, "/f"]
}
shell {
  backend = "b"
  command = ["awk", "-l", args.dir, "{ print }", "/f"]
}
shell {
  backend = "b"
  command = ["awk", "-e", "{ print }", "-e", "{ print ${args.query} }"]
}`, "BIN", bin)
	got := checktest.Compile(t, New(), src)
	want := []string{
		"7:27 Arguments run as code",
		"11:57 Arguments run as code",
		"15:21 Arguments run as code",
		"19:27 Script taken from the arguments",
		"24:13 Arguments run as code",
		"29:13 Arguments run as code",
		"33:27 Script taken from the arguments",
		"50:47 Script taken from the arguments",
		"54:27 Script taken from the arguments",
		"58:46 Arguments run as code",
	}
	var errs []string
	for _, d := range checktest.Format(got.Diags) {
		if !strings.Contains(d, "option") { // the option guard's warnings are not what this is about
			errs = append(errs, d)
		}
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
		for _, d := range got.Diags {
			t.Logf("%s", d.Error())
		}
	}
}

// TestHostileDatabaseShells: the command-line clients of databases run
// commands of their own besides SQL (sqlite3's .shell and .system, psql's
// and mysql's \!), so SQL from the call given to them, as an operand,
// after -c or -e, or on stdin, is code from the caller.
func TestHostileDatabaseShells(t *testing.T) {
	bin := binDir(t)
	fakeBin(t, bin, "sqlite3", "psql", "mysql", "mariadb")
	src := strings.ReplaceAll(`
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["sqlite3", "-json", "/srv/data.db", args.query]
}
shell {
  backend = "b"
  command = ["psql", "-d", "app", "-c", args.query]
}
shell {
  backend = "b"
  command = ["mysql", "--execute=${args.query}"]
}
shell {
  backend = "b"
  command = ["sqlite3", "/srv/data.db"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["mariadb", "app"]
  stdin   = "SELECT * FROM t WHERE id = ${args.query}"
}
shell {
  backend = "b"
  command = ["psql", "-d", "app", "-v", "id=${args.query}", "-c", "SELECT * FROM t WHERE id = :'id'"]
}
shell {
  backend = "b"
  command = ["sqlite3", "/srv/data.db", "SELECT count(*) FROM t"]
  stdin   = args.query
}`, "BIN", bin)
	got := checktest.Compile(t, New(), src)
	want := []string{
		"7:50 Arguments run as code",
		"11:41 Arguments run as code",
		"15:23 Arguments run as code",
		"20:13 Arguments run as code",
		"25:13 Arguments run as code",
	}
	var errs []string
	for _, d := range checktest.Format(got.Diags) {
		if !strings.Contains(d, "option") {
			errs = append(errs, d)
		}
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
		for _, d := range got.Diags {
			t.Logf("%s", d.Error())
		}
	}
}

// TestHostileXargsOptions: xargs turns its stdin into arguments of the
// command it runs, after the ones written: stdin from the call then
// reaches the program where it reads options ("--output=/tmp/x" for git
// log), unless the command ends with "--" (or, with -I, has "--" before
// the placeholder), or allow_options is set.
func TestHostileXargsOptions(t *testing.T) {
	bin := binDir(t)
	fakeBin(t, bin, "xargs", "git", "rm", "cp")
	src := strings.ReplaceAll(`
backend "shell" "b" {
  path = "BIN"
}
shell {
  backend = "b"
  command = ["xargs", "git", "log", "--oneline"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["xargs", "-0", "-n", "1", "rm", "-f"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["xargs", "-I", "{}", "cp", "{}", "/srv/out"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["xargs", "-0", "rm", "-f", "--"]
  stdin   = args.query
}
shell {
  backend = "b"
  command = ["xargs", "-I", "{}", "cp", "--", "{}", "/srv/out"]
  stdin   = args.query
}
shell {
  backend = "b"
  command       = ["xargs", "git", "log"]
  stdin         = args.query
  allow_options = true
}
shell {
  backend = "b"
  command = ["xargs", "git", "log", "--end-of-options"]
  stdin   = "main"
}`, "BIN", bin)
	got := checktest.Compile(t, New(), src)
	want := []string{
		"8:13 Standard input read as options",
		"13:13 Standard input read as options",
		"18:13 Standard input read as options",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
		for _, d := range got.Diags {
			t.Logf("%s", d.Error())
		}
	}
}
