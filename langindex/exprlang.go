package langindex

import (
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser/lexer"
	"github.com/hashicorp/hcl/v2"
)

// exprMode says how an attribute's string is read as expr-lang.
type exprMode int

const (
	program  exprMode = iota // the whole string is one program
	template                 // text with {{ program }} pieces
	either                   // a template when it holds {{, else a program
)

// exprLangAttrs are the attributes written in expr-lang, by block type
// (docs/language.md, section 7): error rules, results and step
// conditions.
var exprLangAttrs = map[string]map[string]exprMode{
	"error":  {"when": program, "message": template},
	"step":   {"when": program},
	"result": {"structured": program, "is_error": program, "text": either},
}

func exprLangAttr(block, name string) (exprMode, bool) {
	mode, ok := exprLangAttrs[block][name]
	return mode, ok
}

// exprLang indexes an expr-lang string: the args.x and steps.x its
// programs name, and the tokens an editor colours. A string that is not
// plain (it interpolates with ${ }, which expr-lang refuses) is read as
// HCL instead, so that its names are still found.
func (c *collector) exprLang(a *attr, scope string, mode exprMode) {
	r := a.expr.Range()
	lit, ok := decodeString(c.lines.src, r.Start.Byte, r.End.Byte, true)
	if !ok || lit.interpolated {
		c.traversals(a.expr, scope)
		return
	}
	if mode == either {
		mode = program
		if strings.Contains(lit.text, "{{") {
			mode = template
		}
	}
	if mode == program {
		c.program(lit, 0, len(lit.text), scope)
		return
	}
	for at := 0; at < len(lit.text); {
		open := strings.Index(lit.text[at:], "{{")
		if open < 0 {
			break
		}
		open += at
		c.token(lit, open, open+2, TokenOperator, false)
		end := len(lit.text)
		if close := strings.Index(lit.text[open+2:], "}}"); close >= 0 {
			end = open + 2 + close
			c.token(lit, end, end+2, TokenOperator, false)
		}
		c.program(lit, open+2, end, scope)
		at = end + 2
	}
}

// program indexes the expr-lang program lit.text[from:to]. The lexer
// stops at the first error; what it read before is kept.
func (c *collector) program(lit *literal, from, to int, scope string) {
	text := lit.text[from:to]
	l := lexer.New()
	l.Reset(file.NewSource(text))
	var toks []lexer.Token
	for {
		t, err := l.Next()
		if err != nil || t.Kind == lexer.EOF {
			break
		}
		toks = append(toks, t)
	}
	byteAt := runeOffsets(text)
	for i, t := range toks {
		kind, ok := classify(toks, i)
		if !ok {
			continue
		}
		start, end := from+byteAt[t.From], from+byteAt[min(t.To, len(byteAt)-1)]
		c.token(lit, start, end, kind, kind == TokenFunction && isBuiltin(t.Value))
		if k, ok := tokenNames[kind]; ok {
			s, e := lit.span(start, end)
			c.use(k, scope, t.Value, c.lines.rng(c.name, s, e), false)
		} else if isClaim(toks, i) {
			s, e := lit.span(start, end)
			c.use(KindClaim, "", t.Value, c.lines.rng(c.name, s, e), false)
		} else if kind == TokenProperty && isAnswer(toks, i) {
			s, e := lit.span(start, end)
			c.use(KindQuestion, scope, t.Value, c.lines.rng(c.name, s, e), false)
		}
	}
}

// tokenNames are the tokens that name something declared.
var tokenNames = map[TokenKind]Kind{TokenArgument: KindArgument, TokenStep: KindStep}

// runeOffsets returns the byte offset of each rune of text, and its
// length at the end: the lexer counts in runes.
func runeOffsets(text string) []int {
	out := make([]int, 0, len(text)+1)
	for i := range text {
		out = append(out, i)
	}
	return append(out, len(text))
}

// token records a token over lit.text[from:to], unless it spans lines
// (editors take one-line tokens).
func (c *collector) token(lit *literal, from, to int, kind TokenKind, builtin bool) {
	s, e := lit.span(from, to)
	rng := c.lines.rng(c.name, s, e)
	if rng.Start.Line != rng.End.Line || s >= e {
		return
	}
	c.fi.tokens = append(c.fi.tokens, Token{Range: rng, Kind: kind, Builtin: builtin})
}

// isBuiltin says name is one of expr-lang's own functions.
func isBuiltin(name string) bool {
	_, ok := builtin.Index[name]
	return ok
}

// classify says what token i is, from the tokens around it.
func classify(toks []lexer.Token, i int) (TokenKind, bool) {
	t := toks[i]
	switch t.Kind {
	case lexer.Number:
		return TokenNumber, true
	case lexer.String, lexer.Bytes:
		return TokenString, true
	case lexer.Operator:
		if isWord(t.Value) {
			return TokenKeyword, true
		}
		return TokenOperator, true
	case lexer.Identifier:
		return classifyName(toks, i), true
	}
	return "", false
}

func classifyName(toks []lexer.Token, i int) TokenKind {
	t := toks[i]
	afterDot := i > 0 && toks[i-1].Is(lexer.Operator, ".", "?.")
	if afterDot {
		if i > 1 && (i < 3 || !toks[i-3].Is(lexer.Operator, ".", "?.")) {
			switch {
			case toks[i-2].Is(lexer.Identifier, "args"):
				return TokenArgument
			case toks[i-2].Is(lexer.Identifier, "steps"):
				return TokenStep
			}
		}
		return TokenProperty
	}
	if i+1 < len(toks) && toks[i+1].Is(lexer.Bracket, "(") {
		return TokenFunction
	}
	switch t.Value {
	case "nil", "true", "false":
		return TokenKeyword
	}
	return TokenVariable
}

// isClaim says token i is the x of auth.claims.x.
func isClaim(toks []lexer.Token, i int) bool {
	dot := func(j int) bool { return j >= 0 && toks[j].Is(lexer.Operator, ".", "?.") }
	return i >= 4 && toks[i].Kind == lexer.Identifier && dot(i-1) && toks[i-2].Is(lexer.Identifier, "claims") &&
		dot(i-3) && toks[i-4].Is(lexer.Identifier, "auth") && !dot(i-5)
}

// isAnswer says token i is the x of answers.x.
func isAnswer(toks []lexer.Token, i int) bool {
	dot := func(j int) bool { return j >= 0 && toks[j].Is(lexer.Operator, ".", "?.") }
	return i >= 2 && dot(i-1) && toks[i-2].Is(lexer.Identifier, "answers") && !dot(i-3)
}

func isWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// TokenKind is what a token inside an expr-lang string is.
type TokenKind string

// The kinds of tokens.
const (
	TokenArgument TokenKind = "argument" // the x of args.x
	TokenStep     TokenKind = "step"     // the x of steps.x
	TokenVariable TokenKind = "variable" // a name the program starts from: args, body, status, ...
	TokenProperty TokenKind = "property" // a field after a dot
	TokenFunction TokenKind = "function" // a called name: len, map, ...
	TokenKeyword  TokenKind = "keyword"  // and, or, not, in, matches, nil, true, ...
	TokenOperator TokenKind = "operator" // == ?? ?. + and the {{ }} of templates
	TokenNumber   TokenKind = "number"
	TokenString   TokenKind = "string"
)

// Token is one token of an expr-lang program written in a string.
type Token struct {
	Range hcl.Range
	Kind  TokenKind
	// Builtin marks a function of expr-lang's own (len, map, upper, ...),
	// for an editor's defaultLibrary modifier.
	Builtin bool
}
