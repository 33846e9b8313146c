package langschema

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/langref"
)

// SchemaID is the $id of the JSON Schema: where the repository keeps it.
const SchemaID = "https://github.com/mcpdecl/mcpdecl/blob/main/editors/schema/mcpdecl.schema.json"

// JSONSchema returns the JSON Schema (draft-07, which every editor's JSON
// support reads) of a configuration file in HCL's JSON syntax
// (*.hcl.json): every block and attribute of the tree, each described by
// its reference text. It checks structure, as lang does: names of blocks
// and attributes, labels, required attributes. Attribute values are not
// typed, since a JSON string may hold an expression of any type
// ("${args.limit * 2}").
//
// HCL's JSON syntax writes a block as an object keyed by its type, then by
// each label; at every level an array stands for several blocks. A
// property named "//" is a comment.
func JSONSchema() []byte {
	g := &generator{defs: map[string]any{}, names: map[*Node]string{}}
	root := g.body(Tree(), nil)
	root["$schema"] = "http://json-schema.org/draft-07/schema#"
	root["$id"] = SchemaID
	root["title"] = "mcpdecl configuration (HCL JSON syntax)"
	root["description"] = "An mcpdecl configuration file in HCL's JSON syntax (*.hcl.json). See docs/language.md."
	root["definitions"] = g.defs
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		panic("langschema: " + err.Error()) // maps of strings and slices always encode
	}
	return buf.Bytes()
}

type generator struct {
	defs  map[string]any
	names map[*Node]string
}

// ref returns a reference to the definition of the body of n, making it
// the first time n is met.
func (g *generator) ref(n *Node, path []string) map[string]any {
	name, ok := g.names[n]
	if !ok {
		// Named by the key of its reference text ("http" for every call
		// block of that kind), else by where it was first met.
		name = strings.Join(path, ".")
		if doc, ok := langref.Lookup(path); ok {
			if _, taken := g.defs[doc.Key]; !taken {
				name = doc.Key
			}
		}
		g.names[n] = name
		g.defs[name] = nil // taken, for a node met again below itself
		g.defs[name] = g.body(n, path)
	}
	return map[string]any{"$ref": "#/definitions/" + name}
}

// body is the schema of the object of one block's body.
func (g *generator) body(n *Node, path []string) map[string]any {
	props := map[string]any{"//": map[string]any{"description": "A comment: HCL's JSON syntax ignores it."}}
	var required []string
	doc, _ := langref.Lookup(path)
	for _, a := range n.Attributes {
		p := map[string]any{}
		if doc != nil {
			if e, ok := doc.Attributes[a.Name]; ok {
				describe(p, e.Markdown)
			}
		}
		props[a.Name] = p
		if a.Required {
			required = append(required, a.Name)
		}
	}
	for _, b := range n.Blocks {
		props[b.Type] = g.block(b, append(clip(path), b.Type))
	}
	s := map[string]any{"type": "object", "properties": props}
	if doc != nil {
		describe(s, doc.Block.Markdown)
	}
	if n.AnyAttributes {
		s["additionalProperties"] = map[string]any{}
	} else {
		s["additionalProperties"] = false
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// block is the schema of the value of a block type's property.
func (g *generator) block(n *Node, path []string) map[string]any {
	if n.ByKind != nil {
		return severalOr(g.kinds(n, path))
	}
	return severalOr(labelled(len(n.Labels), g.ref(n, path)))
}

// kinds is the first level of a backend block, keyed by its kind label:
// below each kind, the names, then the body the adapter of that kind
// reads, with what Load reads in every kind (lint) added.
func (g *generator) kinds(n *Node, path []string) map[string]any {
	kinds := map[string]any{}
	for _, k := range sortedKeys(n.ByKind) {
		ref := g.ref(n.ByKind[k], append(clip(path), k))
		props := g.defs[g.names[n.ByKind[k]]].(map[string]any)["properties"].(map[string]any)
		for _, b := range n.Blocks {
			props[b.Type] = g.block(b, append(clip(path), b.Type))
		}
		kinds[k] = severalOr(labelled(1, ref))
	}
	s := map[string]any{"type": "object", "properties": kinds, "additionalProperties": false}
	if doc, ok := langref.Lookup(path); ok {
		describe(s, doc.Block.Markdown)
	}
	return s
}

// labelled wraps a body in one object level per label.
func labelled(labels int, body map[string]any) map[string]any {
	if labels == 0 {
		return body
	}
	return map[string]any{
		"type":                 "object",
		"additionalProperties": severalOr(labelled(labels-1, body)),
	}
}

// severalOr accepts s, or an array of them (several blocks).
func severalOr(s map[string]any) map[string]any {
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "array", "items": s}}}
}

// describe sets the description of s from reference Markdown: the text
// as it is for editors that render Markdown, and without the marks for
// those that do not.
func describe(s map[string]any, md string) {
	if md == "" {
		return
	}
	s["markdownDescription"] = md
	s["description"] = plain(md)
}

// plain drops the Markdown emphasis and code marks of md, and turns its
// links into their text.
func plain(md string) string {
	md = mdLink.ReplaceAllString(md, "$1")
	return strings.NewReplacer("**", "", "`", "").Replace(md)
}

func clip(path []string) []string { return path[:len(path):len(path)] }

var mdLink = lazyregexp.New(`\[([^\]]*)\]\([^)]*\)`)
