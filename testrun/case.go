package testrun

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// Case is a checked test, ready to run.
type Case struct {
	Name string
	// Range is where the test is declared (its name label).
	Range hcl.Range
	// Skip says why the test does not run; empty when it runs.
	Skip   string
	Target *Target
	expect *expectation
	// mocks and sqlite are the test's doubles by backend name.
	mocks  map[string][]*mock
	sqlite map[string]string
	// fixture is the file that holds the test's recorded HTTP answers.
	fixture string
	suite   *Suite
}

// checker checks the tests of one configuration against its table.
type checker struct {
	table *table.Table
	cfg   *lang.Config
	diags hcl.Diagnostics
}

func (c *checker) errorf(rng hcl.Range, summary, format string, a ...any) {
	c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, a...), Subject: rng.Ptr()})
}

// Check turns the configuration's test blocks into cases, checking each
// against the compiled table: the target exists, the arguments fit its
// schema, every mock names an HTTP backend and every sqlite block an
// SQLite one, patterns compile. Every problem is a diagnostic at its
// place.
func Check(cfg *lang.Config, tbl *table.Table) ([]*Case, hcl.Diagnostics) {
	c := &checker{table: tbl, cfg: cfg}
	var cases []*Case
	fixtures := map[string]*lang.Test{}
	for _, t := range cfg.Tests {
		before := len(c.diags)
		tc := c.testCase(t)
		if prev := fixtures[tc.fixture]; prev != nil {
			c.errorf(t.NameRange, "Tests sharing a recording", "Tests %q (at %s) and %q would record into the same file, %s; give one of them another name.",
				prev.Name, prev.NameRange, t.Name, tc.fixture)
		}
		fixtures[tc.fixture] = t
		if len(c.diags) == before {
			cases = append(cases, tc)
		}
	}
	return cases, c.diags
}

func (c *checker) testCase(t *lang.Test) *Case {
	tc := &Case{Name: t.Name, Range: t.NameRange, Target: &Target{}}
	if t.Skip != nil {
		if s, ok := c.stringValue(t.Skip); ok {
			tc.Skip = s
		}
	}
	c.target(t, tc.Target)
	if len(t.Expect) > 0 {
		tc.expect = c.expectation(t.Expect[0])
	} else {
		tc.expect = &expectation{}
	}
	tc.mocks = c.mocks(t.Mocks)
	tc.sqlite = c.sqliteData(t.SQLite)
	dir := filepath.Dir(t.DeclRange.Filename)
	stem := fileStem(t.DeclRange.Filename)
	tc.fixture = filepath.Join(dir, "testdata", stem, slug(t.Name)+".json")
	return tc
}

// value evaluates a test attribute: literal values only.
func (c *checker) value(attr *hcl.Attribute) (cty.Value, bool) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		for _, d := range diags {
			d.Detail += " A test's values are written out literally."
		}
		c.diags = append(c.diags, diags...)
		return cty.NilVal, false
	}
	return v, true
}

func (c *checker) stringValue(attr *hcl.Attribute) (string, bool) {
	v, ok := c.value(attr)
	if !ok {
		return "", false
	}
	if v.Type() != cty.String || v.IsNull() {
		c.errorf(attr.Expr.Range(), "String expected", "%s must be a string.", attr.Name)
		return "", false
	}
	return v.AsString(), true
}

// jsonValue is an attribute's value as decoded JSON (numbers as
// json.Number).
func (c *checker) jsonValue(attr *hcl.Attribute) (any, bool) {
	v, ok := c.value(attr)
	if !ok {
		return nil, false
	}
	return toJSON(v), true
}

func toJSON(v cty.Value) any {
	if v.IsNull() {
		return nil
	}
	raw, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil
	}
	return decodeJSON(raw)
}

func decodeJSON(raw []byte) any {
	var out any
	dec := json.NewDecoder(bytesReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil
	}
	return out
}

// stringMap reads an object of strings (numbers and bools written as
// text), such as a query or headers.
func (c *checker) stringMap(attr *hcl.Attribute) map[string]string {
	if attr == nil {
		return nil
	}
	v, ok := c.jsonValue(attr)
	if !ok {
		return nil
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		c.errorf(attr.Expr.Range(), "Object expected", "%s is an object of names and values, such as { q = \"dune\" }.", attr.Name)
		return nil
	}
	out := map[string]string{}
	for k, x := range obj {
		switch x := x.(type) {
		case string:
			out[k] = x
		case json.Number:
			out[k] = x.String()
		case bool:
			out[k] = fmt.Sprint(x)
		default:
			c.errorf(attr.Expr.Range(), "Text value expected", "The value of %s in %s must be a string, a number or a bool.", k, attr.Name)
		}
	}
	return out
}

func (c *checker) regexp(attr *hcl.Attribute, pattern string) *regexp.Regexp {
	re, err := regexp.Compile(pattern)
	if err != nil {
		c.errorf(attr.Expr.Range(), "Invalid regular expression", "matches takes an RE2 regular expression: %s.", err)
	}
	return re
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
