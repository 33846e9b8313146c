package fastschema_test

// The checker's promise, tested on the schemas mcpdecl's compiler really
// writes: these tests compile configurations with package table, so they
// are an external test package (the checker itself imports nothing of
// mcpdecl).

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/fastschema"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// FuzzFastSchemaAgrees holds the fast checker to its one promise: a value
// it accepts, the schema library accepts too. Schemas come from random
// arg blocks compiled by the real compiler and from every schema of the
// repository's configurations; values are built near each schema (valid
// ones, and ones off by a bound, a type, a field, a digit).
func FuzzFastSchemaAgrees(f *testing.F) {
	for i := range 48 {
		f.Add([]byte(fmt.Sprintf("seed %d", i)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := newSchemaGen(data)
		var doc map[string]any
		if g.r.IntN(4) == 0 {
			corpus := corpusSchemas(t)
			doc = corpus[g.r.IntN(len(corpus))]
		} else if doc = g.compiledArgs(t); doc == nil {
			return // an impossible combination the compiler refuses
		}
		checkAgreement(t, g, doc, 24)
	})
}

// agreement counts what the checker said of the values the library found
// valid.
type agreement struct{ valid, fast int }

func checkAgreement(t *testing.T, g *schemaGen, doc map[string]any, n int) agreement {
	t.Helper()
	lib, read, err := fastschema.CompileSchemaDoc("mcpdecl:test.json", doc)
	if err != nil {
		t.Fatalf("compile %s: %v", fastschema.AsJSON(doc), err)
	}
	fast := fastschema.Compile(read, lib)
	var out agreement
	for range n {
		v := g.value(read, 0)
		accepted := fast.Accepts(v)
		err := lib.Validate(v)
		if accepted && err != nil {
			t.Fatalf("the fast checker accepts %s against %s, which the library refuses: %v", fastschema.AsJSON(v), fastschema.AsJSON(doc), err)
		}
		if err == nil {
			out.valid++
			if accepted {
				out.fast++
			}
		}
	}
	return out
}

// TestFastSchemaIsUsed: of the valid values of generated argument
// schemas, the fast checker answers for most (the rest: numbers of more
// digits than it compares, bounds of many digits, long lists of objects
// that must be unique).
func TestFastSchemaIsUsed(t *testing.T) {
	var total agreement
	for i := range 150 {
		g := newSchemaGen([]byte(fmt.Sprintf("usage %d", i)))
		doc := g.compiledArgs(t)
		if doc == nil {
			continue
		}
		a := checkAgreement(t, g, doc, 40)
		total.valid += a.valid
		total.fast += a.fast
	}
	t.Logf("fast checker answered for %d of %d valid values", total.fast, total.valid)
	if total.valid < 1000 {
		t.Fatalf("only %d valid values were generated; the generator no longer aims at the schemas", total.valid)
	}
	if share := float64(total.fast) / float64(total.valid); share < 0.9 {
		t.Fatalf("the fast checker answered for %.0f%% of valid values, want at least 90%%", share*100)
	}
}

var corpus struct {
	once    sync.Once
	schemas []map[string]any
}

// corpusSchemas are the argument and output schemas of the repository's
// configurations.
func corpusSchemas(t *testing.T) []map[string]any {
	corpus.once.Do(func() {
		var files []string
		for _, pattern := range []string{"../../testdata/valid/*.hcl", "../../testdata/valid/multi", "../../examples/*.hcl",
			"../../testkit/e2e/testdata/*.hcl", "../../testdata/conformance/*.hcl", "../../server/testdata/*.hcl"} {
			found, _ := filepath.Glob(pattern)
			files = append(files, found...)
		}
		reg := all.Registry()
		for _, name := range files {
			cfg, diags := lang.Load(name)
			if diags.HasErrors() {
				continue
			}
			tbl, diags := table.Compile(cfg, reg, table.Options{})
			if diags.HasErrors() {
				continue
			}
			corpus.schemas = append(corpus.schemas, tableSchemas(tbl)...)
		}
	})
	if len(corpus.schemas) < 20 {
		t.Fatalf("only %d schemas in the repository's configurations", len(corpus.schemas))
	}
	return corpus.schemas
}

func tableSchemas(tbl *table.Table) []map[string]any {
	var out []map[string]any
	for _, tool := range tbl.Tools {
		out = append(out, tool.Args.Schema)
		if tool.OutputSchema != nil {
			out = append(out, tool.OutputSchema)
		}
	}
	for _, tpl := range tbl.Templates {
		out = append(out, tpl.Args.Schema)
	}
	for _, p := range tbl.Prompts {
		out = append(out, p.Args.Schema)
	}
	return out
}

// schemaGen builds random arg blocks and values from a fuzzer's bytes.
type schemaGen struct{ r *rand.Rand }

func newSchemaGen(data []byte) *schemaGen {
	h := fnv.New128a()
	h.Write(data)
	sum := h.Sum(nil)
	var a, b uint64
	for i := range 8 {
		a = a<<8 | uint64(sum[i])
		b = b<<8 | uint64(sum[8+i])
	}
	return &schemaGen{rand.New(rand.NewPCG(a, b))}
}

func (g *schemaGen) pick(list ...string) string { return list[g.r.IntN(len(list))] }

func (g *schemaGen) chance(percent int) bool { return g.r.IntN(100) < percent }

// compiledArgs compiles a tool of random arguments and returns its
// argument schema; nil when the compiler refuses the combination.
func (g *schemaGen) compiledArgs(t *testing.T) map[string]any {
	var b strings.Builder
	b.WriteString("tool \"t\" {\n  description = \"Generated.\"\n")
	for i := range 1 + g.r.IntN(4) {
		fmt.Fprintf(&b, "  arg \"a%d\" {\n", i)
		g.spec(&b, 0, "    ")
		b.WriteString("  }\n")
	}
	b.WriteString("  content \"text\" {\n    text = \"ok\"\n  }\n}\n")
	cfg, diags := lang.LoadSource("gen.hcl", []byte(b.String()))
	if diags.HasErrors() {
		return nil
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		return nil
	}
	return tbl.Tools[0].Args.Schema
}

var (
	genPatterns = []string{`^[a-z]+$`, `^\d{3}$`, `é`, `^.{2,4}$`, `[A-Z]`, `^(foo|bar)$`, `^$`}
	genFormats  = []string{"date", "date-time", "email", "uuid", "ipv4", "hostname", "time", "duration"}
	genBounds   = []string{"-10", "-1.5", "0", "0.1", "1", "2.5", "3", "100", "1e20", "-1e20", "0.3", "9223372036854775807",
		"12345678901234567890123"}
	genMultiples = []string{"1", "2", "0.5", "0.1", "0.01", "3", "0.001", "7.5", "1e20", "12345678901234567890123"}
)

// spec writes the attributes and blocks of one argument.
func (g *schemaGen) spec(b *strings.Builder, depth int, in string) {
	kind := g.pick("string", "string", "integer", "number", "bool", "list", "set", "map", "object", "props", "any")
	if depth > 1 && (kind == "list" || kind == "set" || kind == "props") {
		kind = "string"
	}
	switch kind {
	case "list", "set":
		elem := g.pick("string", "integer", "number", "bool", "object({ x = number, y = optional(string) })")
		fmt.Fprintf(b, "%stype = %s(%s)\n", in, kind, elem)
		g.arrayConstraints(b, in)
		if !strings.HasPrefix(elem, "object") && g.chance(50) {
			fmt.Fprintf(b, "%sitems {\n", in)
			g.scalarConstraints(b, elem, in+"  ")
			fmt.Fprintf(b, "%s}\n", in)
		}
	case "map":
		fmt.Fprintf(b, "%stype = map(%s)\n", in, g.pick("string", "number", "bool"))
	case "object":
		fmt.Fprintf(b, "%stype = object({ a = string, b = optional(integer), c = list(number) })\n", in)
	case "props":
		fmt.Fprintf(b, "%stype = object\n", in)
		for i := range 1 + g.r.IntN(3) {
			fmt.Fprintf(b, "%sproperty \"p%d\" {\n", in, i)
			g.spec(b, depth+1, in+"  ")
			fmt.Fprintf(b, "%s}\n", in)
		}
	case "any":
		fmt.Fprintf(b, "%stype = any\n", in)
	default:
		fmt.Fprintf(b, "%stype = %s\n", in, kind)
		g.scalarConstraints(b, kind, in)
	}
	if kind != "any" && g.chance(25) {
		fmt.Fprintf(b, "%snullable = true\n", in)
	}
	if g.chance(30) {
		fmt.Fprintf(b, "%srequired = false\n", in)
	}
	if g.chance(15) {
		fmt.Fprintf(b, "%ssensitive = true\n%sdescription = \"secret\"\n", in, in)
	}
}

func (g *schemaGen) scalarConstraints(b *strings.Builder, kind, in string) {
	switch kind {
	case "string":
		if g.chance(40) {
			lo := g.r.IntN(3)
			fmt.Fprintf(b, "%smin_length = %d\n%smax_length = %d\n", in, lo, in, lo+g.r.IntN(6))
		}
		if g.chance(30) {
			fmt.Fprintf(b, "%spattern = %q\n", in, genPatterns[g.r.IntN(len(genPatterns))])
		}
		if g.chance(20) {
			fmt.Fprintf(b, "%sformat = %q\n", in, genFormats[g.r.IntN(len(genFormats))])
		}
		if g.chance(20) {
			fmt.Fprintf(b, "%senum = [\"a\", \"b\", \"é\", \"x y\", \"\"]\n", in)
		} else if g.chance(5) {
			fmt.Fprintf(b, "%sconst = \"a\"\n", in)
		}
	case "integer", "number":
		for _, key := range []string{"minimum", "maximum", "exclusive_minimum", "exclusive_maximum"} {
			if g.chance(25) {
				fmt.Fprintf(b, "%s%s = %s\n", in, key, genBounds[g.r.IntN(len(genBounds))])
			}
		}
		if g.chance(30) {
			fmt.Fprintf(b, "%smultiple_of = %s\n", in, genMultiples[g.r.IntN(len(genMultiples))])
		}
		if g.chance(15) {
			fmt.Fprintf(b, "%senum = [1, 2.5, -3, 0, 1e3, 100000000000000000000]\n", in)
		} else if g.chance(5) {
			fmt.Fprintf(b, "%sconst = 2\n", in)
		}
	}
}

func (g *schemaGen) arrayConstraints(b *strings.Builder, in string) {
	if g.chance(40) {
		lo := g.r.IntN(3)
		fmt.Fprintf(b, "%smin_items = %d\n%smax_items = %d\n", in, lo, in, lo+g.r.IntN(40))
	}
	if g.chance(30) {
		fmt.Fprintf(b, "%sunique_items = true\n", in)
	}
}

// value builds a value near schema s (as the library read it): mostly
// valid, sometimes off in one way.
func (g *schemaGen) value(s any, depth int) any {
	m, _ := s.(map[string]any)
	switch {
	case depth > 6 || g.chance(4):
		return g.anyValue(depth)
	case m["enum"] != nil && g.chance(70):
		enum := m["enum"].([]any)
		return g.sameNumber(enum[g.r.IntN(len(enum))])
	case m["const"] != nil && g.chance(70):
		return g.sameNumber(m["const"])
	}
	switch g.typeOf(m) {
	case "null":
		return nil
	case "boolean":
		return g.chance(50)
	case "string":
		return g.stringFor(m)
	case "integer", "number":
		return g.numberFor(m)
	case "array":
		return g.arrayFor(m, depth)
	case "object":
		return g.objectFor(m, depth)
	}
	return g.anyValue(depth)
}

func (g *schemaGen) typeOf(m map[string]any) string {
	switch ty := m["type"].(type) {
	case string:
		if g.chance(3) {
			return g.pick("null", "boolean", "string", "number", "array", "object")
		}
		return ty
	case []any:
		return ty[g.r.IntN(len(ty))].(string)
	}
	return ""
}

// sameNumber writes a number of an enum or const another way (1 as 1.0
// or 1e0), or leaves the value as it is.
func (g *schemaGen) sameNumber(v any) any {
	n, ok := v.(json.Number)
	if !ok || g.chance(50) {
		return v
	}
	switch text := string(n); {
	case strings.ContainsAny(text, "eE"):
		return n
	case strings.Contains(text, "."):
		return json.Number(g.pick(text+"0", text+"e0", text+"0e-0"))
	default:
		return json.Number(g.pick(text+".0", text+"e0", text+"0e-1"))
	}
}

var genStrings = []string{"", "a", "ab", "abc", "é", "ée", "x y", "foo", "bar", "123", "1234", "Ada", "AB", "日本語", "👩\u200d💻",
	"2026-11-03", "2026-11-03T10:00:00Z", "10:00:00Z", "PT2H30M", "a@b.co", "not an email", "123e4567-e89b-12d3-a456-426614174000",
	"192.168.0.1", "256.1.1.1", "example.com", "-bad-.com", "b", "\x00", "a\nb"}

func (g *schemaGen) stringFor(m map[string]any) string {
	if g.chance(60) {
		return genStrings[g.r.IntN(len(genStrings))]
	}
	n := g.r.IntN(8)
	if lo, ok := m["minLength"].(json.Number); ok && g.chance(50) {
		k, _ := lo.Int64()
		n = int(k) + g.r.IntN(3) - 1
	}
	var b strings.Builder
	for range max(n, 0) {
		b.WriteString(g.pick("a", "z", "é", "1", " ", "Z", "日", "💻"))
	}
	return b.String()
}

var genNumbers = []string{"0", "-0", "1", "1.0", "1e2", "2.5", "-3", "0.1", "0.3", "1E-7", "100", "101", "7.5", "15",
	"100000000000000000000", "1e20", "12345678901234567890123", "-9223372036854775808", "9223372036854775807",
	"9223372036854775808", "0.01", "0.001", "-1.5", "3", "1e3", "1000.0", "2"}

func (g *schemaGen) numberFor(m map[string]any) any {
	switch g.r.IntN(10) {
	case 0:
		return float64(g.r.IntN(200)-100) / 4 // as an answer's values may be
	case 1:
		return int64(g.r.IntN(200) - 100)
	case 2, 3, 4:
		// Near a bound or on a multiple.
		var keys []string
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
			if _, ok := m[k]; ok {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			k := keys[g.r.IntN(len(keys))]
			base, _ := new(big.Rat).SetString(string(m[k].(json.Number)))
			if k == "multipleOf" {
				return ratNumber(base.Mul(base, big.NewRat(int64(g.r.IntN(21)-10), 1)))
			}
			deltas := []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 1), big.NewRat(-1, 1), big.NewRat(1, 2), big.NewRat(-1, 10)}
			return ratNumber(base.Add(base, deltas[g.r.IntN(len(deltas))]))
		}
	}
	return json.Number(genNumbers[g.r.IntN(len(genNumbers))])
}

