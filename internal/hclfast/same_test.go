package hclfast

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unsafe"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/zclconf/go-cty/cty"
)

// check parses src at start with both parsers. It fails the test when this
// parser returns an AST that differs from hclsyntax's, or any AST where
// hclsyntax reports errors; it returns whether this parser bailed.
func check(t testing.TB, name string, src []byte, start hcl.Pos) (bailed bool) {
	t.Helper()
	want, diags := hclsyntax.ParseConfig(src, name, start)
	got, ok := ParseBody(src, name, start)
	if !ok {
		if got != nil {
			t.Errorf("%s: bailed but returned a body", name)
		}
		return true
	}
	if diags.HasErrors() {
		t.Errorf("%s: hclsyntax reports %s, but no bail-out\n%s", name, diags.Error(), src)
		return false
	}
	if diff := compare(reflect.ValueOf(want.Body.(*hclsyntax.Body)), reflect.ValueOf(got), "body"); diff != "" {
		t.Errorf("%s: ASTs differ at %s\n--- text:\n%s", name, diff, src)
	}
	return false
}

var (
	operationType = reflect.TypeFor[*hclsyntax.Operation]()
	valueType     = reflect.TypeFor[cty.Value]()
	bigFloatType  = reflect.TypeFor[*big.Float]()
)

// readable returns v with read-only access lifted, so values behind
// unexported fields (a Body's hidden attributes) can be compared too.
func readable(v reflect.Value) reflect.Value {
	if v.CanInterface() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// compare walks a and b deeply and returns the path of the first
// difference, or "". Unlike reflect.DeepEqual it tells nil and empty
// slices and maps apart (hclsyntax makes both), compares cty values with
// RawEquals and numbers by value and precision, and operations by
// identity (hclsyntax's operators are package variables).
func compare(a, b reflect.Value, path string) string {
	a, b = readable(a), readable(b)
	if a.IsValid() != b.IsValid() {
		return path + ": one is invalid"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Type() {
	case operationType:
		if a.Pointer() != b.Pointer() {
			return path + ": different operation"
		}
		return ""
	case valueType:
		if a.CanInterface() && b.CanInterface() {
			va, vb := a.Interface().(cty.Value), b.Interface().(cty.Value)
			if !va.RawEquals(vb) {
				return fmt.Sprintf("%s: %#v vs %#v", path, va, vb)
			}
			if va.Type() == cty.Number && va.IsKnown() && !va.IsNull() {
				fa, fb := va.AsBigFloat(), vb.AsBigFloat()
				if fa.Prec() != fb.Prec() || fa.Text('g', -1) != fb.Text('g', -1) {
					return fmt.Sprintf("%s: number %v/%d vs %v/%d", path, fa, fa.Prec(), fb, fb.Prec())
				}
			}
			return ""
		}
	case bigFloatType:
		if a.CanInterface() && b.CanInterface() {
			fa, fb := a.Interface().(*big.Float), b.Interface().(*big.Float)
			if (fa == nil) != (fb == nil) || fa != nil && (fa.Cmp(fb) != 0 || fa.Prec() != fb.Prec()) {
				return path + ": big.Float differs"
			}
			return ""
		}
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() != b.IsNil() {
			return path + ": nil vs non-nil"
		}
		if a.IsNil() {
			return ""
		}
		return compare(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := compare(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil vs empty slice (%v, %v)", path, a.IsNil(), b.IsNil())
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := compare(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return path + ": nil vs empty map"
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d vs %d entries", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			vb := b.MapIndex(k)
			if !vb.IsValid() {
				return fmt.Sprintf("%s[%v]: missing", path, k)
			}
			if d := compare(a.MapIndex(k), vb, fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func:
		if a.IsNil() != b.IsNil() {
			return path + ": func nil vs non-nil"
		}
		return ""
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q vs %q", path, a.String(), b.String())
		}
		return ""
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Bool(), b.Bool())
		}
		return ""
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Int(), b.Int())
		}
		return ""
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Uint(), b.Uint())
		}
		return ""
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Float(), b.Float())
		}
		return ""
	}
	return fmt.Sprintf("%s: cannot compare kind %s", path, a.Kind())
}

