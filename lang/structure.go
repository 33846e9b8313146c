package lang

import (
	"reflect"
	"strings"
	"sync"
)

// BlockShape is the shape of one block type as Load reads it: its labels,
// attributes and nested blocks. It is built from the same struct tags that
// Load decodes with, so it cannot say something else; editors and the
// JSON Schema of the JSON syntax read it.
type BlockShape struct {
	Type   string
	Labels []string
	// Attributes in the order of the decoded struct.
	Attributes []AttributeShape
	Blocks     []*BlockShape
	// AnyAttributes says the body holds attributes of any name (locals).
	AnyAttributes bool
	// DecodedBy names who reads the rest of the body: "" when Load reads
	// all of it, "backend" for a backend block (the adapter of its kind
	// label), "call" for a call block (the adapter of its block type).
	DecodedBy string
}

// AttributeShape is one attribute of a block.
type AttributeShape struct {
	Name     string
	Required bool
}

var (
	shapeOnce sync.Once
	fileShape *BlockShape
)

// FileShape returns the shape of a configuration file's body: the
// top-level blocks, and theirs below them. A block type that holds itself
// (a property inside a property) is the same *BlockShape, so a walk over
// the tree must stop where it meets one it is inside.
func FileShape() *BlockShape {
	shapeOnce.Do(func() {
		fileShape = shapeOf("", reflect.TypeFor[fileContent](), map[shapeKey]*BlockShape{})
	})
	return fileShape
}

// argBodies are the block types whose body is an ArgSpec decoded after
// Load's first pass (decodeArgSpec).
var argBodies = map[reflect.Type]bool{
	reflect.TypeFor[Arg]():        true,
	reflect.TypeFor[itemsBlock](): true,
}

// shapeKey is one block type decoded into one struct: every arg block is
// the same shape wherever it is, and so is every property block.
type shapeKey struct {
	blockType string
	t         reflect.Type
}

func shapeOf(blockType string, t reflect.Type, seen map[shapeKey]*BlockShape) *BlockShape {
	key := shapeKey{blockType, t}
	if s, ok := seen[key]; ok {
		return s
	}
	s := &BlockShape{Type: blockType}
	seen[key] = s
	fill(s, t, seen)
	if argBodies[t] {
		fill(s, reflect.TypeFor[ArgSpec](), seen)
	}
	switch t {
	case reflect.TypeFor[Backend]():
		s.DecodedBy = "backend"
		// Load takes a backend's lint block out before its adapter reads
		// the rest (splitBackendLint).
		s.Blocks = append(s.Blocks, shapeOf("lint", reflect.TypeFor[Lint](), seen))
	case reflect.TypeFor[labeledCall](), reflect.TypeFor[shellCall]():
		s.DecodedBy = "call"
	case reflect.TypeFor[localsBlock]():
		s.AnyAttributes = true
	}
	return s
}

// fill adds the attributes, labels and blocks the tags of t declare.
func fill(s *BlockShape, t reflect.Type, seen map[shapeKey]*BlockShape) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, kind, _ := strings.Cut(f.Tag.Get("hcl"), ",")
		switch kind {
		case "", "optional":
			if _, ok := f.Tag.Lookup("hcl"); !ok {
				continue
			}
			s.Attributes = append(s.Attributes, AttributeShape{Name: name, Required: kind == ""})
		case "label":
			s.Labels = append(s.Labels, name)
		case "block":
			s.Blocks = append(s.Blocks, shapeOf(name, f.Type.Elem().Elem(), seen))
		}
	}
}
