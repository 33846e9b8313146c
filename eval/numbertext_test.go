package eval

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// numberTextCases are numbers as cty makes them: parsed from text (512
// bits, as arguments and literals are), from Go integers and floats (64
// and 53 bits), and computed.
func numberTextCases(t testing.TB) []*big.Float {
	var out []*big.Float
	for _, s := range []string{
		"0", "1", "-1", "2", "10", "42", "-42", "99", "100", "1000", "123456", "-123456",
		"9007199254740991", "9007199254740992", "9007199254740993",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
		"1e21", "1e22", "1e23", "-1e21", "1e100", "1e300", "1e308", "1.7976931348623157e308", "1e309", "2e308",
		"2.5", "-2.5", "0.5", "0.25", "0.125", "1.5", "3.75", "0.1", "0.2", "0.3", "-0.1", "1.1", "2.675",
		"123.45", "99999999.99", "12345678901234567.89", "0.000001", "1e-7", "1.5e-10", "-1e-7",
		"3.141592653589793", "3.1415926535897932384626433832795028841971", "0.1000000000000000055511151231257827021181583404541015625",
		"1e-300", "5e-324", "2.2250738585072014e-308", "4.9406564584124654e-324", "1e-400", "1e-1000",
		"1234567890.0987654321", "0.30000000000000004", "100000000000000000000000", "4.35", "0.07",
		"12345678901234567", "1234567890123456789", "1.00000000000000000001", "17976931348623157e292",
	} {
		v, err := cty.ParseNumberVal(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		out = append(out, v.AsBigFloat())
	}
	for _, i := range []int64{0, 1, -1, 7, 100, 1 << 53, 1<<53 + 1, math.MaxInt64, math.MinInt64} {
		out = append(out, cty.NumberIntVal(i).AsBigFloat())
	}
	out = append(out, cty.NumberUIntVal(math.MaxUint64).AsBigFloat())
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 2.5, 1e21, 1e22, 1 << 60, 1<<60 + 1<<8, 1e300,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 123456.789, math.Pi} {
		out = append(out, cty.NumberFloatVal(f).AsBigFloat())
	}
	three, ten := cty.NumberIntVal(3), cty.MustParseNumberVal("10")
	out = append(out,
		cty.NumberIntVal(1).Divide(three).AsBigFloat(),
		cty.NumberIntVal(2).Divide(three).AsBigFloat(),
		cty.NumberIntVal(1).Divide(ten).AsBigFloat(),
		cty.NumberIntVal(1).Divide(ten).Multiply(three).AsBigFloat(),
		cty.MustParseNumberVal("0.1").Add(cty.MustParseNumberVal("0.2")).AsBigFloat(),
		cty.MustParseNumberVal("-5").Negate().AsBigFloat(),
		cty.MustParseNumberVal("0").Negate().AsBigFloat(),
		cty.PositiveInfinity.AsBigFloat(), cty.NegativeInfinity.AsBigFloat(),
	)
	negZero := new(big.Float).SetPrec(512).Neg(new(big.Float))
	out = append(out, negZero, new(big.Float).SetPrec(512).SetInf(true))
	// Low and odd precisions: a whole number past them is not its digits.
	for _, prec := range []uint{1, 8, 24, 53, 63, 64, 65, 100, 1000} {
		for _, s := range []string{"1", "1000", "1152921504606846976", "123456789", "2.5", "0.1", "1e21", "-7", "9223372036854775807"} {
			f, _, err := big.ParseFloat(s, 10, prec, big.ToNearestEven)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, f)
		}
	}
	return out
}

// TestFloatTextMatchesBigFloat requires the exact text of big.Float.Text
// ('f', -1), which cty and HCL use, for every case.
func TestFloatTextMatchesBigFloat(t *testing.T) {
	for _, f := range numberTextCases(t) {
		want := f.Text('f', -1)
		if got := FloatText(f); got != want {
			t.Errorf("FloatText(%s at %d bits) = %q, want %q", f.Text('g', 30), f.Prec(), got, want)
		}
	}
	if got, want := NumberText(cty.MustParseNumberVal("1e21")), "1000000000000000000000"; got != want {
		t.Errorf("NumberText(1e21) = %q, want %q", got, want)
	}
}

