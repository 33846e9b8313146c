package rule

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// The number rule. JSON numbers have no size or precision, Go's have both:
// a number's text is read into an int or a float64 only when that value is
// the number as written, and is otherwise kept as a json.Number holding its
// digits, so that 12345678901234567.89 or an integer past 64 bits reaches
// the backend, the answer or the model unchanged.

// IsNumber reports whether s is a number in JSON syntax: an optional
// minus, digits without a leading zero, an optional fraction and an
// optional exponent.
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	i = skipDigits(s, i)
	if i == start || s[start] == '0' && i-start > 1 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if j := skipDigits(s, i); j == i {
			return false
		} else {
			i = j
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if j := skipDigits(s, i); j == i {
			return false
		} else {
			i = j
		}
	}
	return i == len(s)
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// Int returns the int a JSON integer literal (digits, with an optional
// minus; no fraction, no exponent) stands for, and false when text is not
// such a literal or its value does not fit in an int.
func Int(text string) (int, bool) {
	digits := strings.TrimPrefix(text, "-")
	if len(digits) == 0 || len(digits) > 18 {
		// More than 18 digits may or may not fit: let strconv decide.
		n, err := strconv.ParseInt(text, 10, 64)
		return int(n), err == nil && int64(int(n)) == n && plainInteger(text)
	}
	// At most 18 digits always fit in an int64: no overflow checks needed.
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) != len(text) {
		n = -n
	}
	return int(n), int64(int(n)) == n
}

// plainInteger reports whether text is an optional minus and digits only
// (strconv also takes a plus sign and underscores in some forms).
func plainInteger(text string) bool {
	digits := strings.TrimPrefix(text, "-")
	return digits != "" && skipDigits(digits, 0) == len(digits)
}

// ExactFloat returns the float64 nearest to a JSON number literal, and
// whether that float64 is the number as written: its shortest decimal form
// has the same value as text (0.1, 1e3 and 304.80 are exact; 0.1000000000000000001,
// 12345678901234567.89 and 1e400 are not). Text that is not a number gives
// false.
func ExactFloat(text string) (float64, bool) {
	if !IsNumber(text) {
		return 0, false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, sameDecimal(text, strconv.FormatFloat(f, 'g', -1, 64))
}

// Number reads a JSON number literal by the number rule: a float64 when
// that is the number as written ([ExactFloat]), else a json.Number holding
// text. Callers that want whole numbers as integers try [Int] first.
func Number(text string) any {
	if f, ok := ExactFloat(text); ok {
		return f
	}
	return json.Number(text)
}

// sameDecimal reports whether two number literals have the same value.
func sameDecimal(a, b string) bool {
	an, ad, ae := decimal(a)
	bn, bd, be := decimal(b)
	if ad == "" || bd == "" {
		return ad == bd // zero equals zero, whatever its sign
	}
	return an == bn && ad == bd && ae == be
}

// decimal splits a number literal into its sign, its significant digits
// (no leading or trailing zeros; "" for zero) and the power of ten of its
// first digit, so that equal values give equal parts. Exponents beyond any
// float64 are clamped: such a value never equals a float's form anyway.
func decimal(s string) (neg bool, digits string, exp int) {
	neg = strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mantissa, expText, _ := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mantissa, ".")
	all := whole + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	digits = strings.TrimRight(all[lead:], "0")
	if digits == "" {
		return neg, "", 0
	}
	e, err := strconv.Atoi(strings.TrimPrefix(expText, "+"))
	if err != nil && expText != "" {
		e = 1 << 30
		if strings.HasPrefix(expText, "-") {
			e = -e
		}
	}
	e = max(min(e, 1<<30), -(1 << 30))
	return neg, digits, len(whole) - lead + e
}
