package openapi

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
)

// The parser's index builds, for every node of a document, a path
// string as long as the node is deep: a 148 KB document whose one body
// nests 4,000 objects costs it about 20 s and 900 MB. These bounds are
// checked before the parser sees the document, and are far above what
// real documents use: GitHub's REST description (13 MB) nests 22 levels
// (its dereferenced form, 73 MB, 30 levels and a weight of 16 million;
// see TestHostileShapeLimitsKeepRealDocuments).
const (
	// maxNesting is how many objects and lists deep a document may nest.
	maxNesting = 128
	// maxWeight bounds the sum, over the document's nodes, of each
	// node's depth: the work the parser's index does.
	maxWeight = 64 << 20
	// maxSchemas bounds how many schemas conversion visits in a whole
	// document: references used many times inside each other multiply
	// (ten properties referring to a schema with ten properties ...),
	// and nothing else does. GitHub's whole description needs about
	// 7,000.
	maxSchemas = 1 << 17
	// maxSchemaDepth is how many schemas deep conversion goes, through
	// references or written inline; deeper than this no argument is
	// readable anyway.
	maxSchemaDepth = 32
)

// checkShape refuses a document nested deeper than maxNesting or heavier
// than maxWeight, naming where: a JSON document is scanned as bytes (no
// allocation per node), anything else is read as YAML nodes.
func checkShape(data []byte, name string) error {
	_, err := measureShape(data, name)
	return err
}

// measureShape is checkShape, returning the weight too.
func measureShape(data []byte, name string) (int64, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return checkJSONShape(data, name)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return 0, nil // the parser says what is wrong, in its own words
	}
	w := &shapeWalk{name: name}
	w.walk(&root, 0, nil)
	return w.weight, w.err
}

type shapeWalk struct {
	name   string
	weight int64
	err    error
}

func (w *shapeWalk) walk(n *yaml.Node, depth int, path []string) {
	if w.err != nil || n == nil {
		return
	}
	w.weight += int64(depth)
	if w.weight > maxWeight {
		w.err = tooHeavy(w.name, n.Line, n.Column, path)
		return
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			w.walk(c, depth, path)
		}
	case yaml.MappingNode, yaml.SequenceNode:
		if depth+1 > maxNesting {
			w.err = tooDeep(w.name, n.Line, n.Column, path)
			return
		}
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode {
				if i%2 == 0 {
					continue
				}
				w.walk(c, depth+1, append(path, n.Content[i-1].Value))
			} else {
				w.walk(c, depth+1, append(path, strconv.Itoa(i)))
			}
		}
	}
	// Aliases are leaves here: the parser limits their expansion itself.
}

// checkJSONShape is the same check on JSON text, as bytes: it tracks the
// nesting, the key or index at each level (for the message) and the
// line and column.
func checkJSONShape(data []byte, name string) (int64, error) {
	type level struct {
		object     bool
		key0, key1 int // the key's text in data, unquoted only for the message
		index      int
	}
	var stack []level
	var weight int64
	line, lineStart := 1, 0
	expectKey := false
	path := func() []string {
		var p []string
		for _, l := range stack {
			if l.object {
				key := string(data[l.key0:l.key1])
				if uq, err := strconv.Unquote(`"` + key + `"`); err == nil {
					key = uq
				}
				p = append(p, key)
			} else {
				p = append(p, strconv.Itoa(l.index))
			}
		}
		return p
	}
	value := func() { weight += int64(len(stack)) }
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '\n':
			line, lineStart = line+1, i+1
		case '"':
			start := i + 1
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if expectKey && len(stack) > 0 {
				stack[len(stack)-1].key0, stack[len(stack)-1].key1 = start, min(i, len(data))
				expectKey = false
			} else {
				value()
			}
		case '{', '[':
			value()
			if len(stack)+1 > maxNesting {
				return weight, tooDeep(name, line, i-lineStart+1, path())
			}
			stack = append(stack, level{object: c == '{'})
			expectKey = c == '{'
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectKey = false
		case ',':
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				if top.object {
					expectKey = true
				} else {
					top.index++
				}
			}
		case ':':
			expectKey = false
		default:
			if c > ' ' && (i == 0 || !isScalarByte(data[i-1])) {
				value() // the first byte of a number, true, false or null
			}
		}
		if weight > maxWeight {
			return weight, tooHeavy(name, line, i-lineStart+1, path())
		}
	}
	return weight, nil
}

func isScalarByte(c byte) bool {
	return c > ' ' && !strings.ContainsRune(`{}[],:"`, rune(c))
}

func tooDeep(name string, line, col int, path []string) error {
	return fmt.Errorf("%s:%d:%d: nested more than %d levels deep at %s: import refuses documents this deep (real ones nest a few dozen levels)", name, line, col, maxNesting, pointer(path))
}

func tooHeavy(name string, line, col int, path []string) error {
	return fmt.Errorf("%s:%d:%d: the document is too large to index (its nodes weigh more than %d levels in total; reached at %s): import refuses it", name, line, col, maxWeight, pointer(path))
}

// pointer writes a path as a JSON pointer, shortened in the middle when
// long.
func pointer(path []string) string {
	esc := make([]string, len(path))
	for i, p := range path {
		esc[i] = strings.NewReplacer("~", "~0", "/", "~1").Replace(cleanLine(p))
	}
	if len(esc) > 16 {
		esc = append(append(esc[:8:8], fmt.Sprintf("... %d more ...", len(esc)-14)), esc[len(esc)-6:]...)
	}
	return "/" + strings.Join(esc, "/")
}
