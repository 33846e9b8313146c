package fastschema

import (
	"encoding/json"
	"math"
	"math/bits"
	"strconv"
)

// decimal is the exact value of a JSON number, mant × 10^exp, for the
// numbers of at most maxDecimalDigits significant digits (all an int64
// or a float64's shortest form holds). mant has no trailing zero; zero is
// the zero decimal. It lets the fast schema checker compare numbers
// exactly, as the library does with big.Rat, without allocating.
type decimal struct {
	neg  bool
	mant uint64
	exp  int
}

const (
	// maxDecimalDigits fits any mantissa in a uint64 (10^19 < 2^64).
	maxDecimalDigits = 19
	// maxDecimalExponent bounds the exponent read; larger ones are left
	// to the library (the absurd-number check refuses them before).
	maxDecimalExponent = 100000
	// maxMultipleShift bounds the steps of a multipleOf test.
	maxMultipleShift = 2000
)

var powersOf10 = [maxDecimalDigits + 1]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// decimalOf reads a number of a decoded JSON value; false for a value
// that is not one, or holds too many digits.
func decimalOf(v any) (decimal, bool) {
	switch x := v.(type) {
	case json.Number:
		return parseDecimal(string(x))
	case int64:
		return decimalOfInt(x), true
	case int:
		return decimalOfInt(int64(x)), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return decimal{}, false
		}
		// The library reads a float64 as fmt prints it: its shortest
		// decimal form, which this is.
		var buf [32]byte
		return parseDecimal(strconv.AppendFloat(buf[:0], x, 'g', -1, 64))
	}
	return decimal{}, false
}

func decimalOfInt(i int64) decimal {
	d := decimal{neg: i < 0, mant: uint64(i)}
	if d.neg {
		d.mant = -d.mant // two's complement: right for math.MinInt64 too
	}
	for d.mant != 0 && d.mant%10 == 0 {
		d.mant /= 10
		d.exp++
	}
	return d
}

// digitAccumulator gathers significant digits, holding back zeros until
// a nonzero digit follows them, so mant never ends in a zero.
type digitAccumulator struct {
	mant          uint64
	digits, zeros int
}

func (a *digitAccumulator) add(c byte) bool {
	if c == '0' {
		if a.digits > 0 {
			a.zeros++
		}
		return true
	}
	if a.digits+a.zeros+1 > maxDecimalDigits {
		return false
	}
	for ; a.zeros > 0; a.zeros-- {
		a.mant *= 10
		a.digits++
	}
	a.mant = a.mant*10 + uint64(c-'0')
	a.digits++
	return true
}

// parseDecimal reads a JSON number literal (the grammar of RFC 8259
// exactly); false for anything else or too many significant digits.
func parseDecimal[T string | []byte](s T) (decimal, bool) {
	var d decimal
	var acc digitAccumulator
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for ; i < len(s) && isDigit(s[i]); i++ {
		if !acc.add(s[i]) {
			return d, false
		}
	}
	if i == start || i-start > 1 && s[start] == '0' {
		return d, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for ; i < len(s) && isDigit(s[i]); i++ {
			if !acc.add(s[i]) {
				return d, false
			}
			d.exp--
		}
		if i == start {
			return d, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		e, n, ok := parseExponent(s[i+1:])
		if !ok {
			return d, false
		}
		d.exp += e
		i += 1 + n
	}
	if i != len(s) {
		return d, false
	}
	if acc.digits == 0 {
		return decimal{}, true
	}
	d.mant, d.exp = acc.mant, d.exp+acc.zeros
	return d, true
}

// parseExponent reads an exponent's optional sign and digits; n is the
// count of bytes read.
func parseExponent[T string | []byte](s T) (e, n int, ok bool) {
	neg := false
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		neg = s[n] == '-'
		n++
	}
	start := n
	for ; n < len(s) && isDigit(s[n]); n++ {
		if e > maxDecimalExponent {
			return 0, 0, false
		}
		e = e*10 + int(s[n]-'0')
	}
	if n == start {
		return 0, 0, false
	}
	if neg {
		e = -e
	}
	return e, n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (d decimal) sign() int {
	switch {
	case d.mant == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

func (d decimal) isInteger() bool { return d.mant == 0 || d.exp >= 0 }

// cmp compares two values exactly: -1, 0 or +1.
func (d decimal) cmp(o decimal) int {
	sd, so := d.sign(), o.sign()
	switch {
	case sd < so:
		return -1
	case sd > so:
		return 1
	case sd == 0:
		return 0
	}
	return sd * d.cmpMagnitude(o)
}

func (d decimal) cmpMagnitude(o decimal) int {
	nd, no := decimalDigits(d.mant), decimalDigits(o.mant)
	// The order of magnitude first: 10^(n+exp-1) ≤ value < 10^(n+exp).
	if od, oo := nd+d.exp, no+o.exp; od != oo {
		if od < oo {
			return -1
		}
		return 1
	}
	// Same order: the mantissas scaled to the same count of digits.
	a, b := d.mant, o.mant
	if nd < no {
		a *= powersOf10[no-nd]
	} else {
		b *= powersOf10[nd-no]
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func decimalDigits(m uint64) int {
	n := 1
	for n < len(powersOf10) && m >= powersOf10[n] {
		n++
	}
	return n
}

// multipleOf says whether d / m is an integer (m > 0); false also when
// the test would take too many steps.
func (d decimal) multipleOf(m decimal) bool {
	if d.mant == 0 {
		return true
	}
	shift := d.exp - m.exp
	if shift >= 0 {
		// d.mant × 10^shift mod m.mant, one factor of 10 at a time.
		if shift > maxMultipleShift {
			return false
		}
		r := d.mant % m.mant
		for ; shift > 0 && r != 0; shift-- {
			hi, lo := bits.Mul64(r, 10)
			r = bits.Rem64(hi, lo, m.mant)
		}
		return r == 0
	}
	// d.mant mod (m.mant × 10^-shift); a divisor past 2^64 is larger than
	// d.mant, which is then no multiple of it.
	div := m.mant
	for ; shift < 0; shift++ {
		hi, lo := bits.Mul64(div, 10)
		if hi != 0 {
			return false
		}
		div = lo
	}
	return d.mant%div == 0
}
