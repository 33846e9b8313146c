package lang

import (
	"slices"
	"testing"
)

func TestFileShapeFollowsTheDecodeStructs(t *testing.T) {
	top := FileShape()
	find := func(s *BlockShape, name string) *BlockShape {
		for _, b := range s.Blocks {
			if b.Type == name {
				return b
			}
		}
		t.Fatalf("%s has no block %s", s.Type, name)
		return nil
	}
	tool := find(top, "tool")
	if !slices.Equal(tool.Labels, []string{"name"}) {
		t.Errorf("tool labels = %v", tool.Labels)
	}
	if i := slices.IndexFunc(find(top, "limit").Attributes, func(a AttributeShape) bool { return a.Name == "per" }); i < 0 || !find(top, "limit").Attributes[i].Required {
		t.Error("limit's per is not a required attribute")
	}
	if b := find(top, "backend"); b.DecodedBy != "backend" || find(b, "lint") == nil {
		t.Errorf("backend: decoded by %q, want the adapter, with lint taken out by Load", b.DecodedBy)
	}
	if c := find(tool, "http"); c.DecodedBy != "call" || !slices.Equal(c.Labels, []string{"backend"}) {
		t.Errorf("tool's http call: %+v", c)
	}
	if !find(top, "locals").AnyAttributes {
		t.Error("locals takes attributes of any name")
	}
	arg := find(tool, "arg")
	if i := slices.IndexFunc(arg.Attributes, func(a AttributeShape) bool { return a.Name == "min_length" }); i < 0 {
		t.Errorf("arg lacks ArgSpec's attributes: %v", arg.Attributes)
	}
	prop := find(arg, "property")
	if find(prop, "property") != prop {
		t.Error("a property inside a property is not the same shape: the tree would be endless")
	}
}
