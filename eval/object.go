package eval

import (
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// ObjectOfType is cty.ObjectVal(attrs) for attributes known to have the
// types of ty, an object type without optional attributes: the value
// reuses ty instead of deriving the type again (ObjectVal builds a map of
// types and a new object type, and normalises every name, on each call).
// ok is false, and nothing is built, when an attribute's name or type is
// not ty's or the layout of cty.Value is not the one this relies on; the
// caller then uses cty.ObjectVal.
func ObjectOfType(ty cty.Type, attrs map[string]cty.Value) (v cty.Value, ok bool) {
	if !rawStringOK || !ty.IsObjectType() {
		return cty.NilVal, false
	}
	types := ty.AttributeTypes()
	if len(types) != len(attrs) || len(ty.OptionalAttributes()) > 0 {
		return cty.NilVal, false
	}
	for name, val := range attrs {
		want, found := types[name] // its names are normalised, so name is too
		if !found || !sameType(val.Type(), want) {
			return cty.NilVal, false
		}
	}
	raw := make(map[string]any, len(attrs))
	for name, val := range attrs {
		raw[name] = (*ctyValueLayout)(unsafe.Pointer(&val)).v
	}
	obj := ctyValueLayout{ty: ty, v: raw}
	return *(*cty.Value)(unsafe.Pointer(&obj)), true
}

func sameType(got, want cty.Type) bool {
	if want.IsPrimitiveType() {
		return got == want
	}
	return got.Equals(want)
}

// attrOf is val.GetAttr(name) for a known, non-null, unmarked object val,
// without the three Unicode normalisations of name that GetAttr makes on
// each call (an ASCII name is its own normal form, and the names of an
// object type are normalised). ok is false, and the caller asks GetAttr,
// when name is not ASCII or not an attribute of val, or when the layout of
// cty.Value is not the one this relies on.
func attrOf(val cty.Value, name string) (cty.Value, bool) {
	if !rawStringOK || !isASCII(name) {
		return cty.NilVal, false
	}
	ty, found := val.Type().AttributeTypes()[name]
	if !found {
		return cty.NilVal, false
	}
	attrs, isMap := (*ctyValueLayout)(unsafe.Pointer(&val)).v.(map[string]any)
	if !isMap {
		return cty.NilVal, false
	}
	out := ctyValueLayout{ty: ty, v: attrs[name]}
	return *(*cty.Value)(unsafe.Pointer(&out)), true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
