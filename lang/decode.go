package lang

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/parallel"
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
	if b, ok := body.(*hclsyntax.Body); ok && syntaxFastPath {
		if diags, ok := decodeSyntaxBody(b, v, info); ok {
			return diags
		}
	}
	var content *hcl.BodyContent
	var diags hcl.Diagnostics
	if info.remain >= 0 {
		var rest hcl.Body
		content, rest, diags = body.PartialContent(info.schema)
		diags = append(diags, info.setRemain(v.Field(info.remain), rest)...)
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

// syntaxFastPath turns decodeSyntaxBody on; a test compares the two paths.
var syntaxFastPath = true

// decodeSyntaxBody is decodeBody's path for a native-syntax body that
// holds exactly what its schema allows: each attribute and block known,
// blocks with the labels they need, required attributes present. Then
// Content and PartialContent would report nothing and only copy maps (four
// per body, the larger part of a big configuration's decode), so the
// fields are set from the syntax tree directly. Anything else is left to
// them (false), so every diagnostic is theirs, word for word.
//
// Every body given here is one the parser made (a file's, or a block's),
// which hides nothing; a struct with a ",remain" field takes this path only
// when its schema is empty, whose remainder is the body itself.
func decodeSyntaxBody(b *hclsyntax.Body, v reflect.Value, info *structInfo) (hcl.Diagnostics, bool) {
	if !info.fitsSyntax(b) {
		return nil, false
	}
	if info.remain >= 0 {
		v.Field(info.remain).Set(reflect.ValueOf(info.kept(b)))
	}
	for name, attr := range b.Attributes {
		if i, ok := info.attrs[name]; ok {
			v.Field(i).Set(reflect.ValueOf(attr.AsHCLAttribute()))
		}
	}
	if len(b.Blocks) >= manyBlocks {
		return decodeBlocksInParallel(b.Blocks, v, info), true
	}
	var diags hcl.Diagnostics
	for _, blk := range b.Blocks {
		i, ok := info.blocks[blk.Type]
		if !ok {
			continue // the remainder's, for its own schema
		}
		field := v.Field(i)
		elem := reflect.New(field.Type().Elem().Elem())
		diags = append(diags, decodeBlock(blk.AsHCLBlock(), elem)...)
		if complete(elem.Elem()) {
			field.Set(reflect.Append(field, elem))
		}
	}
	return diags, true
}

// manyBlocks is how many blocks a body holds (a big file's top level)
// before they are decoded on every core.
const manyBlocks = 64

// decodeBlocksInParallel is decodeSyntaxBody's loop over many blocks:
// each decodes alone, then they are kept, and their diagnostics given, in
// the order they are written.
func decodeBlocksInParallel(blocks hclsyntax.Blocks, v reflect.Value, info *structInfo) hcl.Diagnostics {
	elems := make([]reflect.Value, len(blocks))
	found := make([]hcl.Diagnostics, len(blocks))
	parallel.For(len(blocks), func(j int) {
		i, ok := info.blocks[blocks[j].Type]
		if !ok {
			return // the remainder's, for its own schema
		}
		elems[j] = reflect.New(v.Field(i).Type().Elem().Elem())
		found[j] = decodeBlock(blocks[j].AsHCLBlock(), elems[j])
	})
	var diags hcl.Diagnostics
	for j, elem := range elems {
		if !elem.IsValid() {
			continue
		}
		diags = append(diags, found[j]...)
		if complete(elem.Elem()) {
			field := v.Field(info.blocks[blocks[j].Type])
			field.Set(reflect.Append(field, elem))
		}
	}
	return diags
}

// fitsSyntax reports whether b holds exactly what the schema allows (see
// decodeSyntaxBody).
func (info *structInfo) fitsSyntax(b *hclsyntax.Body) bool {
	if info.remain >= 0 && (len(info.schema.Attributes) > 0 || len(info.schema.Blocks) > 0 || info.remainAttrs) {
		return false
	}
	for name := range b.Attributes {
		if _, ok := info.attrs[name]; !ok && info.remain < 0 {
			return false
		}
	}
	for _, i := range info.requiredNames {
		if _, ok := b.Attributes[i]; !ok {
			return false
		}
	}
	for _, blk := range b.Blocks {
		labels, ok := info.blockLabels[blk.Type]
		if !ok && info.remain < 0 || ok && len(blk.Labels) != labels {
			return false
		}
	}
	return true
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

func (info *structInfo) setRemain(field reflect.Value, rest hcl.Body) hcl.Diagnostics {
	if field.Type() == attributesType {
		attrs, diags := rest.JustAttributes()
		field.Set(reflect.ValueOf(attrs))
		return diags
	}
	field.Set(reflect.ValueOf(info.kept(rest)))
	return nil
}

// kept is the remainder body as the decoded block keeps it: detached from
// the parser's chunks, except an Arg's, which Load decodes into its Spec
// at once and then drops.
func (info *structInfo) kept(rest hcl.Body) hcl.Body {
	if info.transientRemain {
		return rest
	}
	return detach(rest)
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
	if n, ok := elem.Interface().(argReader); ok {
		n.setArgRefs(argRefs(blk.Body))
	}
	return decodeBody(blk.Body, elem.Interface())
}

// argReader is a block with arguments, which records what it reads of
// them while its syntax is at hand.
type argReader interface{ setArgRefs(*Refs) }

// detach returns a copy of a body that Load keeps (a ",remain" field),
// with its blocks copied too: the parser hands bodies and blocks out of
// chunks it allocates many at a time, and one kept node would keep its
// whole chunk, and through it a good part of the syntax tree, alive after
// Load. Attributes and expressions are allocated one by one and are
// shared.
func detach(body hcl.Body) hcl.Body {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return body
	}
	return detachBody(b)
}

func detachBody(b *hclsyntax.Body) *hclsyntax.Body {
	out := *b
	if len(b.Blocks) > 0 {
		out.Blocks = make(hclsyntax.Blocks, len(b.Blocks))
		for i, blk := range b.Blocks {
			cp := *blk
			cp.Body = detachBody(blk.Body)
			out.Blocks[i] = &cp
		}
	}
	return &out
}

// structInfo is what the tags of one struct type say, computed once.
type structInfo struct {
	schema              *hcl.BodySchema
	attrs, blocks       map[string]int
	required            []int // fields of attributes without ",optional"
	requiredNames       []string
	blockLabels         map[string]int // block type → how many labels it takes
	remainAttrs         bool           // the ",remain" field is hcl.Attributes
	labels              []labelField
	remain              int
	transientRemain     bool // the remainder is dropped during Load (Arg)
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
	info := &structInfo{schema: &hcl.BodySchema{}, attrs: map[string]int{}, blocks: map[string]int{}, blockLabels: map[string]int{}, remain: -1, defRange: -1, typeRange: -1,
		transientRemain: t == reflect.TypeFor[Arg]()}
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
				info.requiredNames = append(info.requiredNames, name)
			}
			info.schema.Attributes = append(info.schema.Attributes, hcl.AttributeSchema{Name: name, Required: kind == ""})
		case "block":
			info.blocks[name] = i
			labels := labelNames(t.Field(i).Type.Elem().Elem())
			info.blockLabels[name] = len(labels)
			info.schema.Blocks = append(info.schema.Blocks, hcl.BlockHeaderSchema{Type: name, LabelNames: labels})
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
			info.remainAttrs = t.Field(i).Type == attributesType
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
