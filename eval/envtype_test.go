package eval

import (
	"reflect"
	"testing"
)

// TestEnvTypeAgreesWithStructOf: the cached environment type of some
// fields is the type reflect.StructOf makes of them, and fields that
// differ in a name, a tag or a type get a type of their own.
func TestEnvTypeAgreesWithStructOf(t *testing.T) {
	str, num := reflect.TypeOf(""), reflect.TypeOf(0)
	nested := EnvType([]EnvField{{Name: "x", Type: str}})
	shapes := [][]EnvField{
		nil,
		{{Name: "a", Type: str}},
		{{Name: "a", Type: num}},
		{{Name: "b", Type: str}},
		{{Name: "a", Type: str}, {Name: "b", Type: str}},
		{{Name: "a", Type: str, LowerKeys: true}},
		{{Name: "a", Type: str, Hidden: map[string]string{"later": "runs later"}}},
		{{Name: "a", Type: str, Hidden: map[string]string{"later": "runs after"}}},
		{{Name: "a", Type: nested}},
		{{Name: "a", Type: AnyType}, {Name: "n", Type: NumberType}},
	}
	seen := map[reflect.Type]int{}
	for i, fields := range shapes {
		got := EnvType(fields)
		if want := buildEnvType(fields); got != want {
			t.Errorf("shape %d: EnvType %v, StructOf %v", i, got, want)
		}
		if again := EnvType(fields); again != got {
			t.Errorf("shape %d: a second call gave another type", i)
		}
		if j, dup := seen[got]; dup {
			t.Errorf("shapes %d and %d share the type %v", j, i, got)
		}
		seen[got] = i
	}
}
