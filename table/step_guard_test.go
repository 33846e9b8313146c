package table_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestOptionalPathArgGuardedByWhen: "Optional argument in path" is not
// reported for a step whose when requires the argument to be given
// (args.x != nil, alone or with &&), and still is for an unguarded step
// or a guard that does not require it.
func TestOptionalPathArgGuardedByWhen(t *testing.T) {
	for _, c := range []struct {
		when string
		warn bool
	}{
		{`args.plant_id != nil`, false},
		{`nil != args.plant_id`, false},
		{`args.quantity > 0 && args.plant_id != nil`, false},
		{`args.plant_id != nil and args.quantity > 0`, false},
		{``, true},
		{`args.plant_id == nil`, true},
		{`args.plant_id != nil || args.quantity > 0`, true},
		{`args.quantity != nil`, true},
	} {
		when := ""
		if c.when != "" {
			when = fmt.Sprintf("when = %q", c.when)
		}
		_, diags := compileSource(t, "guard.hcl", stepBackends+`
tool "plant_info" {
  description = "Look up a plant by id when an id is given."
  arg "plant_id" {
    type        = string
    required    = false
    description = "The plant's id."
  }
  arg "quantity" {
    type        = integer
    required    = false
    description = "How many."
  }
  step "plant" {
    `+when+`
    http "shop" {
      path = "/plants/${args.plant_id}"
    }
  }
  http "shop" {
    path = "/plants"
  }
}
`)
		warned := false
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				t.Fatalf("when %q: %s: %s", c.when, d.Summary, d.Detail)
			}
			if d.Summary == "Optional argument in path" {
				warned = true
			}
		}
		if warned != c.warn {
			t.Errorf("when %q: warned %v, want %v (%v)", c.when, warned, c.warn, diags)
		}
	}
}

// TestLintDocGuardedStepExample compiles the example of docs/lint.md
// (MCPD002) that a when guard keeps from the warning.
func TestLintDocGuardedStepExample(t *testing.T) {
	text, err := os.ReadFile("../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, m := range hclFence.FindAllStringSubmatch(string(text), -1) {
		if strings.Contains(m[1], `tool "plant_info"`) {
			src = m[1]
		}
	}
	if src == "" {
		t.Fatal(`docs/lint.md has no hcl block with tool "plant_info"`)
	}
	_, diags := compileSource(t, "lint_doc.hcl", stepBackends+src)
	for _, d := range diags {
		if d.Severity == hcl.DiagError || d.Summary == "Optional argument in path" {
			t.Errorf("docs/lint.md's guarded step: %s: %s", d.Summary, d.Detail)
		}
	}
}
