package table_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestCompileLeavesConfigAsItWas compiles every configuration of the
// repository twice from one load, as mcpdecl test does (once per test
// case): the second compile must find what the first found and build the
// same table, so compiling never changes the decoded configuration in a
// way a later compile sees. (It once did: property blocks filled in the
// argument's object type, and the second compile refused them as
// properties on an object whose fields were already given.)
func TestCompileLeavesConfigAsItWas(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../testdata/valid", "../testdata/invalid", "../examples"} {
		paths = append(paths, configsIn(t, dir)...)
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			cfg, _ := lang.Load(p)
			if cfg.Incomplete {
				t.Skip("does not decode far enough to compile") // no compile, so nothing to compare
			}
			first, d1 := table.Compile(cfg, all.Registry(), table.Options{})
			second, d2 := table.Compile(cfg, all.Registry(), table.Options{})
			if render(d1) != render(d2) {
				t.Fatalf("the second compile found other things.\nfirst:\n%s\nsecond:\n%s", render(d1), render(d2))
			}
			if (first == nil) != (second == nil) {
				t.Fatalf("one compile made a table and the other did not (%v, %v)", first != nil, second != nil)
			}
			if first == nil {
				return
			}
			a, err := json.Marshal(table.Inspect(first))
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(table.Inspect(second))
			if err != nil {
				t.Fatal(err)
			}
			if string(a) != string(b) {
				t.Errorf("the two compiles built different tables:\n%s\n%s", a, b)
			}
		})
	}
}
