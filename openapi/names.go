package openapi

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// maxToolName is the longest tool name the importer gives. It is lint's
// limit (maxNameLen in package lint, whose rule MCPD201 warns above it;
// lint is on a higher floor, so the number is repeated here): clients
// list a tool as its server's name plus the tool's and many cap that at
// 64 characters. Longer names are abbreviated (shorten).
const maxToolName = 40

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

// toolBase is the name a tool would have before abbreviation and
// uniqueness (see namer): the name an MCP extension asks for, else the
// operationId, in snake_case, else the method and the path.
func toolBase(op *Operation) string {
	if name := snake(cleanLine(op.MCP.Name)); name != "" {
		return name
	}
	name := snake(cleanLine(op.ID))
	if name == "" {
		name = snake(strings.ToLower(op.Method) + " " + op.Path)
	}
	if name == "" {
		name = "operation"
	}
	return name
}

// abbreviations replace long words of generated names by the short forms
// APIs use themselves; phrases are matched as whole words.
var abbreviations = []struct{ long, short string }{
	{"create_or_update", "upsert"},
	{"organizations", "orgs"}, {"organization", "org"},
	{"repositories", "repos"}, {"repository", "repo"},
	{"authenticated", "auth"}, {"configurations", "configs"}, {"configuration", "config"},
	{"environments", "envs"}, {"environment", "env"}, {"applications", "apps"}, {"application", "app"},
	{"permissions", "perms"}, {"administrators", "admins"}, {"administrator", "admin"},
	{"installations", "installs"}, {"installation", "install"}, {"specification", "spec"},
	{"information", "info"}, {"enterprise", "ent"}, {"notifications", "notifs"},
}

// fillers are words a name reads as well without.
var fillers = map[string]bool{"for": true, "the": true, "a": true, "an": true, "of": true, "to": true,
	"in": true, "on": true, "by": true, "from": true, "with": true}

// shorten abbreviates a snake_case name longer than n, in steps that
// each keep it readable, stopping as soon as it fits: long words become
// their usual short forms (organization → org, create_or_update →
// upsert); a word said before is said once (copilot_set_copilot_... →
// copilot_set_...); filler words (for, to, in, ...) go; then the longest
// words but the first are cut to five letters, the last first, then to
// three; then the
// name is cut. The same name always gives the same result; names that
// end up equal are told apart by the namer's suffix.
func shorten(name string, n int) string {
	if len(name) <= n {
		return name
	}
	words := strings.Split(name, "_")
	fits := func() bool { return len(strings.Join(words, "_")) <= n }
	joined := "_" + strings.Join(words, "_") + "_"
	for _, a := range abbreviations {
		joined = strings.ReplaceAll(joined, "_"+a.long+"_", "_"+a.short+"_")
	}
	words = strings.Split(strings.Trim(joined, "_"), "_")
	if !fits() {
		var kept []string
		for i, w := range words {
			if i > 0 && slices.Contains(kept, w) {
				continue
			}
			kept = append(kept, w)
		}
		words = kept
	}
	for i := len(words) - 1; i > 0 && !fits(); i-- {
		if fillers[words[i]] && i < len(words)-1 {
			words = slices.Delete(words, i, i+1)
		}
	}
	for _, keep := range []int{5, 3} {
		for !fits() {
			longest := -1
			for i, w := range words[1:] {
				if len(w) > keep && (longest < 0 || len(w) >= len(words[longest])) {
					longest = i + 1
				}
			}
			if longest < 0 {
				break
			}
			words[longest] = words[longest][:keep]
		}
	}
	return cut(strings.Join(words, "_"), n)
}

func cut(name string, n int) string {
	if len(name) > n {
		name = strings.TrimRight(name[:n], "_")
	}
	return name
}

// namer hands out unique names of at most max characters: a longer name
// is abbreviated (shorten), and a name already given gets _2, _3, ...
// (abbreviated to leave room for it), in the order asked: the same
// document gives the same names.
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

func (n *namer) unique(full string) string {
	if name := shorten(full, n.max); !n.taken[name] {
		n.taken[name] = true
		return name
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		cand := shorten(full, n.max-len(suffix)) + suffix
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
