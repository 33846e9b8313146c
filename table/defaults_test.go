package table_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestDefaultNumbersKeepTheirValue: a default reaches a call as a
// client's argument would, a number no float64 holds as written keeping
// its digits (it used to be rounded to the nearest float64: 12345678901234567.89
// became 12345678901234568).
func TestDefaultNumbersKeepTheirValue(t *testing.T) {
	cfg, diags := lang.LoadSource("t.hcl", []byte(`
tool "pay" {
  description = "Pays."
  arg "count" {
    type    = integer
    default = 10
  }
  arg "rate" {
    type    = number
    default = 0.25
  }
  arg "amount" {
    type    = number
    default = 12345678901234567.89
  }
  arg "serial" {
    type    = number
    default = 123456789012345678901234
  }
  result {
    text = "'paid'"
  }
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := map[string]any{}
	for _, arg := range tbl.Tools[0].Args.List {
		got[arg.Name] = arg.DefaultJSON
	}
	want := map[string]any{
		"count":  int64(10),
		"rate":   0.25,
		"amount": json.Number("12345678901234567.89"),
		"serial": json.Number("123456789012345678901234"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}
