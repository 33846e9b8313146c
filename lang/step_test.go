package lang

import (
	"fmt"
	"strings"
	"testing"
)

func TestStepsDecoded(t *testing.T) {
	cfg, diags := LoadSource("t.hcl", []byte(`
tool "place_order" {
  description = "Order a plant."
  step "plant" {
    when = "args.quantity > 0"
    http "shop" { path = "/plants/${args.plant_id}" }
    error {
      when    = "body.stock < args.quantity"
      message = "Out of stock."
    }
  }
  step "log" {
    shell { command = ["true"] }
  }
  http "shop" {
    method = "POST"
    path   = "/orders"
  }
}
resource "r" {
  uri = "x://r"
  step "a" {
    sql "db" { query = "SELECT 1" }
  }
  sql "db" { query = "SELECT 2" }
}
resource_template "rt" {
  uri_template = "x://r/{id}"
  step "a" {
    sql "db" { query = "SELECT 1" }
  }
  text = "x"
}
prompt "p" {
  step "rows" {
    sql "db" { query = "SELECT 1" }
  }
  message "user" { text = "hi" }
}
`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tool := cfg.Tools[0]
	if len(tool.Steps) != 2 || tool.Call == nil || tool.Call.Kind != "http" {
		t.Fatalf("tool steps/call not decoded: %+v", tool)
	}
	plant, log := tool.Steps[0], tool.Steps[1]
	if plant.Name != "plant" || plant.When == nil || plant.Call == nil || plant.Call.Kind != "http" || plant.Call.Backend != "shop" || len(plant.Errors) != 1 {
		t.Errorf("step plant = %+v", plant)
	}
	if plant.NameRange.Start.Line != 4 || plant.NameRange.Start.Column != 8 {
		t.Errorf("step name range = %s", plant.NameRange)
	}
	if log.Name != "log" || log.Call == nil || log.Call.Kind != "shell" || log.When != nil {
		t.Errorf("step log = %+v", log)
	}
	for name, n := range map[string]int{"resource": len(cfg.Resources[0].Steps), "template": len(cfg.Templates[0].Steps), "prompt": len(cfg.Prompts[0].Steps)} {
		if n != 1 {
			t.Errorf("%s: %d steps, want 1", name, n)
		}
	}
}

// TestStepErrors: each mistake in a step block is reported at its place
// with what to do.
func TestStepErrors(t *testing.T) {
	_, diags := LoadSource("t.hcl", []byte(`
tool "t" {
  description = "d"
  step "none" {
  }
  step "two" {
    http "a" { path = "/" }
    sql "b" { query = "SELECT 1" }
  }
  step "stray" {
    http "a" {}
    path = "/x"
  }
  step "two" {
    http "a" { path = "/" }
  }
  step "bad-name" {
    http "a" { path = "/" }
  }
  http "a" { path = "/" }
}
resource "r" {
  uri  = "x://r"
  text = "fixed"
  step "s" {
    http "a" { path = "/" }
  }
}
`))
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s: %s: %s", d.Subject, d.Summary, d.Detail))
	}
	want := []string{
		`t.hcl:4,3-14: Missing call block: The step "none" needs one call block`,
		`t.hcl:8,5-8: More than one call block: The step "two" already calls http at t.hcl:7,5-13; each may make one call. Make each call a step of its own.`,
		`t.hcl:12,5-9: Unsupported argument: A step takes when, for_each, max_items, one call block (http, sql or shell) and error blocks, not path. If path belongs to the call, move it into the http block at line 11.`,
		`t.hcl:14,8-13: Duplicate step name: A step named "two" was already declared at t.hcl:6,3-13. Step names must be unique within the tool "t".`,
		`t.hcl:17,8-18: Invalid step name: The step name "bad-name" is not allowed`,
		`t.hcl:25,3-11: Steps without a call: The resource "r" has steps but makes no call`,
	}
	if len(got) != len(want) {
		t.Fatalf("want %d diagnostics, got %d:\n%s", len(want), len(got), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("diagnostic %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
}

// TestStepsJSONSyntax: steps written in the JSON syntax decode as in the
// native one.
func TestStepsJSONSyntax(t *testing.T) {
	cfg, diags := LoadSource("t.hcl.json", []byte(`{
  "tool": {
    "place_order": {
      "description": "Order.",
      "step": {
        "plant": {
          "when": "args.quantity > 0",
          "http": { "shop": { "path": "/plants/${args.plant_id}" } },
          "error": [{ "when": "body.stock < 1", "message": "Out of stock." }]
        },
        "audit": { "shell": { "command": ["true"] } }
      },
      "http": { "shop": { "method": "POST", "path": "/orders" } }
    }
  }
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	steps := cfg.Tools[0].Steps
	if len(steps) != 2 {
		t.Fatalf("want 2 steps, got %d", len(steps))
	}
	names := []string{steps[0].Name, steps[1].Name}
	if names[0] != "plant" || names[1] != "audit" {
		t.Errorf("steps in order %v, want [plant audit]", names)
	}
	if steps[0].Call == nil || steps[0].Call.Backend != "shop" || steps[0].When == nil || len(steps[0].Errors) != 1 {
		t.Errorf("step plant = %+v", steps[0])
	}
	if steps[1].Call == nil || steps[1].Call.Kind != "shell" {
		t.Errorf("step audit = %+v", steps[1])
	}
}

// TestStepForEach: for_each and max_items decode, in both syntaxes; a
// max_items without for_each is an error at its name that says what to
// do.
func TestStepForEach(t *testing.T) {
	cfg, diags := LoadSource("t.hcl", []byte(`
tool "t" {
  description = "d"
  step "details" {
    for_each  = args.ids
    max_items = 20
    http "shop" { path = "/plants/${each.value}" }
  }
  step "one" {
    max_items = 5
    http "shop" { path = "/x" }
  }
  result { text = "'ok'" }
}
`))
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s: %s: %s", d.Subject, d.Summary, d.Detail))
	}
	want := `t.hcl:10,5-14: max_items without for_each: max_items bounds the items of for_each, and the step "one" has no for_each: it makes one call. Add for_each = <a list>, or remove max_items.`
	if len(got) != 1 || got[0] != want {
		t.Fatalf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	details := cfg.Tools[0].Steps[0]
	if details.ForEach == nil || details.ForEach.Range.Start.Line != 5 || details.MaxItems == nil || details.Call == nil {
		t.Errorf("step details = %+v", details)
	}
	cfg, diags = LoadSource("t.hcl.json", []byte(`{
  "tool": { "t": {
    "description": "d",
    "step": { "details": {
      "for_each": "${args.ids}",
      "http": { "shop": { "path": "/plants/${each.value}" } }
    } },
    "result": { "text": "'ok'" }
  } }
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if s := cfg.Tools[0].Steps[0]; s.ForEach == nil || s.MaxItems != nil {
		t.Errorf("step details from JSON = %+v", s)
	}
}
