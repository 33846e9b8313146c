package mcpadapter_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestCheckAgainstRemoteTools runs `mcpdecl check`: the remote tools are
// listed and each call's tool and arguments checked against them, while
// `validate` stays offline.
func TestCheckAgainstRemoteTools(t *testing.T) {
	node, entry := everything(t)
	config := writeConfig(t, fmt.Sprintf(`
server {
  name    = "front"
  version = "1.0.0"
}

backend "mcp" "everything" {
  command = [%q, %q, "stdio"]
}

tool "misspelt" {
  description = "Calls a tool under a wrong name."
  mcp "everything" {
    tool = "ecko"
  }
}

tool "short" {
  description = "Calls get-sum without its second number."
  arg "a" { type = number }
  mcp "everything" {
    tool      = "get-sum"
    arguments = { a = args.a, c = 1 }
  }
}
`, node, entry))
	out, err := exec.Command(mcpdeclBinary(t), "check", config).CombinedOutput()
	if err == nil {
		t.Fatalf("check passed:\n%s", out)
	}
	for _, want := range []string{`has no tool "ecko"`, `Did you mean "echo"?`, `requires the argument "b"`, `takes no argument "c"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	out, err = exec.Command(mcpdeclBinary(t), "validate", config).CombinedOutput()
	if err != nil {
		t.Errorf("validate failed (it must not reach the remote):\n%s", out)
	}
}
