package table

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/jsondec"
	"github.com/mcpdecl/mcpdecl/lang"
)

// parseArgs decodes arguments as a call does, numbers as json.Number.
func parseArgs(raw json.RawMessage) (any, error) {
	return jsondec.DecodeNumbers(string(raw))
}

// commonArgsConfig declares the arguments most tools take.
const commonArgsConfig = `
tool "common" {
  description = "Common arguments."
  arg "name" {
    type       = string
    min_length = 1
    max_length = 40
    pattern    = "^[A-Za-zé ]+$"
  }
  arg "limit" {
    type    = integer
    minimum = 1
    maximum = 100
    default = 10
  }
  arg "price" {
    type              = number
    exclusive_minimum = 0
    multiple_of       = 0.01
    required          = false
  }
  arg "colour" {
    type     = string
    enum     = ["red", "green", "blue"]
    required = false
  }
  arg "note" {
    type     = string
    nullable = true
    required = false
  }
  arg "when" {
    type     = string
    format   = "date"
    required = false
  }
  arg "tags" {
    type      = set(string)
    max_items = 50
    required  = false
  }
  arg "labels" {
    type     = map(string)
    required = false
  }
  arg "point" {
    type     = object({ x = number, y = number, label = optional(string) })
    required = false
  }
  arg "lines" {
    type     = list(object)
    required = false
    items {
      property "sku" {
        type    = string
        pattern = "^[a-z]+-[0-9]+$"
      }
      property "qty" {
        type    = integer
        minimum = 1
      }
    }
  }
  arg "secret" {
    type      = string
    sensitive = true
    required  = false
  }
  content "text" {
    text = "ok"
  }
}
`

// TestFastSchemaCommonCases: the arguments most tools take are checked
// without the library.
func TestFastSchemaCommonCases(t *testing.T) {
	table := compileTestConfig(t, commonArgsConfig)
	args := table.Tools[0].Args
	if _, err := args.Validator(); err != nil {
		t.Fatal(err)
	}
	manyTags := make([]string, 40)
	for i := range manyTags {
		manyTags[i] = fmt.Sprintf("%q", fmt.Sprintf("tag-%d", i))
	}
	for _, raw := range []string{
		`{"name":"Ada"}`,
		`{"name":"Adé Lovelace","limit":100}`,
		`{"name":"Ada","limit":1.0}`,
		`{"name":"Ada","limit":1e2}`,
		`{"name":"Ada","price":19.99}`,
		`{"name":"Ada","price":0.01}`,
		`{"name":"Ada","price":1e-2}`,
		`{"name":"Ada","colour":"green"}`,
		`{"name":"Ada","note":null}`,
		`{"name":"Ada","note":"x"}`,
		`{"name":"Ada","when":"2026-11-03"}`,
		`{"name":"Ada","tags":["a","b","c"]}`,
		`{"name":"Ada","tags":[` + strings.Join(manyTags, ",") + `]}`,
		`{"name":"Ada","labels":{"a":"1","b":"2"}}`,
		`{"name":"Ada","point":{"x":1.5,"y":-2}}`,
		`{"name":"Ada","point":{"x":1.5,"y":-2,"label":"here"}}`,
		`{"name":"Ada","lines":[{"sku":"ab-1","qty":2},{"sku":"cd-22","qty":1}]}`,
		`{"name":"Ada","secret":"hunter2"}`,
	} {
		v, err := parseArgs(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if err := args.validator.Validate(v); err != nil {
			t.Fatalf("%s: the library refuses it: %v", raw, err)
		}
		if !args.fast.Accepts(v) {
			t.Errorf("%s: the fast checker left it to the library", raw)
		}
	}
	for _, raw := range []string{
		`{}`, `{"name":""}`, `{"name":"Ada1"}`, `{"name":"Ada","limit":0}`, `{"name":"Ada","limit":1.5}`,
		`{"name":"Ada","price":0}`, `{"name":"Ada","price":0.001}`, `{"name":"Ada","colour":"pink"}`,
		`{"name":"Ada","when":"03/11/2026"}`, `{"name":"Ada","tags":["a","a"]}`, `{"name":"Ada","point":{"x":1}}`,
		`{"name":"Ada","lines":[{"sku":"ab-1","qty":0}]}`, `{"name":"Ada","extra":1}`, `{"name":"Ada","note":1}`,
		// Valid, but past what the checker compares exactly.
		`{"name":"Ada","price":12345678901234567890.12}`,
	} {
		v, err := parseArgs(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if args.fast.Accepts(v) {
			t.Errorf("%s: the fast checker accepts it", raw)
		}
	}
}

func compileTestConfig(t testing.TB, src string) *Table {
	t.Helper()
	cfg, diags := lang.LoadSource("test.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	table, diags := Compile(cfg, all.Registry(), Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return table
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// BenchmarkArgsValidate compares the fast checker with the library on
// the arguments of TestFastSchemaCommonCases, both valid.
func BenchmarkArgsValidate(b *testing.B) {
	table := compileTestConfig(b, commonArgsConfig)
	args := table.Tools[0].Args
	if _, err := args.Validator(); err != nil {
		b.Fatal(err)
	}
	for name, raw := range map[string]string{
		"string":  `{"name":"Ada"}`,
		"several": `{"name":"Ada","limit":20,"price":19.99,"colour":"green","note":null,"point":{"x":1.5,"y":-2},"lines":[{"sku":"ab-1","qty":2}]}`,
	} {
		v, err := parseArgs(json.RawMessage(raw))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/fast", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := args.Validate(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/library", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := args.validator.Validate(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
