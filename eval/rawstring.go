package eval

import (
	"reflect"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// RawString is a cty string holding exactly s. cty.StringVal normalises
// every string to Unicode NFC, which changes what a client sent ("e" and a
// combining accent become "é", the ohm sign becomes omega, Hangul jamo are
// composed): arguments and the templates built from them must reach the
// backend byte for byte. cty has no constructor that keeps the bytes, so
// this one builds the value the way StringVal does, minus the
// normalisation, through a copy of cty.Value's layout. rawStringOK checks
// that layout once; should a cty release change it, RawString falls back
// to cty.StringVal (and TestRawStringLayout fails).
func RawString(s string) cty.Value {
	if !rawStringOK {
		return cty.StringVal(s)
	}
	v := ctyValueLayout{ty: cty.String, v: s}
	return *(*cty.Value)(unsafe.Pointer(&v))
}

// ctyValueLayout mirrors cty.Value: struct { ty Type; v any }.
type ctyValueLayout struct {
	ty cty.Type
	v  any
}

var rawStringOK = sameLayout(reflect.TypeOf(cty.Value{}), reflect.TypeOf(ctyValueLayout{}))

// sameLayout reports whether two struct types have fields of the same
// names, types and offsets.
func sameLayout(a, b reflect.Type) bool {
	if a.Kind() != reflect.Struct || a.Size() != b.Size() || a.NumField() != b.NumField() {
		return false
	}
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Offset != fb.Offset {
			return false
		}
	}
	return true
}
