package lsp

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// What the text before the cursor may be, past args., var., local. and
// steps.: the names whose meaning depends on where the cursor is.
var (
	eachBefore     = lazyregexp.New(`\beach\.([A-Za-z0-9_]*)$`)
	claimsBefore   = lazyregexp.New(`\bauth\.claims\.([A-Za-z0-9_]*)$`)
	answersBefore  = lazyregexp.New(`\banswers\.([A-Za-z0-9_]*)$`)
	functionBefore = lazyregexp.New(`(^|[^A-Za-z0-9_.$])[A-Za-z_][A-Za-z0-9_]*$`)
)

// scopeItems completes each., auth.claims. and answers.; ok is false when
// the text before the cursor is none of them.
func (s *Server) scopeItems(doc *document, before string, blocks []*hclsyntax.Block) ([]completionItem, bool) {
	switch {
	case eachBefore.MatchString(before):
		if !inForEachStep(blocks, before) {
			return nil, true // each exists only in a step with for_each
		}
		return []completionItem{
			{Label: "value", Kind: itemField, Detail: "each: the item of for_each"},
			{Label: "index", Kind: itemField, Detail: "each: the item's position, from 0"},
		}, true
	case claimsBefore.MatchString(before):
		var out []completionItem
		for _, c := range s.namesOf(doc).claims {
			out = append(out, completionItem{Label: c.name, Kind: itemField, Detail: strings.TrimSpace("claim " + c.typ)})
		}
		return out, true
	case answersBefore.MatchString(before):
		var out []completionItem
		for _, q := range questionsOf(blocks) {
			out = append(out, completionItem{Label: q.key, Kind: itemField, Detail: "answer of the " + q.kind + " block"})
		}
		return out, true
	}
	return nil, false
}

// inForEachStep says the cursor is inside a step that has for_each, and
// not in its for_each or when, which are evaluated once for the step.
func inForEachStep(blocks []*hclsyntax.Block, before string) bool {
	for i, b := range blocks {
		if b.Type != "step" {
			continue
		}
		attr, _, _ := strings.Cut(strings.TrimSpace(before), "=")
		if i == len(blocks)-1 && (strings.TrimSpace(attr) == "for_each" || strings.TrimSpace(attr) == "when") {
			return false
		}
		_, ok := b.Body.Attributes["for_each"]
		return ok
	}
	return false
}

// question is an elicit, sample or roots block of the tool or prompt
// around the cursor, with the key its answer goes by.
type question struct {
	key, kind string
}

// questionsOf names the questions as the compiler does: the key given,
// else the kind numbered among the blocks of that kind (elicit, elicit2).
func questionsOf(blocks []*hclsyntax.Block) []question {
	if len(blocks) == 0 {
		return nil
	}
	seen := map[string]int{}
	var out []question
	for _, b := range blocks[0].Body.Blocks {
		if b.Type != "elicit" && b.Type != "sample" && b.Type != "roots" {
			continue
		}
		seen[b.Type]++
		key := b.Type
		if n := seen[b.Type]; n > 1 {
			key += strconv.Itoa(n)
		}
		if attr, ok := b.Body.Attributes["key"]; ok {
			if v, diags := attr.Expr.Value(nil); !diags.HasErrors() && v.Type().FriendlyName() == "string" && v.IsKnown() {
				key = v.AsString()
			}
		}
		out = append(out, question{key: key, kind: b.Type})
	}
	return out
}

// functionCallItems are the functions that may be called where a name is
// being typed in an expression: expr-lang's inside a program string or a
// {{ }} piece, the configuration's in HCL and inside ${ }.
func functionCallItems(before string) []completionItem {
	if !functionBefore.MatchString(before) || !strings.Contains(before, "=") {
		return nil
	}
	switch stringContext(before) {
	case inProgram:
		return functionItems(programFunctions(), "expr-lang")
	case inHCL:
		return functionItems(configFunctions(), "function")
	}
	return nil
}

type place int

const (
	inHCL     place = iota // an HCL expression, or inside ${ }
	inProgram              // an expr-lang program string or a {{ }} piece
	inText                 // a string's plain text
)

// programAttributes are the attributes whose strings are expr-lang
// programs (docs/language.md, expressions).
var programAttributes = map[string]bool{"when": true, "structured": true, "is_error": true, "text": true}

// stringContext reads the line before the cursor: where its quotes,
// ${ and {{ leave the cursor.
func stringContext(before string) place {
	attr, _, _ := strings.Cut(strings.TrimSpace(before), "=")
	inString, interp, pieces := false, 0, 0
	for i := 0; i < len(before); i++ {
		c := before[i]
		switch {
		case inString && c == '\\':
			i++
		case interp > 0 && c == '}':
			interp--
		case inString && interp == 0 && strings.HasPrefix(before[i:], "${"):
			interp++
			i++
		case inString && interp == 0 && strings.HasPrefix(before[i:], "{{"):
			pieces++
			i++
		case inString && interp == 0 && strings.HasPrefix(before[i:], "}}"):
			pieces = max(pieces-1, 0)
			i++
		case c == '"' && interp == 0:
			inString = !inString
		}
	}
	switch {
	case !inString || interp > 0:
		return inHCL
	case pieces > 0 || programAttributes[strings.TrimSpace(attr)]:
		return inProgram
	}
	return inText
}
