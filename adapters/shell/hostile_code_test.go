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
