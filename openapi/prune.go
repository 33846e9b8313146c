package openapi

import "github.com/pb33f/go-yaml"

// pruneUnread takes out of the parsed document, before libopenapi indexes
// it and builds its model, two parts the importer never reads: the
// responses of operations and the values of the examples under
// components. On GitHub's REST description they are over a quarter of
// the document, and the index and model libopenapi would build of them
// are much of the import's peak memory. What is taken out cannot matter
// to the output: responses and examples are not imported, and an
// example's value is data, where a $ref is not a reference. (Extensions
// stay: a YAML alias bomb in one is refused by the parser, see
// TestHostileMalformedDocuments.)
func pruneUnread(root *yaml.Node) {
	doc := mappingOf(root)
	if doc == nil {
		return
	}
	if paths := mappingOf(valueOf(doc, "paths")); paths != nil {
		for i := 1; i < len(paths.Content); i += 2 {
			item := mappingOf(paths.Content[i])
			if item == nil {
				continue
			}
			for j := 0; j+1 < len(item.Content); j += 2 {
				if isMethod(item.Content[j].Value) {
					if op := mappingOf(item.Content[j+1]); op != nil {
						dropKeys(op, func(k string) bool { return k == "responses" })
					}
				}
			}
		}
	}
	if examples := mappingOf(valueOf(mappingOf(valueOf(doc, "components")), "examples")); examples != nil {
		for i := 1; i < len(examples.Content); i += 2 {
			if ex := mappingOf(examples.Content[i]); ex != nil {
				dropKeys(ex, func(k string) bool { return k == "value" })
			}
		}
	}
}

func isMethod(k string) bool {
	switch k {
	case "get", "put", "post", "delete", "options", "head", "patch", "trace":
		return true
	}
	return false
}

// mappingOf is n as a mapping (the mapping a document node holds), or nil.
// Aliases are not followed: what an alias points to is shared with the
// anchor's place, and left alone.
func mappingOf(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return n
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// dropKeys removes the entries of mapping m whose key drop accepts. The
// Content slice is rebuilt, not shifted in place: libopenapi's parser
// may share backing arrays between nodes.
func dropKeys(m *yaml.Node, drop func(string) bool) {
	var kept []*yaml.Node
	dropped := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if drop(m.Content[i].Value) {
			dropped = true
			continue
		}
		kept = append(kept, m.Content[i], m.Content[i+1])
	}
	if dropped {
		m.Content = kept
	}
}
