package openapi

import (
	"fmt"
	"strings"
	"unicode"
)

// maxToolName is shorter than MCP's 128: several hosts refuse tool names
// longer than 64 characters.
const maxToolName = 64

// snake turns an identifier from a document (listPets, pet-id,
// issues/list-for-repo, X-Rate-Limit) into snake_case made of ASCII
// letters, digits and '_': a word boundary is a case change or any other
// character.
func snake(s string) string {
	var b strings.Builder
	runes := []rune(s)
	sep := false
	for i, r := range runes {
		ok := r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
		if !ok {
			sep = b.Len() > 0
			continue
		}
		if unicode.IsUpper(r) && i > 0 && b.Len() > 0 {
			prev := runes[i-1]
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				sep = true
			}
		}
		if sep {
			b.WriteByte('_')
			sep = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// toolBase is the name a tool would have before uniqueness: the
// operationId in snake_case, else the method and the path.
func toolBase(op *Operation) string {
	name := snake(cleanLine(op.ID))
	if name == "" {
		name = snake(strings.ToLower(op.Method) + " " + op.Path)
	}
	if name == "" {
		name = "operation"
	}
	return cut(name, maxToolName)
}

func cut(name string, n int) string {
	if len(name) > n {
		name = strings.TrimRight(name[:n], "_")
	}
	return name
}

// namer hands out unique names, suffixing _2, _3, ... to a name already
// given, in the order asked: the same document gives the same names.
type namer struct {
	taken map[string]bool
	max   int
}

func newNamer(max int, reserved ...string) *namer {
	n := &namer{taken: map[string]bool{}, max: max}
	for _, r := range reserved {
		n.taken[r] = true
	}
	return n
}

func (n *namer) unique(name string) string {
	if !n.taken[name] {
		n.taken[name] = true
		return name
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		cand := cut(name, n.max-len(suffix)) + suffix
		if !n.taken[cand] {
			n.taken[cand] = true
			return cand
		}
	}
}

// argName is a parameter's name as an argument: snake_case, not starting
// with a digit (the language's rule for argument names).
func argName(s string) string {
	name := snake(s)
	if name == "" {
		return "value"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "n" + name
	}
	return name
}

// isPropertyName says whether a JSON field name can be a property block:
// the argument rule, letters, digits and '_', not starting with a digit.
func isPropertyName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r < unicode.MaxASCII && unicode.IsLetter(r) || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// envName is an environment variable name: upper-case snake.
func envName(parts ...string) string {
	var words []string
	for _, p := range parts {
		if w := snake(p); w != "" {
			words = append(words, w)
		}
	}
	return strings.ToUpper(strings.Join(words, "_"))
}
