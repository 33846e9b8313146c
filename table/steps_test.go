package table_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

const stepBackends = `
backend "http" "shop" {
  base_url = "http://127.0.0.1:1"
}
backend "sql" "db" {
  driver    = "sqlite"
  dsn       = "file::memory:"
  read_only = false
}
`

// compileSource loads and compiles one configuration held in memory.
func compileSource(t *testing.T, name, src string) (*table.Table, hcl.Diagnostics) {
	t.Helper()
	cfg, diags := lang.LoadSource(name, []byte(src))
	if cfg.Incomplete {
		return nil, diags
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	return tbl, append(diags, d...)
}

// positioned renders each error as "file:line:col: summary: detail".
func positioned(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		pos := "?"
		if d.Subject != nil {
			pos = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, fmt.Sprintf("%s: %s: %s", pos, d.Summary, d.Detail))
	}
	return out
}

// wantPositioned requires exactly the given errors, each starting with its
// entry ("file:line:col: summary: detail prefix").
func wantPositioned(t *testing.T, diags hcl.Diagnostics, want ...string) {
	t.Helper()
	got := positioned(diags)
	if len(got) != len(want) {
		t.Fatalf("want %d errors, got %d:\n%s", len(want), len(got), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
}

func TestStepsCompiled(t *testing.T) {
	tbl, diags := compileSource(t, "t.hcl", stepBackends+`
tool "place_order" {
  description = "Order a plant."
  arg "plant_id" { type = number }
  arg "quantity" { type = number }
  step "plant" {
    when = "args.quantity > 0"
    http "shop" { path = "/plants/${args.plant_id}" }
    error {
      when    = "body.stock < args.quantity"
      message = "No '{{ body.name }}' plants are in stock."
    }
  }
  step "price" {
    when = "steps.plant.status == 200"
    sql "db" { query = "SELECT ${steps.plant.body.price} AS price" }
  }
  step "audit" {
    shell { command = ["true"] }
  }
  http "shop" {
    method = "POST"
    path   = "/orders"
    body   = { plantId = args.plant_id, quantity = args.quantity, price = steps.price.rows[0].price }
  }
  result { text = "Order {{ body.id }} placed for {{ steps.plant.body.name }}." }
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tool := tbl.Tools[0]
	if len(tool.Steps) != 3 {
		t.Fatalf("want 3 steps, got %d", len(tool.Steps))
	}
	plant, price, audit := tool.Steps[0], tool.Steps[1], tool.Steps[2]
	for _, c := range []struct {
		step          *table.Step
		name, kind    string
		backend       string
		when          bool
		errors        int
		uses          []string
		firstLineDecl int
	}{
		{plant, "plant", "http", "shop", true, 1, nil, 15},
		{price, "price", "sql", "db", true, 0, []string{"plant"}, 23},
		{audit, "audit", "shell", "", false, 0, nil, 27},
	} {
		s := c.step
		if s.Name != c.name || s.Kind != c.kind || s.Backend != c.backend || (s.When != nil) != c.when || len(s.Errors) != c.errors ||
			!slices.Equal(s.Uses, c.uses) || s.Action == nil || s.DeclRange.Start.Line != c.firstLineDecl {
			t.Errorf("step %s = {%s %q when:%v errors:%d uses:%v line:%d}, want kind %s, backend %q, when %v, %d errors, uses %v, at line %d", c.name, s.Kind, s.Backend, s.When != nil, len(s.Errors), s.Uses, s.DeclRange.Start.Line, c.kind, c.backend, c.when, c.errors, c.uses, c.firstLineDecl)
		}
	}
	if got := envNames(plant.Env); !slices.Equal(got, []string{"status", "headers", "body", "text", "args", "steps"}) {
		t.Errorf("error env of plant = %v", got)
	}
	if got := envNames(price.WhenEnv); !slices.Equal(got, []string{"args", "steps"}) {
		t.Errorf("when env of price = %v", got)
	}
	if got := envNames(tool.Env); !slices.Equal(got, []string{"status", "headers", "body", "text", "steps", "args"}) {
		t.Errorf("answer env of the tool = %v", got)
	}
	wantType := cty.Object(map[string]cty.Type{"status": cty.Number, "headers": cty.Map(cty.String), "body": cty.DynamicPseudoType, "text": cty.String})
	if !plant.Type.Equals(wantType) {
		t.Errorf("plant.Type = %#v", plant.Type)
	}
}

// envNames lists the names of an expr-lang environment struct.
func envNames(env reflect.Type) []string {
	var out []string
	for i := range env.NumField() {
		out = append(out, env.Field(i).Tag.Get("expr"))
	}
	return out
}

// TestStepReferences: each wrong use of steps is an error at its column
// that says what to do, in HCL expressions and in expr-lang programs.
func TestStepReferences(t *testing.T) {
	_, diags := compileSource(t, "t.hcl", stepBackends+`
tool "t" {
  description = "d"
  arg "id" { type = number }
  step "a" {
    when = "steps.b.status == 200"
    http "shop" { path = "/x/${steps.a.body.id}" }
    error {
      when    = "steps.a.status == 404"
      message = "m"
    }
  }
  step "b" {
    http "shop" { path = "/y/${steps.plnt.body}/${steps.a.bdy}" }
    error {
      when    = "steps.a.status == 'x'"
      message = "{{ steps.c.body }}"
    }
  }
  http "shop" {
    path  = "/z/${steps.b.status + "x"}"
    query = { q = steps.c.text }
  }
  result { text = "steps.b.bdy" }
}
`)
	wantPositioned(t, diags,
		`t.hcl:16:32: Step not available here: The step "a" cannot use its own answer in its call or its when`,
		`t.hcl:15:19: Invalid expression: The step "b" runs after "a"; move it above "a", or refer to an earlier step.`,
		`t.hcl:18:24: Invalid expression: An error rule of the step "a" reads the step's own answer by its names (status, headers, body, text), not as steps.a.`,
		`t.hcl:23:32: Reference to unknown step: There is no step "plnt"; the steps here are a.`,
		`t.hcl:23:51: Reference to unknown field: steps.a holds status, headers, body, text; there is no "bdy". Did you mean steps.a.body?`,
		`t.hcl:25:33: Invalid expression: Invalid operation: == (mismatched types integer and string).`,
		`t.hcl:26:27: Invalid expression: There is no step named c; the steps that can be used here are a. Did you mean steps.a?`,
		`t.hcl:30:36: Invalid operand: Unsuitable value for right operand: a number is required.`,
		`t.hcl:31:19: Reference to unknown step: There is no step "c"; the steps here are a, b.`,
		`t.hcl:33:28: Invalid expression: There is no field bdy in steps.b; its fields are status, headers, body, text. Did you mean steps.b.body?`,
	)
}

// TestStepsWithoutMainCall: a tool whose steps make all its calls may
// have error rules and a result over them; a when that is no condition,
// and a step that names itself in its when, are errors.
func TestStepsWithoutMainCall(t *testing.T) {
	_, diags := compileSource(t, "t.hcl", stepBackends+`
tool "t" {
  description = "d"
  step "a" {
    http "shop" { path = "/a" }
  }
  error {
    when    = "steps.a.status == 404"
    message = "Not found."
  }
  result { text = "steps.a.text" }
}
tool "u" {
  description = "d"
  step "a" {
    when = "steps.a.status"
    http "shop" { path = "/a" }
  }
  step "b" {
    when = "args.x"
    http "shop" { path = "/b" }
  }
  result { text = "steps.a.headers['Link']" }
}
`)
	wantPositioned(t, diags,
		`t.hcl:25:19: Invalid expression: The step "a" cannot use its own answer`,
		`t.hcl:29:18: Invalid expression: There is no argument named x`,
		`t.hcl:32:36: Invalid expression: The keys of steps.a.headers are lower case: write steps.a.headers['link']`,
	)
}

// TestStepsJSONSyntax: steps in the JSON syntax compile, and a wrong
// reference is reported at its place in the JSON file.
func TestStepsJSONSyntax(t *testing.T) {
	src := `{
  "backend": { "http": { "shop": { "base_url": "http://127.0.0.1:1" } } },
  "tool": {
    "t": {
      "description": "d",
      "step": {
        "a": { "http": { "shop": { "path": "/a/${steps.b.text}" } } },
        "b": { "http": { "shop": { "path": "/b/${steps.a.text}" } } }
      },
      "http": { "shop": { "path": "/c/${steps.b.status}" } },
      "result": { "text": "steps.a.body" }
    }
  }
}`
	_, diags := compileSource(t, "t.hcl.json", src)
	wantPositioned(t, diags, `t.hcl.json:7:50: Step not available here: The step "b" runs after "a"`)
	tbl, diags := compileSource(t, "t.hcl.json", strings.Replace(src, "${steps.b.text}", "x", 1))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if s := tbl.Tools[0].Steps; len(s) != 2 || s[0].Name != "a" || s[1].Name != "b" || !slices.Equal(s[1].Uses, []string{"a"}) {
		t.Errorf("steps from JSON = %+v", s)
	}
}

// TestStepsInResourcesAndPrompts: templates, resources and prompts read
// their steps in their text, call and messages.
func TestStepsInResourcesAndPrompts(t *testing.T) {
	tbl, diags := compileSource(t, "t.hcl", stepBackends+`
resource "r" {
  uri = "x://r"
  step "a" {
    sql "db" { query = "SELECT 1 AS n" }
  }
  http "shop" { path = "/r/${steps.a.rows[0].n}" }
}
resource_template "rt" {
  uri_template = "x://rt/{id}"
  step "a" {
    http "shop" { path = "/rt/${args.id}" }
  }
  text = "Name: ${steps.a.body.name}"
}
prompt "p" {
  arg "topic" {}
  step "rows" {
    sql "db" { query = "SELECT title FROM notes WHERE topic = ${args.topic}" }
  }
  message "user" {
    text = "Notes: ${jsonencode(steps.rows.rows)}"
  }
  message "user" {
    text = "${steps.rows.rowz}"
  }
}
`)
	wantPositioned(t, diags, `t.hcl:34:15: Reference to unknown field: steps.rows holds rows, columns, rows_affected, last_insert_id, truncated; there is no "rowz". Did you mean steps.rows.rows?`)
	_ = tbl
	tbl, diags = compileSource(t, "t.hcl", strings.Replace(stepBackends+`
prompt "p" {
  step "rows" {
    sql "db" { query = "SELECT 1" }
  }
  message "user" { text = "${steps.rows.rowz}" }
}`, "rowz", "rows", 1))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(tbl.Prompts[0].Steps) != 1 || tbl.Prompts[0].Steps[0].Kind != "sql" {
		t.Errorf("prompt steps = %+v", tbl.Prompts[0].Steps)
	}
}

// TestStepValues: the values a runtime gives steps, as HCL expressions
// read them: an object of the step's type from the adapter's fields, null
// for a step that did not run.
func TestStepValues(t *testing.T) {
	tbl, diags := compileSource(t, "t.hcl", stepBackends+`
tool "t" {
  description = "d"
  step "a" {
    http "shop" { path = "/a" }
  }
  step "b" {
    sql "db" { query = "SELECT 1" }
  }
  result { text = "'x'" }
}`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	a, b := tbl.Tools[0].Steps[0], tbl.Tools[0].Steps[1]
	va, err := a.Value(map[string]any{"status": 200, "headers": map[string]string{"x-next": "/p/2"},
		"body": map[string]any{"price": json.Number("4.50"), "tags": []any{"a"}}, "text": "{}"})
	if err != nil {
		t.Fatal(err)
	}
	steps := table.StepsValue(tbl.Tools[0].Steps, map[string]cty.Value{"a": va})
	if got := steps.GetAttr("a").GetAttr("status"); !got.RawEquals(cty.NumberIntVal(200)) {
		t.Errorf("steps.a.status = %#v", got)
	}
	if got := steps.GetAttr("a").GetAttr("headers").Index(cty.StringVal("x-next")); got.AsString() != "/p/2" {
		t.Errorf("steps.a.headers = %#v", got)
	}
	if got := steps.GetAttr("a").GetAttr("body").GetAttr("price"); got.AsBigFloat().Text('f', 2) != "4.50" {
		t.Errorf("steps.a.body.price = %#v", got)
	}
	if got := steps.GetAttr("b"); !got.IsNull() || !got.Type().Equals(b.Type) {
		t.Errorf("steps.b of a step that did not run = %#v, want null of its type", got)
	}
	vb, err := b.Value(map[string]any{"rows": []map[string]any{{"n": int64(1)}}, "columns": []string{"n"}, "rows_affected": 0, "last_insert_id": 0, "truncated": false})
	if err != nil {
		t.Fatal(err)
	}
	if got := vb.GetAttr("rows").Index(cty.NumberIntVal(0)).GetAttr("n"); !got.RawEquals(cty.NumberIntVal(1)) {
		t.Errorf("steps.b.rows[0].n = %#v", got)
	}
}
