package sqladapter

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestHostileStepValuesBound: the answer of an earlier step reaches a
// statement as a bound parameter, like an argument: SQL in it is data.
func TestHostileStepValuesBound(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = ":memory:"
}
sql "db" {
  query = "SELECT ${steps.prev.body.name} AS name, ${steps.prev.status} AS status"
}`, checktest.WithSteps)
	if len(got.Diags) > 0 {
		t.Fatal(got.Diags)
	}
	open(t, got.Backends["db"].(*Backend))
	hostile := "x' OR '1'='1'; DROP TABLE t; --"
	res, err := got.Actions[0].Invoke(context.Background(), &adapter.Request{
		Args: argsVal(nil), Static: got.Static,
		Vars:     checktest.StepsVars(cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(hostile)})),
		Progress: func(float64, float64, string) {}, Log: func(string, any) {},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"name": hostile, "status": int64(200)}}
	if diff := cmp.Diff(want, res.Fields["rows"]); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestHostileStepSQLRefusedAtLoad: a step's value is never SQL text: a
// query that is a step's value as a whole, or one with a step's value
// inside quotes, is refused as for arguments.
func TestHostileStepSQLRefusedAtLoad(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = ":memory:"
}
sql "db" {
  query = steps.prev.body.sql
}
sql "db" {
  query = "SELECT * FROM t WHERE name = '${steps.prev.text}'"
}
sql "db" {
  query = "SELECT * FROM ${steps.prev.text}"
}
sql "db" {
  query    = "SELECT 1"
  max_rows = steps.prev.status
}`, checktest.WithSteps)
	want := []string{
		"7:11 Query is not a string template",
		"10:44 Interpolation inside a SQL string",
		"13:28 Interpolation in identifier position",
		"17:14 Value known only when called",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestHostileStepEachValuesBound: the item of a step with for_each, and
// its index, reach a statement as bound parameters: SQL in an item is
// data.
func TestHostileStepEachValuesBound(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = ":memory:"
}
sql "db" {
  query = "SELECT ${each.value.name} AS name, ${each.index} AS i"
}`, checktest.WithEach)
	if len(got.Diags) > 0 {
		t.Fatal(got.Diags)
	}
	open(t, got.Backends["db"].(*Backend))
	hostile := "x' OR '1'='1'; DROP TABLE t; --"
	res, err := got.Actions[0].Invoke(context.Background(), &adapter.Request{
		Args: argsVal(nil), Static: got.Static,
		Vars:     checktest.EachVars(cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(hostile)}), 2),
		Progress: func(float64, float64, string) {}, Log: func(string, any) {},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"name": hostile, "i": int64(2)}}
	if diff := cmp.Diff(want, res.Fields["rows"]); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestHostileStepEachSQLRefusedAtLoad: an item is never SQL text: a query
// that is an item as a whole, an item inside quotes or in the place of a
// name, and an item where the config must be known at load time, are
// refused as for arguments.
func TestHostileStepEachSQLRefusedAtLoad(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = ":memory:"
}
sql "db" {
  query = each.value
}
sql "db" {
  query = "SELECT * FROM t WHERE name = '${each.value}'"
}
sql "db" {
  query = "SELECT * FROM ${each.value}"
}
sql "db" {
  query    = "SELECT 1"
  max_rows = each.index
}`, checktest.WithEach)
	want := []string{
		"7:11 Query is not a string template",
		"10:44 Interpolation inside a SQL string",
		"13:28 Interpolation in identifier position",
		"17:14 Value known only when called",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
