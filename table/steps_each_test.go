package table_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestForEachCompiled: a step with for_each is a list of answers in both
// languages, with its list, bound and each where they belong.
func TestForEachCompiled(t *testing.T) {
	tbl, diags := compileSource(t, "t.hcl", stepBackends+`
tool "t" {
  description = "d"
  arg "ids" { type = list(number) }
  step "search" {
    http "shop" { path = "/search" }
  }
  step "details" {
    for_each  = steps.search.body.items
    max_items = 20
    http "shop" { path = "/plants/${each.value.id}/${each.index}" }
    error {
      when    = "status == 404 && each.index > 0"
      message = "Plant {{ each.value.id }} is gone."
    }
  }
  step "rows" {
    for_each = args.ids
    sql "db" { query = "SELECT ${each.value + 1} AS n, ${steps.details[0].body.id} AS first" }
  }
  http "shop" { path = "/x/${length(steps.details)}/${steps.rows[0].rows[0].n}" }
  result { text = "join(map(steps.details, #.body.name), ', ') + string(steps.rows[0].rows_affected)" }
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	search, details, rows := tbl.Tools[0].Steps[0], tbl.Tools[0].Steps[1], tbl.Tools[0].Steps[2]
	if search.ForEach != nil || details.ForEach == nil || rows.ForEach == nil {
		t.Fatalf("for_each: %v %v %v", search.ForEach, details.ForEach, rows.ForEach)
	}
	if details.ForEach.Source != "steps.search.body.items" || details.ForEach.MaxItems != 20 || rows.ForEach.MaxItems != 100 {
		t.Errorf("details.ForEach = %+v, rows.ForEach = %+v", details.ForEach, rows.ForEach)
	}
	if !slices.Equal(details.Uses, []string{"search"}) || !slices.Equal(rows.Uses, []string{"details"}) {
		t.Errorf("uses: details %v, rows %v", details.Uses, rows.Uses)
	}
	if got := envNames(details.Env); !slices.Equal(got, []string{"status", "headers", "body", "text", "args", "steps", "each"}) {
		t.Errorf("error env of details = %v", got)
	}
	if !details.Type.IsListType() || !details.Type.ElementType().Equals(search.Type) {
		t.Errorf("details.Type = %#v, want a list of %#v", details.Type, search.Type)
	}
	steps, _ := fieldType(tbl.Tools[0].Env, "steps")
	if f, _ := fieldType(steps, "details"); f.Kind() != reflect.Slice || f.Elem().Kind() != reflect.Struct {
		t.Errorf("steps.details in expr-lang = %v, want a slice of answers", f)
	}
	v, err := details.Value(map[string]any{"status": 200, "body": map[string]any{"id": "a"}})
	if err != nil || !v.GetAttr("status").RawEquals(cty.NumberIntVal(200)) {
		t.Errorf("one answer = %#v, %v", v, err)
	}
}

// fieldType is the type of the field of an environment struct named name.
func fieldType(env reflect.Type, name string) (reflect.Type, bool) {
	for i := range env.NumField() {
		if env.Field(i).Tag.Get("expr") == name {
			return env.Field(i).Type, true
		}
	}
	return nil, false
}

// TestForEachErrors: each wrong use of for_each and each is an error at
// its column that says what to do.
func TestForEachErrors(t *testing.T) {
	_, diags := compileSource(t, "t.hcl", stepBackends+`
tool "t" {
  description = "d"
  arg "name" { type = string }
  arg "ids" { type = list(string) }
  step "search" {
    http "shop" { path = "/search/${each.value}" }
    error {
      when    = "each.index > 0"
      message = "m"
    }
  }
  step "details" {
    when      = "each.index == 0"
    for_each  = [for x in steps.search.body.items : x if each.value != null]
    max_items = 1001
    http "shop" { path = "/plants/${each.valu}" }
  }
  step "bad" {
    for_each  = args.name
    max_items = 2.5
    http "shop" { path = "/b/${steps.details.body.id}/${steps.details[0].bdy}" }
  }
  step "fixed" {
    for_each  = ["a", "b", "c"]
    max_items = 2
    http "shop" { path = "/c/${each.value}" }
  }
  http "shop" { path = "/x/${each.index}" }
  result { text = "steps.details.body" }
  error {
    when    = "steps.details[0].bdy == 1"
    message = "m"
  }
}
`)
	wantPositioned(t, diags,
		`t.hcl:16:37: Unknown reference: There is nothing named "each" here. Expressions can refer to args.<name>, var.<name>, steps.<step> and local.<name>. each is only known in a step with for_each, in its call and its error rules (each.value is the item, each.index its position): add for_each = <a list> to the step, or refer to the list's items there.`,
		`t.hcl:18:18: Invalid expression: Unknown name each. The names available here are status, headers, body, text, args, steps. each is only known in the error rules (and the call) of a step with for_each, not in its when, which runs once for the whole step: add for_each to the step, or read the answers as a list after it, as in map(steps.<name>, #.body).`,
		`t.hcl:25:17: Invalid max_items: max_items must be a whole number from 1 to 1000 (the most calls one step may make); got 1001.`,
		`t.hcl:24:58: Field not available here: for_each gives the items of the step "details", so it cannot use each: each.value is known in the step's call and error rules.`,
		`t.hcl:26:37: Reference to unknown field: There is no field "valu"; the fields here are index, value. Did you mean each.value?`,
		`t.hcl:23:18: Invalid expression: Unknown name each. The names available here are args, steps. each is only known in the error rules (and the call) of a step with for_each, not in its when`,
		`t.hcl:30:17: Invalid max_items: max_items must be a whole number from 1 to 1000 (the most calls one step may make); got 2.5.`,
		`t.hcl:29:17: for_each is not a list: for_each of the step "bad" must give a list, with one call per item; this gives a string. Write a list, such as args.ids or steps.search.body.items, or [for k, v in <map> : v] for the values of a map.`,
		`t.hcl:31:32: Missing index: steps.details is a list, one value per item of its for_each, with status, headers, body, text each; write steps.details[0].body for the first, or [for x in steps.details : x.body] for all of them.`,
		`t.hcl:31:57: Reference to unknown field: steps.details[0] holds status, headers, body, text; there is no "bdy". Did you mean steps.details[0].body?`,
		`t.hcl:34:17: Too many items: for_each of the step "fixed" gives 3 items, and it may call for at most 2 (max_items). Shorten the list, or raise max_items (at most 1000).`,
		`t.hcl:38:30: Unknown reference: There is nothing named "each" here.`,
		`t.hcl:41:33: Invalid expression: There is no field bdy in steps.details[0]; its fields are status, headers, body, text. Did you mean steps.details[0].body?`,
		`t.hcl:39:34: Invalid expression: There is one answer per item in steps.details, a list with status, headers, body, text in each; write steps.details[0].body for the first, or map(steps.details, #.body) for all of them.`,
	)
}
