// Package english builds the small pieces of English that messages
// assemble from values: "a"/"an" before a word, and a count with its noun
// in the singular or plural. Messages built with fmt ("a %s backend",
// "%d more bytes") get both wrong for some values ("a http backend",
// "1 more bytes").
package english

import (
	"strconv"
	"strings"
)

// A returns word with its indefinite article: "a tool", "an arg",
// "an http", "a URI".
func A(word string) string {
	return Article(word) + " " + word
}

// CapA is A for the start of a sentence: "A tool", "An arg".
func CapA(word string) string {
	a := A(word)
	return strings.ToUpper(a[:1]) + a[1:]
}

// Article is "a" or "an", as word is said.
func Article(word string) string {
	if anSound(word) {
		return "an"
	}
	return "a"
}

// spelledOut are words read letter by letter, whose article follows the
// name of their first letter ("an HTTP", "an SQL", "a URI").
var spelledOut = map[string]bool{
	"http": true, "https": true, "html": true, "hcl": true, "sql": true, "sqlite": true, "mcp": true,
	"rfc": true, "svg": true, "xml": true, "uri": true, "url": true, "uuid": true, "utf": true,
}

// consonantU are vowel-initial words said with a leading "y" or "w" sound.
var consonantU = []string{"uni", "use", "usu", "uri", "url", "uuid", "utf", "one", "once"}

func anSound(word string) bool {
	w := strings.ToLower(strings.TrimLeft(word, "\"'`("))
	if w == "" {
		return false
	}
	if spelledOut[firstWord(w)] {
		return strings.ContainsRune("aefhilmnorsx", rune(w[0]))
	}
	for _, p := range consonantU {
		if strings.HasPrefix(w, p) {
			return false
		}
	}
	return strings.ContainsRune("aeiou", rune(w[0]))
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, "\"'`(")
	if i := strings.IndexAny(s, " -_/.:\"'"); i >= 0 {
		return s[:i]
	}
	return s
}

// Count returns n with noun in the singular or plural: "1 byte",
// "2 bytes", "0 entries".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun returns noun in the plural unless n is 1.
func Noun(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	return Plural(noun)
}

// irregular are plurals that the rules below do not make.
var irregular = map[string]string{"child": "children", "person": "people", "index": "indexes", "datum": "data"}

// Plural returns the plural of a noun; only the last word changes
// ("resource template" → "resource templates").
func Plural(noun string) string {
	head, last := "", noun
	if i := strings.LastIndexByte(noun, ' '); i >= 0 {
		head, last = noun[:i+1], noun[i+1:]
	}
	if p, ok := irregular[last]; ok {
		return head + p
	}
	switch {
	case last == "":
		return noun
	case strings.HasSuffix(last, "s"), strings.HasSuffix(last, "x"), strings.HasSuffix(last, "z"),
		strings.HasSuffix(last, "ch"), strings.HasSuffix(last, "sh"):
		return noun + "es"
	case strings.HasSuffix(last, "y") && len(last) > 1 && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		return head + last[:len(last)-1] + "ies"
	}
	return noun + "s"
}