// pieces cuts src as lang does for big files: runs of whole top-level
// items, each starting at a line start, of at least size bytes. It cuts
// where hclsyntax puts the items, so only parseable text is cut.
func pieces(src []byte, size int) (starts []int) {
	f, diags := hclsyntax.ParseConfig(src, "cut.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return []int{0}
	}
	body := f.Body.(*hclsyntax.Body)
	var items []int
	for _, b := range body.Blocks {
		items = append(items, b.TypeRange.Start.Byte)
	}
	for _, a := range body.Attributes {
		items = append(items, a.NameRange.Start.Byte)
	}
	starts = []int{0}
	for _, off := range items {
		ls := bytes.LastIndexByte(src[:off], '\n') + 1
		if ls-starts[len(starts)-1] >= size && ls > 0 {
			starts = append(starts, ls)
		}
	}
	// Attributes come from a map: keep the cuts in order.
	for i := 1; i < len(starts); i++ {
		for j := i; j > 0 && starts[j] < starts[j-1]; j-- {
			starts[j], starts[j-1] = starts[j-1], starts[j]
		}
	}
	return starts
}

// checkPieces checks every piece of src cut at size and returns how many
// pieces there were and how many bailed.
func checkPieces(t *testing.T, name string, src []byte, size int) (n, bailed int) {
	starts := pieces(src, size)
	pos := hcl.InitialPos
	for i, s := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if i > 0 {
			prev := src[starts[i-1]:s]
			pos.Line += bytes.Count(prev, []byte("\n"))
			pos.Byte = s
			pos.Column = 1
		}
		n++
		if check(t, fmt.Sprintf("%s@%d", name, s), src[s:end], pos) {
			bailed++
		}
	}
	return n, bailed
}

// corpus returns the configurations of the repository: examples, test
// data and the HCL blocks of the documentation.
func corpus(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	root := filepath.Join("..", "..")
	for _, dir := range []string{"examples", "testdata", "lang", "lint", "table", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".hcl") {
				return err
			}
			b, err := os.ReadFile(path)
			files[path] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	fence := regexp.MustCompile("(?s)```hcl\n(.*?)```")
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range fence.FindAllSubmatch(b, -1) {
			files[fmt.Sprintf("%s#%d", path, i)] = m[1]
		}
	}
	if len(files) < 40 {
		t.Fatalf("only %d configurations found", len(files))
	}
	return files
}

