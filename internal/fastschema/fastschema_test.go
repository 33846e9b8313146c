package fastschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchemaDoc compiles doc with the schema library as the table's
// compiler does (2020-12, formats asserted) and returns the document as
// the library read it (numbers as json.Number).
func compileSchemaDoc(url string, doc map[string]any) (*jsonschema.Schema, any, error) {
	// Round-trip through JSON so numbers have the types the compiler expects.
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return nil, nil, err
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.AssertFormat()
	if err := comp.AddResource(url, v); err != nil {
		return nil, nil, err
	}
	s, err := comp.Compile(url)
	return s, v, err
}

// parseArgs decodes a JSON text with numbers as json.Number, as calls
// decode arguments.
func parseArgs(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// TestFastSchemaLeavesOtherKeywords: a schema part outside the subset
// sends what reaches it to the library, and only that.
func TestFastSchemaLeavesOtherKeywords(t *testing.T) {
	doc := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"plain": map[string]any{"type": "string"},
			"ref":   map[string]any{"$ref": "#/$defs/x"},
			"any":   map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}},
			"odd":   map[string]any{"type": "string", "unknownKeyword": 1},
			"ext":   map[string]any{"type": "string", "x-mcp-header": "Ext"},
		},
		"$defs": map[string]any{"x": map[string]any{"type": "integer"}},
	}
	lib, read, err := compileSchemaDoc("mcpdecl:test.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	fast := Compile(read, lib)
	for v, want := range map[string]bool{
		`{"plain":"a"}`: true, `{"ext":"a"}`: true, `{"ref":1}`: false, `{"any":"a"}`: false, `{"odd":"a"}`: false,
	} {
		value, _ := parseArgs(json.RawMessage(v))
		if got := fast.Accepts(value); got != want {
			t.Errorf("%s: accepts = %v, want %v", v, got, want)
		}
	}
	for _, d := range []map[string]any{
		{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
		{"type": "object", "$id": "https://example.com/s"},
		{"type": "object", "allOf": []any{map[string]any{"required": []any{"a"}}}},
	} {
		lib, read, err := compileSchemaDoc("mcpdecl:test.json", d)
		if err != nil {
			t.Fatal(err)
		}
		if Compile(read, lib).Accepts(map[string]any{}) {
			t.Errorf("%s: the fast checker answers for it", asJSON(d))
		}
	}
}

// TestDecimalMatchesBigRat compares the checker's numbers with the exact
// rationals the library computes, over literals of every notation.
func TestDecimalMatchesBigRat(t *testing.T) {
	literals := []string{"0", "-0", "0.0", "0e5", "1", "-1", "1.0", "10", "1e1", "100e-2", "0.1", "0.10", "1E-1",
		"2.5", "-2.5", "1e20", "1e-20", "123456789012345678", "9223372036854775807", "-9223372036854775808",
		"18446744073709551615", "1234567890123456789", "0.0000001234567890123456789", "99999999999999999.99",
		"7.5", "0.01", "0.03", "1e400", "3", "1.5e+3", "150e1", "5e-324", "1.7976931348623157e308"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		literals = append(literals, randomLiteral(r))
	}
	for _, a := range literals {
		da, ok := parseDecimal(a)
		ra := ratOf(t, a)
		if !ok {
			if digitsIn(a) <= maxDecimalDigits {
				t.Errorf("%s: not read", a)
			}
			continue
		}
		if decimalRat(da).Cmp(ra) != 0 {
			t.Fatalf("%s read as %v", a, da)
		}
		if da.isInteger() != ra.IsInt() {
			t.Errorf("%s: isInteger = %v", a, da.isInteger())
		}
		for _, b := range literals {
			db, ok := parseDecimal(b)
			if !ok {
				continue
			}
			rb := ratOf(t, b)
			if got, want := da.cmp(db), ra.Cmp(rb); got != want {
				t.Fatalf("cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
			if rb.Sign() > 0 {
				want := new(big.Rat).Quo(ra, rb).IsInt()
				if got := da.multipleOf(db); got != want {
					t.Fatalf("%s multipleOf %s = %v, want %v", a, b, got, want)
				}
			}
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1_000", "NaN", "1.5.2", "--1", "1e5e5"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("%q read as a number", bad)
		}
	}
}

// TestDecimalOfGoNumbers: a float64 is read as the library reads it (its
// fmt form), integers exactly.
func TestDecimalOfGoNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	values := []any{0.1, 1e21, 1e-7, -0.0, 123456789.0, 5e-324, 1.7976931348623157e308, int64(-9223372036854775808), 42, int64(1000)}
	for range 200 {
		values = append(values, r.NormFloat64()*1e6, float64(r.Int64()), r.Int64()-r.Int64())
	}
	for _, v := range values {
		d, ok := decimalOf(v)
		if !ok {
			t.Fatalf("%v: not read", v)
		}
		want, _ := new(big.Rat).SetString(fmt.Sprint(v))
		if decimalRat(d).Cmp(want) != 0 {
			t.Errorf("%v read as %v, want %v", v, decimalRat(d), want)
		}
	}
}

func randomLiteral(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	digits := 1 + r.IntN(24)
	for i := range digits {
		d := byte('0' + r.IntN(10))
		if i == 0 && digits > 1 && d == '0' {
			d = '1'
		}
		if r.IntN(3) == 0 {
			d = '0' // runs of zeros, where trailing ones hide
		}
		if i == 0 && digits > 1 && d == '0' {
			d = '5'
		}
		b.WriteByte(d)
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		for range 1 + r.IntN(8) {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "e%d", r.IntN(60)-30)
	}
	return b.String()
}

func ratOf(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat cannot read %s", s)
	}
	return r
}

func decimalRat(d decimal) *big.Rat {
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(d.mant), big.NewInt(1))
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(d.exp))), nil)
	if d.exp >= 0 {
		r.Mul(r, new(big.Rat).SetInt(p))
	} else {
		r.Quo(r, new(big.Rat).SetInt(p))
	}
	if d.neg {
		r.Neg(r)
	}
	return r
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// digitsIn counts a literal's significant digits.
func digitsIn(s string) int {
	mantissa, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(s, "-")), "e")
	digits := strings.Trim(strings.Replace(mantissa, ".", "", 1), "0")
	return len(digits)
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
