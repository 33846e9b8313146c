package sqladapter

import (
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// oldGoNumber is how goValue converted a number before its formatting
// went through eval.FloatText: big.Float's own shortest decimals.
func oldGoNumber(v cty.Value) any {
	bf := v.AsBigFloat()
	if bf.IsInt() {
		if i, acc := bf.Int64(); acc == big.Exact {
			return i
		}
		return bf.Text('f', 0)
	}
	f, _ := bf.Float64()
	text := bf.Text('g', -1)
	if !math.IsInf(f, 0) && strconv.FormatFloat(f, 'g', -1, 64) == text {
		return f
	}
	return bf.Text('f', -1)
}

// TestGoValueNumbers binds many numbers, as arguments arrive (parsed at
// 512 bits) and as Go values make them, and requires the same driver
// argument as big.Float's formatting gives, down to the type.
func TestGoValueNumbers(t *testing.T) {
	var vals []cty.Value
	for _, s := range []string{"0", "7", "2.5", "0.1", "0.3", "1e21", "1e23", "1e308", "1e-7", "5e-324", "1e-400",
		"9223372036854775807", "9223372036854775808", "123456789012345678901234567890", "0.1000000000000000000001",
		"19.99", "99999999.99", "12345678901234567.89", "3.141592653589793", "3.14159265358979323846", "1.5e300"} {
		vals = append(vals, cty.MustParseNumberVal(s), cty.MustParseNumberVal("-"+s))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		x := math.Float64frombits(rng.Uint64())
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		vals = append(vals, cty.NumberFloatVal(x), cty.MustParseNumberVal(strconv.FormatFloat(x, 'g', -1, 64)),
			cty.MustParseNumberVal(strconv.FormatFloat(x, 'g', 1+rng.IntN(20), 64)))
	}
	for _, v := range vals {
		got, err := goValue(v)
		if want := oldGoNumber(v); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("goValue(%s) = %#v (%T), %v; want %#v (%T)", v.AsBigFloat().Text('g', 30), got, got, err, want, want)
		}
	}
}
