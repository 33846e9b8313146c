package eval

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// NumberText is the text of a known, non-null number as cty and HCL write
// it (v.AsBigFloat().Text('f', -1): 42, 2.5, 0.1, -0,
// 1000000000000000000000), computed without big.Float's shortest-decimal
// search where a cheaper way gives the same text. That search on cty's
// 512-bit numbers costs tens of microseconds, for every number put into
// a URL, a header or a template.
func NumberText(v cty.Value) string {
	return FloatText(v.AsBigFloat())
}

// FloatText returns f.Text('f', -1), the shortest decimal that rounds to f
// at f's precision, in plain notation.
//
// Two shortcuts give that text exactly:
//
//   - A whole number whose binary exponent is at most f's precision has no
//     other whole number within half a unit in the last place of it, so its
//     shortest decimal is its own digits: strconv.FormatInt when it fits
//     an int64 (negative zero, "-0", is left to Text).
//   - With a precision of 64 bits or more, a rounding interval is narrower,
//     relative to f, than the distance between any two decimals of at most
//     17 significant digits. So when the shortest decimal s of the float64
//     nearest f (at most 17 digits) rounds back to f at f's precision, s is
//     the one decimal of that length in the interval, and the shortest.
//
// Anything else (big or very small numbers, 0.1 computed as 1/10 and then
// multiplied, low precisions) takes big.Float's own way.
func FloatText(f *big.Float) string {
	if f.IsInt() && !(f.Sign() == 0 && f.Signbit()) && f.MantExp(nil) <= int(f.Prec()) {
		if i, acc := f.Int64(); acc == big.Exact {
			return strconv.FormatInt(i, 10)
		}
	}
	if f.Prec() >= 64 && !f.IsInf() && f.Sign() != 0 {
		if s, ok := nearestFloat64Text(f); ok {
			return s
		}
	}
	return f.Text('f', -1)
}

// nearestFloat64Text returns the shortest decimal of the float64 nearest
// f, in plain notation, when it rounds back to f at f's precision.
func nearestFloat64Text(f *big.Float) (string, bool) {
	x, acc := f.Float64()
	if x == 0 || math.IsInf(x, 0) {
		return "", false
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if k := fractionBits(x); acc == big.Exact && k > 0 && fractionDigits(s) == k {
		return s, true // s is x exactly: 2.5, 0.125
	}
	back, _, err := big.ParseFloat(s, 10, f.Prec(), big.ToNearestEven)
	if err != nil || back.Cmp(f) != 0 {
		return "", false
	}
	return s, true
}

// fractionBits is the number of binary digits after the point of x (0
// for a whole number), which is also the number of decimal digits after
// the point of its exact decimal form: x = m / 2^k = m*5^k / 10^k, with m
// odd, so the last of the k digits is a 5. A shortest decimal with that
// many digits after the point is x itself, as it lies within half a unit
// in the last place (at most 2^-(k+1)) of x.
func fractionBits(x float64) int {
	b := math.Float64bits(x)
	mant, exp := b&(1<<52-1), int(b>>52&0x7ff)
	if exp == 0 {
		exp = 1 // subnormal: no implicit leading bit
	} else {
		mant |= 1 << 52
	}
	e := exp - 1075 + bits.TrailingZeros64(mant)
	return max(-e, 0)
}

// fractionDigits is the number of digits after the point of a plain
// decimal.
func fractionDigits(s string) int {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}
