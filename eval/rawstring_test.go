package eval

import (
	"reflect"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestRawStringLayout pins cty.Value's layout, which RawString relies on:
// if a cty release changes it, this fails (and RawString normalises, as
// cty.StringVal does, until it is looked at).
func TestRawStringLayout(t *testing.T) {
	if !rawStringOK {
		t.Fatalf("cty.Value is no longer struct { ty cty.Type; v any }: %v; RawString must be revisited", reflect.TypeOf(cty.Value{}))
	}
	for _, s := range []string{"", "plain", "e\u0301", "\u2126", "\uF900", "\u1100\u1161\u11A8", "\xff"} {
		v := RawString(s)
		if v.Type() != cty.String || !v.IsKnown() || v.IsNull() || v.AsString() != s {
			t.Errorf("RawString(%+q) = %#v", s, v)
		}
		if got := RawString(s).Equals(RawString(s)); !got.True() {
			t.Errorf("RawString(%+q) is not equal to itself", s)
		}
	}
	if !RawString("abc").RawEquals(cty.StringVal("abc")) {
		t.Error("RawString differs from cty.StringVal on a normalised string")
	}
	if cty.StringVal("e\u0301").AsString() == "e\u0301" {
		t.Error("cty.StringVal no longer normalises; RawString may not be needed any more")
	}
}

// TestSameLayout: the layout check tells a mirror from another struct.
func TestSameLayout(t *testing.T) {
	type other struct {
		v  any
		ty cty.Type
	}
	if sameLayout(reflect.TypeOf(cty.Value{}), reflect.TypeOf(other{})) {
		t.Error("fields in another order were taken for cty.Value's layout")
	}
}
