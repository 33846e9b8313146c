package lang

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// decodeBody decodes body into the struct dst points to, following the
// same `hcl:"..."` tags as gohcl: "name" or "name,optional" on
// *hcl.Attribute fields, "name,block" on []*T fields, "name,label" on
// string fields, "name,label_range", ",def_range" and ",type_range" on
// hcl.Range fields, and ",remain" on an hcl.Body or hcl.Attributes field.
//
// It exists because gohcl re-reads the struct tags and rebuilds the schema
// on every call, which dominated the cost of loading large configurations;
// here both are computed once per type. It also makes attributes without
// ",optional" required, which gohcl does not do for pointer fields.
func decodeBody(body hcl.Body, dst any) hcl.Diagnostics {
	v := reflect.ValueOf(dst).Elem()
	info := structInfoOf(v.Type())
	var content *hcl.BodyContent
	var diags hcl.Diagnostics
	if info.remain >= 0 {
		var rest hcl.Body
		content, rest, diags = body.PartialContent(info.schema)
		diags = append(diags, setRemain(v.Field(info.remain), rest)...)
	} else {
		content, diags = body.Content(info.schema)
	}
	for name, attr := range content.Attributes {
		v.Field(info.attrs[name]).Set(reflect.ValueOf(attr))
	}
	for _, blk := range content.Blocks {
		field := v.Field(info.blocks[blk.Type])
		elem := reflect.New(field.Type().Elem().Elem())
		diags = append(diags, decodeBlock(blk, elem)...)
		if complete(elem.Elem()) {
			field.Set(reflect.Append(field, elem))
		}
	}
	return diags
}

// complete reports whether every required attribute of a decoded block is
// present. An incomplete block has been reported ("Missing required
// argument") and is left out, so later stages never see its nil fields.
func complete(v reflect.Value) bool {
	info := structInfoOf(v.Type())
	for _, i := range info.required {
		if v.Field(i).IsNil() {
			return false
		}
	}
	return true
}

func setRemain(field reflect.Value, rest hcl.Body) hcl.Diagnostics {
	if field.Type() == attributesType {
		attrs, diags := rest.JustAttributes()
		field.Set(reflect.ValueOf(attrs))
		return diags
	}
	field.Set(reflect.ValueOf(rest))
	return nil
}

func decodeBlock(blk *hcl.Block, elem reflect.Value) hcl.Diagnostics {
	v := elem.Elem()
	info := structInfoOf(v.Type())
	for i, lf := range info.labels {
		if i >= len(blk.Labels) {
			break
		}
		v.Field(lf.field).SetString(blk.Labels[i])
		if lf.rangeField >= 0 {
			v.Field(lf.rangeField).Set(reflect.ValueOf(blk.LabelRanges[i]))
		}
	}
	if info.defRange >= 0 {
		v.Field(info.defRange).Set(reflect.ValueOf(blk.DefRange))
	}
	if info.typeRange >= 0 {
		v.Field(info.typeRange).Set(reflect.ValueOf(blk.TypeRange))
	}
	return decodeBody(blk.Body, elem.Interface())
}

// structInfo is what the tags of one struct type say, computed once.
type structInfo struct {
	schema              *hcl.BodySchema
	attrs, blocks       map[string]int
	required            []int // fields of attributes without ",optional"
	labels              []labelField
	remain              int
	defRange, typeRange int
}

type labelField struct {
	name              string
	field, rangeField int
}

var (
	structInfos    sync.Map // reflect.Type → *structInfo
	attributeType  = reflect.TypeOf((*hcl.Attribute)(nil))
	attributesType = reflect.TypeOf(hcl.Attributes(nil))
)

func structInfoOf(t reflect.Type) *structInfo {
	if info, ok := structInfos.Load(t); ok {
		return info.(*structInfo)
	}
	info := buildStructInfo(t)
	structInfos.Store(t, info)
	return info
}

// buildStructInfo panics on a malformed tag: that is a programming error in
// this package, found by any test that loads a configuration.
func buildStructInfo(t reflect.Type) *structInfo {
	info := &structInfo{schema: &hcl.BodySchema{}, attrs: map[string]int{}, blocks: map[string]int{}, remain: -1, defRange: -1, typeRange: -1}
	labelRanges := map[string]int{}
	for i := range t.NumField() {
		tag, ok := t.Field(i).Tag.Lookup("hcl")
		if !ok {
			continue
		}
		name, kind, _ := strings.Cut(tag, ",")
		switch kind {
		case "", "optional":
			if t.Field(i).Type != attributeType {
				panic(fmt.Sprintf("lang: field %s.%s must be *hcl.Attribute", t.Name(), t.Field(i).Name))
			}
			info.attrs[name] = i
			if kind == "" {
				info.required = append(info.required, i)
			}
			info.schema.Attributes = append(info.schema.Attributes, hcl.AttributeSchema{Name: name, Required: kind == ""})
		case "block":
			info.blocks[name] = i
			info.schema.Blocks = append(info.schema.Blocks, hcl.BlockHeaderSchema{Type: name, LabelNames: labelNames(t.Field(i).Type.Elem().Elem())})
		case "label":
			info.labels = append(info.labels, labelField{name: name, field: i, rangeField: -1})
		case "label_range":
			labelRanges[name] = i
		case "def_range":
			info.defRange = i
		case "type_range":
			info.typeRange = i
		case "remain":
			info.remain = i
		default:
			panic(fmt.Sprintf("lang: unknown tag kind %q on %s", kind, t.Name()))
		}
	}
	for i := range info.labels {
		if r, ok := labelRanges[info.labels[i].name]; ok {
			info.labels[i].rangeField = r
		}
	}
	return info
}

func labelNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name, kind, _ := strings.Cut(t.Field(i).Tag.Get("hcl"), ","); kind == "label" {
			out = append(out, name)
		}
	}
	return out
}
