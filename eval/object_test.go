package eval

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestObjectOfType checks that the object built on a known type is the
// one cty.ObjectVal builds, and that anything else is left to ObjectVal.
func TestObjectOfType(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "n": cty.Number, "l": cty.List(cty.String), "b": cty.Bool})
	attrs := map[string]cty.Value{
		"s": RawString("e\u0301"), "n": cty.NumberIntVal(7), "l": cty.ListVal([]cty.Value{cty.StringVal("x")}),
		"b": cty.NullVal(cty.Bool),
	}
	got, ok := ObjectOfType(ty, attrs)
	if !ok {
		t.Fatal("not built")
	}
	want := cty.ObjectVal(attrs)
	if !got.Type().Equals(want.Type()) || !got.RawEquals(want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
	if got.GetAttr("s").AsString() != "e\u0301" {
		t.Fatal("the string was changed")
	}
	for name, a := range map[string]map[string]cty.Value{
		"other type": {"s": cty.NumberIntVal(1), "n": cty.NumberIntVal(7), "l": cty.ListValEmpty(cty.String), "b": cty.True},
		"missing":    {"s": cty.StringVal("x"), "n": cty.NumberIntVal(7), "l": cty.ListValEmpty(cty.String)},
		"other name": {"S": cty.StringVal("x"), "n": cty.NumberIntVal(7), "l": cty.ListValEmpty(cty.String), "b": cty.True},
	} {
		if _, ok := ObjectOfType(ty, a); ok {
			t.Errorf("%s: built", name)
		}
	}
	if _, ok := ObjectOfType(cty.ObjectWithOptionalAttrs(map[string]cty.Type{"s": cty.String}, []string{"s"}), map[string]cty.Value{"s": cty.StringVal("x")}); ok {
		t.Error("optional attributes: built")
	}
	if _, ok := ObjectOfType(cty.Object(map[string]cty.Type{"d": cty.DynamicPseudoType}), map[string]cty.Value{"d": cty.StringVal("x")}); ok {
		t.Error("dynamic attribute: built")
	}
}

// TestAttrOfMatchesGetAttr: the direct attribute read gives what GetAttr
// gives, for known, null and unknown attributes, and leaves names that are
// not ASCII or not attributes to GetAttr.
func TestAttrOfMatchesGetAttr(t *testing.T) {
	obj := cty.ObjectVal(map[string]cty.Value{
		"text": cty.StringVal("hi"), "none": cty.NullVal(cty.Number), "later": cty.UnknownVal(cty.Bool),
		"nested": cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1)}), "café": cty.True,
	})
	for _, name := range []string{"text", "none", "later", "nested"} {
		got, ok := attrOf(obj, name)
		if !ok || !got.RawEquals(obj.GetAttr(name)) {
			t.Errorf("attrOf(%s) = %#v, %v; GetAttr gives %#v", name, got, ok, obj.GetAttr(name))
		}
	}
	for _, name := range []string{"café", "missing"} {
		if _, ok := attrOf(obj, name); ok {
			t.Errorf("attrOf(%s) answered; it must leave the name to GetAttr", name)
		}
	}
}