func ratNumber(r *big.Rat) json.Number {
	s := r.FloatString(30)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" || s == "" {
		s = "0"
	}
	return json.Number(s)
}

func (g *schemaGen) arrayFor(m map[string]any, depth int) []any {
	n := g.r.IntN(5)
	if lo, ok := m["minItems"].(json.Number); ok && g.chance(50) {
		k, _ := lo.Int64()
		n = int(k) + g.r.IntN(3) - 1
	}
	if g.chance(10) {
		n = 20 + g.r.IntN(30) // past the pairwise comparison of unique items
	}
	out := make([]any, 0, max(n, 0))
	for range max(n, 0) {
		if len(out) > 0 && g.chance(10) {
			out = append(out, out[g.r.IntN(len(out))]) // a duplicate
			continue
		}
		out = append(out, g.value(m["items"], depth+1))
	}
	return out
}

func (g *schemaGen) objectFor(m map[string]any, depth int) map[string]any {
	out := map[string]any{}
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	if list, ok := m["required"].([]any); ok {
		for _, r := range list {
			required[r.(string)] = true
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names) // the values follow the seed, not map order
	for _, name := range names {
		if required[name] && g.chance(97) || g.chance(60) {
			out[name] = g.value(props[name], depth+1)
		}
	}
	if extra, ok := m["additionalProperties"].(map[string]any); ok {
		for range g.r.IntN(3) {
			out[g.pick("k1", "k2", "k3")] = g.value(extra, depth+1)
		}
	} else if g.chance(5) {
		out["extra"] = g.anyValue(depth + 1)
	}
	return out
}

func (g *schemaGen) anyValue(depth int) any {
	switch k := g.r.IntN(8); {
	case k == 0:
		return nil
	case k == 1:
		return g.chance(50)
	case k == 2:
		return genStrings[g.r.IntN(len(genStrings))]
	case k == 3:
		return json.Number(genNumbers[g.r.IntN(len(genNumbers))])
	case k == 4 && depth < 4:
		return []any{g.anyValue(depth + 1), g.anyValue(depth + 1)}
	case k == 5 && depth < 4:
		return map[string]any{"a": g.anyValue(depth + 1)}
	}
	return "s"
}
