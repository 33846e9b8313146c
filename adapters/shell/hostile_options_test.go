package shelladapter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestHostileOptionAfterEmptyPrefix: a value of the call that starts an
// argv element only once the text written before it turns out empty (an
// empty literal, a variable or a function of the config that is "") is
// still where the program reads options, so a value starting with "-" is
// refused, as it is when the value is written first.
func TestHostileOptionAfterEmptyPrefix(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	echo := script(t, "argv", `touch "$RAN"; for a; do printf '[%s]\n' "$a"; done`)
	c := compileRun(t, strings.ReplaceAll(strings.ReplaceAll(`
shell {
  command = ["ECHO", "--oneline", "${""}${args.query}"]
  env     = { RAN = "MARK" }
}
shell {
  command = ["ECHO", "--oneline", "${trimprefix(var.region, "eu")}${args.query}"]
  env     = { RAN = "MARK" }
}
shell {
  command = ["ECHO", "--oneline", "${substr(var.region, 0, 0)}${args.query}/x"]
  env     = { RAN = "MARK" }
}
shell {
  command = ["ECHO", "--oneline", "x${""}${args.query}"]
  env     = { RAN = "MARK" }
}`, "ECHO", echo), "MARK", ran))
	for i := range 3 {
		_, err := c.invoke(t, i, args(map[string]cty.Value{"query": cty.StringVal("--output=/tmp/x")}))
		if err == nil {
			t.Errorf("action %d: a value \"--output=/tmp/x\" after an empty prefix reached the program", i)
			continue
		}
		if ce := callError(t, err); !strings.Contains(ce.Message, `starts with "-"`) {
			t.Errorf("action %d: message %q, want it to say the element starts with \"-\"", i, ce.Message)
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the command ran for a refused value")
	}
	res := c.mustInvoke(t, 3, args(map[string]cty.Value{"query": cty.StringVal("--stat")}))
	if got := res.Fields["stdout"]; got != "[--oneline]\n[x--stat]\n" {
		t.Errorf("a literal prefix: argv %q", got)
	}
}

// TestHostileOptionNamedAfterWrittenDashes: dashes written through an
// expression of the config ("${"-"}", a variable that is "--") before a
// value of the call let the caller choose the option, as "-${args.x}"
// does, and are refused at load time the same way.
func TestHostileOptionNamedAfterWrittenDashes(t *testing.T) {
	for _, elem := range []string{`"${"-"}${args.query}"`, `"-${""}${args.query}"`, `"${substr("--x", 0, 2)}${args.query}"`} {
		src := `
shell {
  command = ["ls", ` + elem + `]
}`
		got := checktest.Compile(t, New(), src)
		if diags := checktest.Format(got.Diags); len(diags) != 1 || !strings.Contains(diags[0], "Argument names an option") {
			t.Errorf("%s: %v; want the element refused as naming an option", elem, diags)
		}
	}
}
