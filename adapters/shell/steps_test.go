package shelladapter

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestHostileStepValuesInArgv: the answer of an earlier step reaches a
// command as an argument does: one argv element whatever it holds, and
// refused where the program would read it as an option.
func TestHostileStepValuesInArgv(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	echo := script(t, "argv", `touch "$RAN"; for a; do printf '[%s]\n' "$a"; done`)
	got := checktest.CompileScoped(t, New(), strings.ReplaceAll(strings.ReplaceAll(`
shell {
  command = ["ECHO", "${steps.prev.body.q}"]
  env     = { RAN = "MARK" }
}
shell {
  command = ["ECHO", "--", "${steps.prev.body.q}"]
}`, "ECHO", echo), "MARK", ran), checktest.WithSteps)
	// The column depends on the length of the script's path.
	if d := checktest.Format(got.Diags); len(d) != 1 || !strings.HasPrefix(d[0], "warning: 3:") || !strings.HasSuffix(d[0], " Argument may be read as an option") {
		t.Fatalf("diagnostics = %v, want the option warning at line 3", d)
	}
	call := func(i int, q string) (*adapter.Result, error) {
		return got.Actions[i].Invoke(context.Background(), &adapter.Request{
			Args: args(nil), Static: got.Static,
			Vars:     checktest.StepsVars(cty.ObjectVal(map[string]cty.Value{"q": cty.StringVal(q)})),
			Progress: func(float64, float64, string) {}, Log: func(string, any) {},
		})
	}
	res, err := call(0, "a b; rm -rf / $(id) *")
	if err != nil {
		t.Fatal(err)
	}
	if out := res.Fields["stdout"]; out != "[a b; rm -rf / $(id) *]\n" {
		t.Errorf("argv %q, want one element", out)
	}
	if err := os.Remove(ran); err != nil {
		t.Fatal(err)
	}
	_, err = call(0, "--output=/tmp/x")
	if err == nil || !strings.Contains(callError(t, err).Message, `starts with "-"`) {
		t.Errorf("a step value starting with \"-\": err = %v, want it refused", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command ran for a refused value")
	}
	res, err = call(1, "--output=/tmp/x")
	if err != nil {
		t.Fatal(err)
	}
	if out := res.Fields["stdout"]; out != "[--]\n[--output=/tmp/x]\n" {
		t.Errorf("after \"--\": argv %q", out)
	}
}

// TestHostileStepCommandsRefusedAtLoad: a step's value cannot name the
// program, environment variables, or code a shell or interpreter runs,
// as an argument cannot.
func TestHostileStepCommandsRefusedAtLoad(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
shell {
  command = ["${steps.prev.text}", "x"]
}
shell {
  command = ["env"]
  env     = steps.prev.headers
}
shell {
  command = ["sh", "-c", "echo ${steps.prev.text}"]
}
shell {
  command = ["sh", "-s"]
  stdin   = steps.prev.text
}
shell {
  command = ["ls", "-${steps.prev.text}"]
}`, checktest.WithSteps)
	want := []string{
		"3:14 Interpolated program name",
		"7:13 Computed environment names",
		"10:26 Arguments parsed by the shell",
		"14:13 Arguments run as code",
		"17:20 Argument names an option",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestHostileStepEachValuesInArgv: the item of a step with for_each
// reaches a command as an argument does: one argv element whatever it
// holds, refused where the program would read it as an option.
func TestHostileStepEachValuesInArgv(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	echo := script(t, "argv", `touch "$RAN"; for a; do printf '[%s]\n' "$a"; done`)
	got := checktest.CompileScoped(t, New(), strings.ReplaceAll(strings.ReplaceAll(`
shell {
  command = ["ECHO", "${each.value}", "${each.index}"]
  env     = { RAN = "MARK" }
}`, "ECHO", echo), "MARK", ran), checktest.WithEach)
	// The item may start with "-" and is warned about; each.index, a
	// position in the list, never does. The columns depend on the length
	// of the script's path.
	if d := checktest.Format(got.Diags); len(d) != 1 || !strings.HasSuffix(d[0], " Argument may be read as an option") || !strings.Contains(d[0], ":") {
		t.Fatalf("diagnostics = %v, want one option warning, for each.value", d)
	}
	call := func(item string) (*adapter.Result, error) {
		return got.Actions[0].Invoke(context.Background(), &adapter.Request{
			Args: args(nil), Static: got.Static, Vars: checktest.EachVars(cty.StringVal(item), 4),
			Progress: func(float64, float64, string) {}, Log: func(string, any) {},
		})
	}
	res, err := call("a b; rm -rf / $(id) *")
	if err != nil {
		t.Fatal(err)
	}
	if out := res.Fields["stdout"]; out != "[a b; rm -rf / $(id) *]\n[4]\n" {
		t.Errorf("argv %q, want one element per value", out)
	}
	if err := os.Remove(ran); err != nil {
		t.Fatal(err)
	}
	_, err = call("--output=/tmp/x")
	if err == nil || !strings.Contains(callError(t, err).Message, `starts with "-"`) {
		t.Errorf("an item starting with \"-\": err = %v, want it refused", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command ran for a refused item")
	}
}

// TestHostileStepEachCommandsRefusedAtLoad: an item cannot name the
// program, environment variables, or code a shell runs, as an argument
// cannot.
func TestHostileStepEachCommandsRefusedAtLoad(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
shell {
  command = ["${each.value}", "x"]
}
shell {
  command = ["env"]
  env     = each.value
}
shell {
  command = ["sh", "-c", "echo ${each.value}"]
}
shell {
  command = ["sh", "-s"]
  stdin   = each.value
}`, checktest.WithEach)
	want := []string{
		"3:14 Interpolated program name",
		"7:13 Computed environment names",
		"10:26 Arguments parsed by the shell",
		"14:13 Arguments run as code",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