// TestFloatTextRandom compares FloatText with big.Float.Text over random
// whole numbers, float64 bit patterns and decimal texts, as parsed at
// cty's 512 bits and at the float's own precision.
func TestFloatTextRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	check := func(f *big.Float) {
		t.Helper()
		if got, want := FloatText(f), f.Text('f', -1); got != want {
			t.Fatalf("FloatText(%s at %d bits) = %q, want %q", f.Text('g', 40), f.Prec(), got, want)
		}
	}
	parse := func(s string, prec uint) *big.Float {
		f, _, err := big.ParseFloat(s, 10, prec, big.ToNearestEven)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return f
	}
	for range n {
		i := int64(rng.Uint64()) >> rng.IntN(64)
		check(cty.NumberIntVal(i).AsBigFloat())
		check(parse(strconv.FormatInt(i, 10), 512))

		x := math.Float64frombits(rng.Uint64())
		if math.IsNaN(x) {
			continue
		}
		check(new(big.Float).SetFloat64(x))
		check(new(big.Float).SetPrec(512).SetFloat64(x))
		g := strconv.FormatFloat(x, 'g', -1, 64)
		check(parse(g, 512))
		check(parse(g, 64))

		// Short decimals, as people write them: 1 to 20 digits, a point
		// somewhere or an exponent.
		digits := strconv.FormatUint(rng.Uint64()%uint64(math.Pow10(1+rng.IntN(19))), 10)
		dec := digits
		if p := rng.IntN(len(digits) + 1); p < len(digits) {
			dec = digits[:p] + "." + digits[p:]
		}
		if rng.IntN(4) == 0 {
			dec += "e" + strconv.Itoa(rng.IntN(80)-40)
		}
		check(parse(dec, 512))
		check(parse("-"+dec, 512))
	}
}

// FuzzFloatText compares FloatText with big.Float.Text for any number
// text at any precision.
func FuzzFloatText(f *testing.F) {
	for _, s := range []string{"42", "2.5", "0.1", "1e21", "-0", "9223372036854775808", "1e-320", "123.456e7"} {
		f.Add(s, uint(512))
	}
	f.Add("1152921504606846976", uint(53))
	f.Fuzz(func(t *testing.T, s string, prec uint) {
		prec = 1 + prec%2048
		x, _, err := big.ParseFloat(s, 10, prec, big.ToNearestEven)
		if err != nil || len(s) > 400 {
			return
		}
		if got, want := FloatText(x), x.Text('f', -1); got != want {
			t.Errorf("FloatText(%q at %d bits) = %q, want %q", s, prec, got, want)
		}
	})
}

// TestFloatTextShortcuts checks that the usual numbers of a call, whole
// ones and short exact fractions, do not go through big.Float's shortest
// decimal search, which allocates some twenty times (the shortcuts at most ten).
func TestFloatTextShortcuts(t *testing.T) {
	for _, s := range []string{"123456", "-77", "2.5", "0.1", "19.99"} {
		f := cty.MustParseNumberVal(s).AsBigFloat()
		if n := testing.AllocsPerRun(100, func() { FloatText(f) }); n > 12 {
			t.Errorf("FloatText(%s) allocates %v times; the shortcut was not taken", s, n)
		}
	}
}

// TestNumbersInTemplatesMatchHCL evaluates templates and JSON bodies with
// the numbers above, through the fast path and through HCL and cty.
func TestNumbersInTemplatesMatchHCL(t *testing.T) {
	tmpl, diags := hclsyntax.ParseTemplate([]byte("/items/${args.n}/x"), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	body, diags := hclsyntax.ParseExpression([]byte("{ n = args.n + 0, m = [args.n * 1] }"), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, f := range numberTextCases(t) {
		n := cty.NumberVal(f)
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"args": cty.ObjectVal(map[string]cty.Value{"n": n})}}
		want, wantDiags := tmpl.Value(ctx)
		got, gotDiags := Value(tmpl, ctx)
		if wantDiags.HasErrors() != gotDiags.HasErrors() || !got.RawEquals(want) {
			t.Errorf("template with %s: got %#v (%v), HCL gives %#v (%v)", f.Text('g', 20), got, gotDiags, want, wantDiags)
		}
		if s, err := PartString(n); err != nil || s != f.Text('f', -1) {
			t.Errorf("PartString(%s) = %q, %v; want %q", f.Text('g', 20), s, err, f.Text('f', -1))
		}
		value := func(e hcl.Expression) (cty.Value, error) {
			v, d := e.Value(ctx)
			if d.HasErrors() {
				return cty.NilVal, d
			}
			return v, nil
		}
		gotJSON, gotErr := JSONText(body, nil, value)
		v, _ := value(body)
		wantJSON, wantErr := ctyjson.Marshal(v, v.Type())
		if (gotErr == nil) != (wantErr == nil) || gotErr == nil && string(gotJSON) != string(wantJSON) {
			t.Errorf("JSON body with %s = %s, %v; cty writes %s, %v", f.Text('g', 20), gotJSON, gotErr, wantJSON, wantErr)
		}
	}
}

// BenchmarkNumberText compares FloatText with big.Float.Text on numbers
// as arguments bring them (512 bits).
func BenchmarkNumberText(b *testing.B) {
	for _, s := range []string{"42", "123456", "2.5", "0.1"} {
		f := cty.MustParseNumberVal(s).AsBigFloat()
		b.Run(s+"/FloatText", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FloatText(f)
			}
		})
		b.Run(s+"/big.Float.Text", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f.Text('f', -1)
			}
		})
	}
}
