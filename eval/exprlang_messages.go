package eval

import (
	"slices"
	"strings"

	"github.com/expr-lang/expr/builtin"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// The words of expr-lang's messages that come from Go: the types of the
// values a program works with. Users write the language's types (string,
// number, integer, bool, list(T), map(T), object, any), so the messages
// say those.

// structType matches the Go struct types that stand for args and object
// values in expr-lang messages (the innermost, when they nest).
var structType = lazyregexp.New(`(?:type )?struct \{[^{}]*\}`)

// goType matches a Go type as expr-lang writes it in a message: slices
// and string-keyed maps of a plain type, once struct types are "object".
var goType = lazyregexp.New(`(?:\[\]|map\[string\])*(?:interface \{\}|(?:eval\.Number|json\.Number|u?int(?:8|16|32|64)?|float(?:32|64)|bool|string|object)\b)`)

// readableTypes writes the Go types in an expr-lang message as the
// language's types: []map[string]interface {} is list(object), int is
// integer, a struct is an object.
func readableTypes(msg string) string {
	for {
		next := structType.ReplaceAllString(msg, "object")
		if next == msg {
			break
		}
		msg = next
	}
	var b strings.Builder
	last := 0
	for _, m := range goType.FindAllStringIndex(msg, -1) {
		if m[0] > 0 && (isNameRune(rune(msg[m[0]-1])) || msg[m[0]-1] == '.') {
			continue // part of a longer word: print, strings.x
		}
		b.WriteString(msg[last:m[0]])
		b.WriteString(languageType(msg[m[0]:m[1]]))
		last = m[1]
	}
	b.WriteString(msg[last:])
	return b.String()
}

// languageType is the language's name of a Go type goType matched.
func languageType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "list(" + languageType(t[2:]) + ")"
	case t == "map[string]interface {}":
		return "object" // a JSON object
	case strings.HasPrefix(t, "map[string]"):
		return "map(" + languageType(t[len("map[string]"):]) + ")"
	case t == "interface {}":
		return "any"
	case t == "eval.Number" || t == "json.Number" || strings.HasPrefix(t, "float"):
		return "number"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "integer"
	}
	return t
}

// isCalled reports whether the name that starts at rune i of text is
// called: followed, after spaces, by "(".
func isCalled(text string, i int) bool {
	runes := []rune(text)
	if i < 0 || i > len(runes) {
		return false
	}
	j := i
	for j < len(runes) && isNameRune(runes[j]) {
		j++
	}
	for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t' || runes[j] == '\n') {
		j++
	}
	return j < len(runes) && runes[j] == '('
}

// functions are the built-in functions programs may call.
var functions = func() []string {
	var out []string
	for _, n := range builtin.Names {
		if n != "now" && !strings.HasPrefix(n, "$") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}()

// functionAliases are names of other languages for a built-in function.
var functionAliases = map[string]string{
	"length": "len", "size": "len", "strlen": "len",
	"tolower": "lower", "lowercase": "lower", "toupper": "upper", "uppercase": "upper",
	"strip": "trim", "includes": "indexOf", "str": "string", "tostring": "string",
	"parseint": "int", "toint": "int", "parsefloat": "float", "tojson": "toJSON",
}

// closestFunction is the built-in a misspelt function name most likely
// means, or "": the closest by spelling, a name of another language for
// it (length), or the built-in the name starts with (lenght).
func closestFunction(given string) string {
	if s := rule.Closest(given, functions); s != "" {
		return s
	}
	if s, ok := functionAliases[strings.ToLower(given)]; ok {
		return s
	}
	best := ""
	for _, f := range functions {
		if len(f) >= 3 && len(f) > len(best) && strings.HasPrefix(strings.ToLower(given), strings.ToLower(f)) {
			best = f
		}
	}
	return best
}

// functionHint ends the message about an unknown function: the closest
// built-in, and where the built-ins are listed.
func functionHint(name string) string {
	out := ""
	if s := closestFunction(name); s != "" {
		out = " Did you mean " + s + "?"
	}
	return out + " Functions are expr-lang's built-ins (len, upper, lower, trim, split, filter, map, any, all, count, sum, toJSON...), listed at https://expr-lang.org/docs/language-definition."
}
