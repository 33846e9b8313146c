package rule

import (
	"encoding/json"
	"math"
	"testing"
)

func TestIsNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "-12", "1.5", "0.25", "1e3", "1E+3", "2.5e-7", "12345678901234567890123"} {
		if !IsNumber(s) {
			t.Errorf("IsNumber(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "-", "+1", "01", "1.", ".5", "1e", "1e+", "0x10", "1_000", "NaN", "Inf", " 1", "1 ", "1.5.2"} {
		if IsNumber(s) {
			t.Errorf("IsNumber(%q) = true, want false", s)
		}
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		text string
		want int
		ok   bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"42", 42, true},
		{"-42", -42, true},
		{"999999999999999999", 999999999999999999, true}, // 18 digits
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"123456789012345678901234", 0, false},
		{"1.0", 0, false},
		{"1e3", 0, false},
		{"+1", 0, false},
		{"+1234567890123456789", 0, false},
		{"", 0, false},
		{"-", 0, false},
		{"12a", 0, false},
	}
	for _, tt := range tests {
		got, ok := Int(tt.text)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("Int(%q) = %d, %v; want %d, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

func TestExactFloat(t *testing.T) {
	tests := []struct {
		text  string
		want  float64
		exact bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"1.5", 1.5, true},
		{"0.1", 0.1, true},
		{"304.80", 304.8, true},
		{"1e3", 1000, true},
		{"2.5E-7", 2.5e-7, true},
		{"1e21", 1e21, true},
		{"9007199254740993", 0, false}, // 2^53+1: the nearest double is 2^53
		{"12345678901234567.89", 0, false},
		{"0.1000000000000000001", 0, false},
		{"1e400", 0, false},  // beyond float64
		{"1e-400", 0, false}, // below the smallest double: would read as 0
		{"0e999999999999", 0, true},
		{"not a number", 0, false},
		{"0x10", 0, false},
		{"Inf", 0, false},
	}
	for _, tt := range tests {
		got, exact := ExactFloat(tt.text)
		if exact != tt.exact || exact && got != tt.want {
			t.Errorf("ExactFloat(%q) = %v, %v; want %v, %v", tt.text, got, exact, tt.want, tt.exact)
		}
	}
}

func TestNumber(t *testing.T) {
	tests := []struct {
		text string
		want any
	}{
		{"1.5", 1.5},
		{"42", 42.0},
		{"304.80", 304.8},
		{"12345678901234567.89", json.Number("12345678901234567.89")},
		{"123456789012345678901234", json.Number("123456789012345678901234")},
		{"1e400", json.Number("1e400")},
	}
	for _, tt := range tests {
		if got := Number(tt.text); got != tt.want {
			t.Errorf("Number(%q) = %#v, want %#v", tt.text, got, tt.want)
		}
	}
}