func largeConfig(t testing.TB, n int) []byte {
	var b bytes.Buffer
	if err := largecfg.Write(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLargeConfigs(t *testing.T) {
	for _, n := range []int{1, 7, 80, 400} {
		src := largeConfig(t, n)
		for _, size := range []int{0, 2 << 10, len(src) + 1} {
			pieces, bailed := checkPieces(t, fmt.Sprintf("large%d/%d", n, size), src, size)
			if bailed > 0 {
				t.Errorf("large config of %d tools, pieces of %d: %d of %d pieces bailed", n, size, bailed, pieces)
			}
		}
	}
}

func TestRepositoryConfigs(t *testing.T) {
	var files, pieces, bailed, whole, wholeBailed int
	for name, src := range corpus(t) {
		files++
		whole++
		if check(t, name, src, hcl.InitialPos) {
			wholeBailed++
			t.Logf("bailed (whole file): %s", name)
		}
		n, b := checkPieces(t, name, src, 0)
		pieces += n
		bailed += b
	}
	t.Logf("%d configurations: %d of %d whole files bailed; %d of %d top-level pieces bailed", files, wholeBailed, whole, bailed, pieces)
	if bailed*10 > pieces {
		t.Errorf("%d of %d pieces bailed: the common syntax should parse", bailed, pieces)
	}
}

// snippets are hand-written cases at the edges of what is handled (and
// some just beyond, which must bail).
var snippets = []string{
	"",
	"\n",
	"# only a comment",
	"# comment\n",
	"/* block */\n",
	"a = 1\n",
	"a = 1",
	"a = 1 # trailing\n",
	"a = 1 // trailing\n",
	"a = 1 /* inline */\n",
	"a = /* before */ 1\n",
	"a = 1 # no newline at the end",
	"  a = 1\n",
	"\ta\t=\t1\n",
	"a = 1.5\nb = 1e3\nc = 2.5E-3\nd = 0\ne = 007\n",
	"a = 1.\n",
	"a = 1..2\n",
	"a = 1.2.3\n",
	"a = true\nb = false\nc = null\n",
	"a = \"\"\n",
	"a = \"x\"\n",
	"a = \"a\\nb\\t\\\"q\\\" \\\\ \\u00e9 \\U0001F600\"\n",
	"a = \"bad \\q escape\"\n",
	"a = \"\\u12\"\n",
	"a = \"\\uD800\"\n",
	"a = \"$${x} %%{y} $ % $$ %% $x %x\"\n",
	"a = \"$\"\nb = \"%\"\n",
	"a = \"${x}\"\n",
	"a = \"${x}${y}\"\n",
	"a = \"pre ${x} post\"\n",
	"a = \"${ \"inner ${y}\" }\"\n",
	"a = \"${ {a = 1}.a }\"\n",
	"a = \"${x}}\"\n",
	"a = \"${~x}\"\n",
	"a = \"${x~}\"\n",
	"a = \"%{if x}y%{endif}\"\n",
	"a = \"caf\u00e9 \u2014 na\u00efve\"\nb = c\n",
	"a = \"cafe\u0301\"\nb = c\n",
	"a = \"\U0001F600\"\nb = c\n",
	"a = \"e\u0301\" # combining\n",
	"a = \"x\" # caf\u00e9\nb = 1\n",
	"a = \"unterminated\n",
	"a = x\n",
	"a = var.x\n",
	"a = args.a.b.c\n",
	"a = x[0]\n",
	"a = x[\"k\"]\n",
	"a = x[\"k${y}\"]\n",
	"a = x[y]\n",
	"a = x[-1]\n",
	"a = x[true][null]\n",
	"a = x.0\n",
	"a = x.0.1\n",
	"a = x.1e2\n",
	"a = x[0].y[1].z\n",
	"a = x[\n0\n]\n",
	"a = x.*.y\n",
	"a = x[*].y\n",
	"a = f()\n",
	"a = f(1)\n",
	"a = f(1, 2,)\n",
	"a = f(\n  1,\n  2\n)\n",
	"a = f(x...)\n",
	"a = f(x)[0].y\n",
	"a = ns::f(x)\n",
	"a = f (1)\n",
	"a = -1\n",
	"a = -x.y\n",
	"a = !x\n",
	"a = !!x\n",
	"a = - - 1\n",
	"a = 1 + 2 * 3 - 4 / 5 % 6\n",
	"a = x == y && z != w || !v\n",
	"a = a < b && c <= d || e > f && g >= h\n",
	"a = 1 - -2\n",
	"a = -46+5\n",
	"a = a || b || c && d && e\n",
	"a = x ? y : z\n",
	"a = x ? y : z ? w : v\n",
	"a = x ? y ? 1 : 2 : 3\n",
	"a = (x ? y : z) + 1\n",
	"a = (1)\n",
	"a = ((1 + 2) * 3)\n",
	"a = (\n  1 +\n  2\n)\n",
	"a = (1).x\n",
	"a = 1 +\n2\n",
	"a = x ?\ny : z\n",
	"a = []\n",
	"a = [1]\n",
	"a = [1, 2, 3]\n",
	"a = [1, 2, 3,]\n",
	"a = [\n  1,\n  2,\n]\n",
	"a = [\n  # comment\n  1, // two\n  2 /* three */\n]\n",
	"a = [1 2]\n",
	"a = [for x in y : x]\n",
	"a = {}\n",
	"a = { a = 1 }\n",
	"a = { a = 1, b = 2 }\n",
	"a = { a = 1, b = 2, }\n",
	"a = {\n  a = 1\n  b = 2\n}\n",
	"a = {\n  a = 1,\n  b = 2,\n}\n",
	"a = {\n\n  a = 1 # c\n\n  b = 2 // d\n}\n",
	"a = { \"k\" = 1, \"${x}\" = 2, (y) = 3, z.w = 4, 5 = 6 }\n",
	"a = { a: 1, b: 2 }\n",
	"a = { for k, v in x : k => v }\n",
	"a = { for = 1 }\n",
	"a = { a = 1 b = 2 }\n",
	"a = {a=1}.a\n",
	"a = [{ a = [1, { b = \"c\" }] }]\n",
	"a = <<EOT\nhello\nEOT\n",
	"a = <<EOT\nEOT\n",
	"a = <<EOT\nhello ${name}\n  world\nEOT\n",
	"a = <<EOT\n${x}\nEOT\n",
	"a = <<EOT\nline $${x} %%{y} $ %\n  EOT  \n",
	"a = <<-EOT\n    indented\n      more\n    EOT\n",
	"a = <<-EOT\n    indented\n\n      more\n    EOT\n",
	"a = <<-EOT\n    a\n  \n    b\n    EOT\n",
	"a = <<-EOT\n    ${x} a\n    b\n    EOT\n",
	"a = <<-EOT\n    a ${x}\n    b\n    EOT\n",
	"a = <<-EOT\n\t\ttab\n\t\tEOT\n",
	"a = <<-EOT\n    ${x}\n    EOT\n",
	"a = <<-EOT\n    a ${\n    x } b\n      c\n    EOT\n",
	"a = <<EOT\nno end\n",
	"a = <<EOT\nEOT",
	"a = <<EOT\nx\nEOTX\nEOT\n",
	"a = <<EOT\nx $\nEOT\n",
	"a = <<EOT\n%{ if x }y%{ endif }\nEOT\n",
	"a = <<EOT\r\nx\r\nEOT\r\n",
	"a = <<EOT\ncaf\u00e9\nEOT\nb = 1\n",
	"b {\n}\n",
	"b {}\n",
	"b \"l\" {}\n",
	"b l1 \"l2\" l3 {\n  a = 1\n}\n",
	"b \"a\\\"b\" {}\n",
	"b \"$${x}\" {}\n",
	"b \"${x}\" {}\n",
	"b \"\" {}\n",
	"b { a = 1 }\n",
	"b \"l\" { a = [1, 2] }\n",
	"b { a = 1, }\n",
	"b { c {} }\n",
	"b {\n  a = 1 }\n",
	"b { a = 1\n}\n",
	"b {\n  c {\n    d = 1\n  }\n}\n",
	"b {\n  a = 1\n  a = 2\n}\n",
	"a = 1\na = 2\n",
	"b {\n  a = 1\n}\nb {\n  a = 2\n}\n",
	"b\n{\n}\n",
	"b = {\n}\n",
	"\"a\" = 1\n",
	"a = 1 b = 2\n",
	"a = 1,\n",
	"b {} c {}\n",
	"a = x.\n",
	"a = \n1\n",
	"a = 1 ; b = 2\n",
	"a = `x`\n",
	"a = 'x'\n",
	"a = x & y\n",
	"a = x ~ y\n",
	"a = x ** y\n",
	"\xef\xbb\xbfa = 1\n",
	"a = \"\xff\"\n",
	"a = 1\r\n",
	"a\u00e9 = 1\n",
	"\u00e9 = 1\n",
	"b {\n  a = 1\n",
	"}\n",
	"a = (1\n",
	"a = [1\n",
	"a = f(1\n",
	"a = {a = 1\n",
	"a = x[\n",
	"a = 1 /* unterminated\n",
	"a = \"${\"\n",
	"a = \"${x\"\n",
	"a = \"${\n  x\n}\"\n",
	"a = f(<<EOT\nx\nEOT\n, 1)\n",
	"a = [<<EOT\nx\nEOT\n]\n",
	"a = { k = <<EOT\nx\nEOT\n}\n",
	"a = \"${<<EOT\nx\nEOT\n}\"\n",
	"a = <<EOT\n${<<INNER\ny\nINNER\n}\nEOT\n",
	"b \"x\" /* c */ {\n}\n",
	"/* c */ a = 1\n",
	"a = 1 /* multi\nline */ b = 2\n",
	"b { a = <<EOT\nx\nEOT\n}\n",
	"a = true(1)\nb = for\n",
	"a = \"tab\there\" + \"caf\u00e9\" # \u00e9\u00e9\nb = [\"\u2014\", x]\n",
	"a = <<EOT\n  caf\u00e9 ${x} \u2192 y\nEOT\nb = 1\n",
	"a = <<-EOT\n  \n  x\n EOT\n",
	"a = <<-EOT\n\n\n  EOT\n",
	"a = <<-EOT\n  $${x}\n    %%{y}\n  EOT\n",
	"a = <<-EOT\n  x $ y\n    z\n  EOT\n",
	"a = <<-EOT\n    ${x}${y}\n  z ${w}\n  EOT\n",
	"a = { (\"k\") = 1, \"k2\": 2 }\n",
	"a = x[0][\"k\"].y[z]\n",
	"a = f(x)[0]\n",
	"a = (x)[0]\n",
	"a = \"s\".x\n",
	"a = [1][0]\n",
	"a = {a = 1}[\"a\"]\n",
	"a = x ? { a = 1 } : [2]\n",
	"b \"\u2126 \u212b\" {\n  a = \"\u2126 \u212b \u037e\"\n  c = { \"\u2126\" = 1 }\n}\n",
	"a = a-b\n",
	"a = a - b\n",
	"a = 1-2\n",
	"a = a.b-c\n",
	"a = x[\"a\\nb\"]\n",
	"a = { \"a\\tb\" = 1 }\n",
	"a = \"\\\\${x}\"\n",
	"a = \"\\$${x}\"\n",
	"a = \"x $${\"\n",
	"a = \"$$${x}\"\n",
	"a = \"%%%{x}\"\n",
	"tool \"t\" {\n  description = \"d\"\n  arg \"a\" {\n    type = list(string)\n    enum = [\"x\", \"y\"]\n    validation {\n      condition = length(args.a) > 0 && args.a[0] != \"\"\n      error_message = \"e: ${args.a[0]}\"\n    }\n  }\n  http \"api\" {\n    method = \"GET\"\n    path   = \"/x/${args.a}\"\n    query  = { a = args.a, b = 1 }\n  }\n}\n",
}

func TestSnippets(t *testing.T) {
	bailed := 0
	for i, s := range snippets {
		for _, start := range []hcl.Pos{hcl.InitialPos, {Line: 17, Column: 1, Byte: 4242}} {
			if check(t, fmt.Sprintf("snippet%d", i), []byte(s), start) {
				bailed++
			}
		}
	}
	t.Logf("%d of %d snippet parses bailed", bailed, 2*len(snippets))
}

func FuzzSameAsHCLSyntax(f *testing.F) {
	for _, s := range snippets {
		f.Add([]byte(s))
	}
	for _, src := range corpus(f) {
		if len(src) < 4<<10 {
			f.Add(src)
		}
	}
	f.Add(largeConfig(f, 2))
	for seed := range uint64(40) {
		g := &gen{r: rand.New(rand.NewPCG(seed, 11))}
		g.body(0)
		f.Add([]byte(g.b.String()))
	}
	// A number with a long exponent (1e99999999) takes cty's parser,
	// which both parsers call, minutes and gigabytes: nothing of this
	// parser to test there.
	hugeExponent := regexp.MustCompile(`[eE][+-]?0*[1-9][0-9]{6}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		if hugeExponent.Match(src) {
			t.Skip("number with a huge exponent")
		}
		check(t, "fuzz.hcl", src, hcl.InitialPos)
		check(t, "fuzz.hcl", src, hcl.Pos{Line: 3, Column: 1, Byte: 77})
	})
}
