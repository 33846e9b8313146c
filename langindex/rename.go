package langindex

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// Edit replaces the text of Range by NewText.
type Edit struct {
	Range   hcl.Range
	NewText string
}

// Rename returns the edits, by file, that rename the name at pos and
// every use of it: a tool's toolsets, limits and tests, an argument's
// args.x in both expression languages, its test args and its URI template
// variable. It refuses, with an error saying why, a name the language does
// not allow for that kind, a name already declared in the same place, and
// a position on no declared name.
func (idx *Index) Rename(file string, pos hcl.Pos, newName string) (map[string][]Edit, error) {
	at, ok := idx.NameAt(file, pos)
	if !ok {
		return nil, fmt.Errorf("there is no name to rename here")
	}
	k := key{at.Kind, at.Owner, at.Name}
	decls, uses := idx.declarations(k), idx.uses(k)
	if err := idx.refuseRename(at, decls, uses, newName); err != nil {
		return nil, err
	}
	if newName == k.name {
		return map[string][]Edit{}, nil
	}
	edits := map[string][]Edit{}
	add := func(r hcl.Range) {
		edits[r.Filename] = append(edits[r.Filename], Edit{Range: r, NewText: newName})
	}
	for _, s := range decls {
		add(s.NameRange)
	}
	for _, u := range uses {
		add(u.rng)
	}
	for _, es := range edits {
		sort.Slice(es, func(i, j int) bool { return es[i].Range.Start.Byte < es[j].Range.Start.Byte })
	}
	return edits, nil
}

// refuseRename says why the name at can not become newName, or nil.
func (idx *Index) refuseRename(at Name, decls []*Symbol, uses []ref, newName string) error {
	if at.byURI {
		return fmt.Errorf("this URI reads the %s %q by its address, not its name; rename the %s at its block", describe(at.Kind), at.Name, describe(at.Kind))
	}
	if len(decls) == 0 {
		return fmt.Errorf("%s %q is declared nowhere, so it cannot be renamed; declare it first", describe(at.Kind), at.Name)
	}
	for _, d := range decls {
		if d.implicit {
			r := d.NameRange
			return fmt.Errorf("the %s at %s:%d:%d has no key attribute, so its key is the default %q: give it key = %q, then rename", blockType(d), r.Filename, r.Start.Line, r.Start.Column, at.Name, newName)
		}
	}
	if newName == at.Name {
		return nil
	}
	if err := checkNewName(at.Kind, newName, uses); err != nil {
		return err
	}
	if other := idx.declarations(key{at.Kind, at.Owner, newName}); len(other) > 0 {
		r := other[0].NameRange
		return fmt.Errorf("%s %q is already declared at %s:%d:%d; choose another name", describe(at.Kind), newName, r.Filename, r.Start.Line, r.Start.Column)
	}
	return nil
}

var (
	mcpName     = lazyregexp.New(`^[A-Za-z0-9_.-]{1,128}$`)
	argName     = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	toolsetName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	testName    = lazyregexp.New(`^[^"\\\x00-\x1f$%]+$`)
	// scopeName is RFC 6749's scope-token, less $ and % (which would open
	// an HCL template).
	scopeName = lazyregexp.New(`^[\x21\x23\x26-\x5B\x5D-\x7E]+$`)
)

// nameRules are the rules of docs/language.md, section 2, by kind, with
// the words that explain them.
var nameRules = map[Kind]struct {
	ok   func(string) bool
	rule string
}{
	KindTool:             {mcpName.MatchString, "an MCP name: 1 to 128 letters, digits, '_', '-' and '.'"},
	KindPrompt:           {mcpName.MatchString, "an MCP name: 1 to 128 letters, digits, '_', '-' and '.'"},
	KindResource:         {mcpName.MatchString, "an MCP name: 1 to 128 letters, digits, '_', '-' and '.'"},
	KindResourceTemplate: {mcpName.MatchString, "an MCP name: 1 to 128 letters, digits, '_', '-' and '.'"},
	KindApp:              {mcpName.MatchString, "an MCP name: 1 to 128 letters, digits, '_', '-' and '.'"},
	KindVariable:         {hclsyntax.ValidIdentifier, "an identifier: letters, digits, '_' and '-', not starting with a digit or '-'"},
	KindBackend:          {hclsyntax.ValidIdentifier, "an identifier: letters, digits, '_' and '-', not starting with a digit or '-'"},
	KindLocal:            {hclsyntax.ValidIdentifier, "an identifier: letters, digits, '_' and '-', not starting with a digit or '-'"},
	KindArgument:         {argName.MatchString, "letters, digits and '_', not starting with a digit (a '-' would read as a minus in expr-lang)"},
	KindStep:             {argName.MatchString, "letters, digits and '_', not starting with a digit (a '-' would read as a minus in expr-lang)"},
	KindToolset:          {toolsetName.MatchString, "1 to 64 letters, digits, '_' and '-', starting with a letter or digit"},
	KindLimit:            {toolsetName.MatchString, "1 to 64 letters, digits, '_' and '-', starting with a letter or digit"},
	KindTest:             {testName.MatchString, "any text without quotes, backslashes, control characters, '$' or '%'"},
	KindScope:            {scopeName.MatchString, "printable characters without spaces, quotes, backslashes, '$' or '%'"},
	KindClaim:            {argName.MatchString, "letters, digits and '_', not starting with a digit (it is read as auth.claims.<name>)"},
	KindQuestion:         {argName.MatchString, "letters, digits and '_', not starting with a digit (it is read as answers.<key>)"},
}

func checkNewName(kind Kind, name string, uses []ref) error {
	rule := nameRules[kind]
	if !rule.ok(name) {
		return fmt.Errorf("%q is not a valid %s name: use %s", name, describe(kind), rule.rule)
	}
	for _, u := range uses {
		if u.traversal && !hclsyntax.ValidIdentifier(name) {
			at := u.rng
			return fmt.Errorf("%q cannot be written as %s.%s, as %s:%d:%d names it: use letters, digits, '_' and '-', not starting with a digit", name, kind, name, at.Filename, at.Start.Line, at.Start.Column)
		}
	}
	return nil
}

// blockType is the block a question is: its default key without the
// number.
func blockType(s *Symbol) string {
	return strings.TrimRight(s.Name, "0123456789")
}

// describe names a kind in a message.
func describe(k Kind) string {
	switch k {
	case KindResourceTemplate:
		return "resource template"
	case KindLocal:
		return "local value"
	}
	return string(k)
}
