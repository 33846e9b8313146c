package table_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/table"
)

// shared are the lists of objects README describes once, whatever holds
// them.
var shared = map[string]bool{"icons": true, "steps": true}

// jsonFields lists the JSON field paths a value of type t can have, as
// "tools[].steps[].name": lists are marked [], embedded structs add their
// fields to their parent's, and maps (schemas, annotations, _meta) are
// one field each.
func jsonFields(t reflect.Type, prefix string) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice {
			prefix += "[]"
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return []string{prefix}
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			out = append(out, jsonFields(f.Type, prefix)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		if shared[name] && f.Type.Kind() == reflect.Slice {
			// The same objects in several places: described once.
			out = append(out, path+"[]")
			out = append(out, jsonFields(f.Type.Elem(), name+"[]")...)
			continue
		}
		if f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct {
			out = append(out, path) // an object that may be absent
		}
		out = append(out, jsonFields(f.Type, path)...)
	}
	return out
}

// TestInspectFieldsDocumented: README's table of what mcpdecl inspect
// prints lists exactly the fields its JSON can have.
func TestInspectFieldsDocumented(t *testing.T) {
	have := jsonFields(reflect.TypeFor[table.Inspection](), "")
	slices.Sort(have)
	have = slices.Compact(have)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "### What `mcpdecl inspect` prints")
	if start < 0 {
		t.Fatal("README.md has no section \"What `mcpdecl inspect` prints\"")
	}
	text = text[start:]
	if end := strings.Index(text[4:], "\n#"); end >= 0 {
		text = text[:end+4]
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(text, -1) {
		documented = append(documented, m[1])
	}
	for _, f := range have {
		if !slices.Contains(documented, f) {
			t.Errorf("inspect prints %s, which README does not document", f)
		}
	}
	for _, f := range documented {
		if !slices.Contains(have, f) {
			t.Errorf("README documents %s, which inspect never prints", f)
		}
	}
}

// TestInspectOutputDocumented walks what inspect prints for the examples:
// every field found is in README's table (a documented field that holds
// a map, such as inputSchema, is not walked into).
func TestInspectOutputDocumented(t *testing.T) {
	documented := map[string]bool{}
	for _, f := range jsonFields(reflect.TypeFor[table.Inspection](), "") {
		documented[f] = true
	}
	seen := 0
	for _, example := range []string{"library.hcl", "calendar.hcl", "orders.hcl", "commands.hcl"} {
		_, tbl, diags := compilePaths(filepath.Join("..", "examples", example))
		if diags.HasErrors() {
			t.Fatalf("%s: %s", example, diags.Error())
		}
		raw, err := json.Marshal(table.Inspect(tbl))
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		var walk func(v any, path string)
		walk = func(v any, path string) {
			switch x := v.(type) {
			case []any:
				elem := path + "[]"
				if name := path[strings.LastIndex(path, ".")+1:]; shared[name] {
					elem = name + "[]" // icons and steps: described once
				}
				for _, e := range x {
					walk(e, elem)
				}
			case map[string]any:
				if documented[path] && path != "" && !strings.HasSuffix(path, "[]") && path != "auth" {
					seen++
					return // a map field (a schema, _meta): one field
				}
				for k, e := range x {
					p := k
					if path != "" {
						p = path + "." + k
					}
					walk(e, p)
				}
			default:
				if !documented[path] {
					t.Errorf("%s: inspect printed %s, which README does not document", example, path)
				}
				seen++
			}
		}
		walk(v, "")
	}
	if seen < 50 {
		t.Errorf("only %d documented fields seen in the examples' output; the walk is broken", seen)
	}
}
