package openapi

import (
	"fmt"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/orderedmap"
)

// The MCP extensions documents use to say how operations become tools.
// There is no single standard; two conventions are read:
//
//   - x-mcp: a boolean at the document root, on a path item or on an
//     operation (false leaves operations out, true keeps them; the most
//     specific level wins), or on an operation an object with name,
//     description, exclude, disabled and toolsets;
//   - x-speakeasy-mcp on an operation: an object with disabled, name,
//     description and scopes (read as toolset names).
//
// A value of the wrong type is a warning naming where it is, and is then
// read as if it were absent.
const (
	extMCP       = "x-mcp"
	extSpeakeasy = "x-speakeasy-mcp"
)

// MCPHints is what the MCP extensions say of one operation, the levels
// already combined.
type MCPHints struct {
	// Include is the decision of the most specific level that makes one
	// (operation, then path item, then document); nil when none does.
	Include *bool
	// By names the extension that made the decision ("x-mcp on the
	// operation", ...), for messages.
	By          string
	Name        string   // the tool name asked for, before it is made valid
	NameBy      string   // the extension Name comes from
	Description string   // replaces the summary and description
	Toolsets    []string // toolsets to add the tool to (with ToolsetsFromTags)
}

// Included says whether the operation is imported as far as the
// extensions go: their decision, else !optIn.
func (h MCPHints) Included(optIn bool) bool {
	if h.Include != nil {
		return *h.Include
	}
	return !optIn
}

// extReader reads the extensions of one document, collecting warnings.
type extReader struct {
	warnings []string
}

func (r *extReader) warn(where, ext, why string) {
	r.warnings = append(r.warnings, fmt.Sprintf("%s: %s %s; it is ignored.", where, ext, why))
}

// flag reads x-mcp as a boolean at the document root or on a path item
// (where an object means nothing): nil when absent or malformed.
func (r *extReader) flag(exts *orderedmap.Map[string, *yaml.Node], where string) *bool {
	n := extension(exts, extMCP)
	if n == nil {
		return nil
	}
	v, ok := nodeValue(n)
	b, isBool := v.(bool)
	if !ok || !isBool {
		r.warn(where, extMCP, "must be true or false here, not "+describeValue(v, ok))
		return nil
	}
	return &b
}

// operation reads an operation's extensions into its hints; inherited is
// the decision of the path item, else of the document (nil: none).
func (r *extReader) operation(exts *orderedmap.Map[string, *yaml.Node], where string, inherited *bool, inheritedBy string) MCPHints {
	h := MCPHints{Include: inherited, By: inheritedBy}
	var own *bool
	ownBy := ""
	objectSeen := false
	if n := extension(exts, extMCP); n != nil {
		v, ok := nodeValue(n)
		switch x := v.(type) {
		case bool:
			if ok {
				own, ownBy = &x, extMCP+" on the operation"
			}
		case map[string]any:
			if f, good := r.fields(x, where, extMCP, map[string]string{
				"name": "string", "description": "string", "exclude": "bool", "disabled": "bool", "toolsets": "list",
			}); good {
				objectSeen = true
				h.Name, h.Description, h.Toolsets = f.name, f.description, f.lists["toolsets"]
				if h.Name != "" {
					h.NameBy = extMCP
				}
				if off := f.off("exclude", "disabled"); off != nil {
					own, ownBy = off, extMCP+" on the operation"
				}
			}
		default:
			r.warn(where, extMCP, "must be true, false or an object (name, description, exclude, toolsets), not "+describeValue(v, ok))
		}
	}
	if n := extension(exts, extSpeakeasy); n != nil {
		v, ok := nodeValue(n)
		if x, isMap := v.(map[string]any); ok && isMap {
			if f, good := r.fields(x, where, extSpeakeasy, map[string]string{
				"name": "string", "description": "string", "disabled": "bool", "scopes": "list",
			}); good {
				objectSeen = true
				if h.Name == "" && f.name != "" {
					h.Name, h.NameBy = f.name, extSpeakeasy
				}
				if h.Description == "" {
					h.Description = f.description
				}
				h.Toolsets = append(h.Toolsets, f.lists["scopes"]...)
				if off := f.off("disabled"); off != nil && own == nil {
					own, ownBy = off, extSpeakeasy+" on the operation"
				}
			}
		} else {
			r.warn(where, extSpeakeasy, "must be an object (disabled, name, description, scopes), not "+describeValue(v, ok))
		}
	}
	if own == nil && objectSeen {
		// An operation its authors describe for MCP is meant to be a
		// tool, also in opt-in mode.
		t := true
		own, ownBy = &t, "an MCP extension object on the operation"
	}
	if own != nil {
		h.Include, h.By = own, ownBy
	}
	return h
}

type extFields struct {
	name, description string
	bools             map[string]bool
	lists             map[string][]string
}

// off combines the boolean fields that disable an operation: true if any
// is true, false if some are given and all are false, nil if none is.
func (f extFields) off(names ...string) *bool {
	var out *bool
	for _, n := range names {
		if v, ok := f.bools[n]; ok {
			include := !v
			if out == nil || !include {
				out = &include
			}
		}
	}
	return out
}

// fields checks an extension object's fields against their kinds
// (string, bool, list of strings); unknown fields are ignored. One
// field of the wrong kind makes the whole object ignored (good false).
func (r *extReader) fields(m map[string]any, where, ext string, kinds map[string]string) (extFields, bool) {
	f := extFields{bools: map[string]bool{}, lists: map[string][]string{}}
	for _, key := range sortedKeys(m) {
		kind, known := kinds[key]
		if !known {
			continue
		}
		v := m[key]
		bad := func(want string) (extFields, bool) {
			r.warn(where, ext, fmt.Sprintf("has %s %s, which must be %s", key, describeValue(v, true), want))
			return extFields{}, false
		}
		switch kind {
		case "string":
			s, ok := v.(string)
			if !ok {
				return bad("a string")
			}
			if key == "name" {
				f.name = strings.TrimSpace(s)
			} else {
				f.description = strings.TrimSpace(s)
			}
		case "bool":
			b, ok := v.(bool)
			if !ok {
				return bad("true or false")
			}
			f.bools[key] = b
		case "list":
			l, ok := v.([]any)
			if !ok {
				return bad("a list of strings")
			}
			var names []string
			for _, e := range l {
				s, ok := e.(string)
				if !ok {
					return bad("a list of strings")
				}
				if s = strings.TrimSpace(s); s != "" {
					names = append(names, s)
				}
			}
			f.lists[key] = names
		}
	}
	return f, true
}

func extension(exts *orderedmap.Map[string, *yaml.Node], name string) *yaml.Node {
	if exts == nil {
		return nil
	}
	n, _ := exts.Get(name)
	return n
}

// describeValue names the kind of a decoded value, for warnings.
func describeValue(v any, ok bool) string {
	if !ok {
		return "a value that cannot be read"
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			x = x[:40] + "..."
		}
		return fmt.Sprintf("the string %q", cleanLine(x))
	case bool:
		return fmt.Sprintf("%t", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "a value of another type"
}

// levelFlag is the decision a path item's operations inherit: the path
// item's x-mcp, else the document's (docFlag).
func levelFlag(r *extReader, docFlag *bool, exts *orderedmap.Map[string, *yaml.Node], path string) (*bool, string) {
	if f := r.flag(exts, "Path item "+cleanLine(path)); f != nil {
		return f, extMCP + " on the path item"
	}
	if docFlag != nil {
		return docFlag, extMCP + " at the document root"
	}
	return nil, ""
}
