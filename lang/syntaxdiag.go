package lang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// refineSyntax rewrites the parser's diagnostics for a native-syntax file
// where they mislead: a string left open on its line is one diagnostic
// (the parser reports every line after it, as quotes flip meaning), and
// a parenthesis or bracket never closed is named with its own position
// (the parser reports only the token where it gave up: "Missing argument
// separator" at the next block's "}").
func refineSyntax(src []byte, filename string, diags hcl.Diagnostics) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if out, ok := oneUnterminatedString(tokens, diags); ok {
		return out // past an open string, the brackets mean nothing
	}
	nameUnclosedHeredoc(tokens, diags)
	diags = nameUnclosedInterp(tokens, diags)
	return nameUnclosed(unclosedBrackets(tokens), diags)
}

// oneUnterminatedString keeps the diagnostics before the first string left
// open on its line and replaces it and everything after with one. The
// string is the innermost one open at the first line break inside quotes,
// when that line break is on the line the string opens (else the cause is
// elsewhere, such as a ${ never closed, and the parser's own messages
// stay).
func oneUnterminatedString(tokens hclsyntax.Tokens, diags hcl.Diagnostics) (hcl.Diagnostics, bool) {
	var open []hcl.Range
	for _, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenOQuote:
			open = append(open, t.Range)
		case hclsyntax.TokenCQuote:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case hclsyntax.TokenQuotedNewline:
			if len(open) == 0 || open[len(open)-1].Start.Line != t.Range.Start.Line {
				return diags, false
			}
			return unterminated(open[len(open)-1], t.Range.Start, diags), true
		}
	}
	return diags, false
}

func unterminated(open hcl.Range, lineEnd hcl.Pos, diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Subject != nil && d.Subject.Filename == open.Filename && d.Subject.Start.Byte < open.Start.Byte {
			out = append(out, d)
		}
	}
	subject := hcl.Range{Filename: open.Filename, Start: open.Start, End: lineEnd}
	return append(out, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unterminated string",
		Detail: fmt.Sprintf("The string that starts at line %d, column %d has no closing quote (\") on its line, so the rest of the file "+
			"cannot be read. Close it on the same line; write a line break as \\n, or use a heredoc (<<-EOT ... EOT) for text over several lines.",
			open.Start.Line, open.Start.Column),
		Subject: &subject,
	})
}

// nameUnclosedHeredoc says which heredoc lacks its closing line, where
// the parser says only that the file ended inside a string.
func nameUnclosedHeredoc(tokens hclsyntax.Tokens, diags hcl.Diagnostics) {
	var open *hclsyntax.Token
	for i, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenOHeredoc:
			open = &tokens[i]
		case hclsyntax.TokenCHeredoc:
			open = nil
		}
	}
	if open == nil {
		return
	}
	marker := strings.TrimSpace(strings.TrimLeft(string(open.Bytes), "<-"))
	for _, d := range diags {
		if d.Summary == "Unterminated template string" {
			d.Summary = "Unterminated heredoc"
			d.Detail = fmt.Sprintf("The heredoc that starts at line %d (%s) is never closed: end it with a line holding only %s.",
				open.Range.Start.Line, strings.TrimSpace(string(open.Bytes)), marker)
			d.Subject = open.Range.Ptr()
		}
	}
}

// nameUnclosedInterp points at the ${ left open when the parser stops at
// "extra characters" on a later line: its own advice (escape the $ for
// another language's syntax) does not fit a forgotten }.
func nameUnclosedInterp(tokens hclsyntax.Tokens, diags hcl.Diagnostics) hcl.Diagnostics {
	after := -1 // where the named ${ was given up; the quote errors past it follow from it
	for _, d := range diags {
		if d.Summary != "Extra characters after interpolation expression" || d.Subject == nil {
			continue
		}
		var open *hcl.Range
		for i, t := range tokens {
			if t.Range.Start.Byte >= d.Subject.Start.Byte {
				break
			}
			if t.Type == hclsyntax.TokenTemplateInterp {
				open = &tokens[i].Range
			}
		}
		if open != nil && open.Start.Line < d.Subject.Start.Line {
			d.Detail = fmt.Sprintf("The ${ at line %d, column %d is not closed on its line: add } where its expression ends. ",
				open.Start.Line, open.Start.Column) + d.Detail
			after = d.Subject.Start.Byte
			d.Subject = open.Ptr()
		}
	}
	if after < 0 {
		return diags
	}
	return slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool {
		return d.Summary == "Invalid multi-line string" && d.Subject != nil && d.Subject.Start.Byte > after
	})
}

// unclosed is an opening parenthesis or bracket that the file never
// closes: the parser runs on until giveUp (the token where a closer of an
// outer pair, or the end of the file, came first).
type unclosed struct {
	open   hcl.Range
	char   string
	giveUp hcl.Pos
}

var closerOf = map[hclsyntax.TokenType]hclsyntax.TokenType{
	hclsyntax.TokenOParen:          hclsyntax.TokenCParen,
	hclsyntax.TokenOBrack:          hclsyntax.TokenCBrack,
	hclsyntax.TokenOBrace:          hclsyntax.TokenCBrace,
	hclsyntax.TokenTemplateInterp:  hclsyntax.TokenTemplateSeqEnd,
	hclsyntax.TokenTemplateControl: hclsyntax.TokenTemplateSeqEnd,
	hclsyntax.TokenOQuote:          hclsyntax.TokenCQuote,
	hclsyntax.TokenOHeredoc:        hclsyntax.TokenCHeredoc,
}

// unclosedBrackets matches every opener with its closer; a closer that
// meets another opener first closes that one's outer pair, leaving the
// inner ( or [ unclosed.
func unclosedBrackets(tokens hclsyntax.Tokens) []unclosed {
	var stack []hclsyntax.Token
	var out []unclosed
	report := func(t hclsyntax.Token, at hcl.Pos) {
		switch t.Type {
		case hclsyntax.TokenOParen:
			out = append(out, unclosed{open: t.Range, char: "(", giveUp: at})
		case hclsyntax.TokenOBrack:
			out = append(out, unclosed{open: t.Range, char: "[", giveUp: at})
		}
	}
	for _, t := range tokens {
		if _, opens := closerOf[t.Type]; opens {
			stack = append(stack, t)
			continue
		}
		if t.Type == hclsyntax.TokenEOF {
			for i := len(stack) - 1; i >= 0; i-- {
				report(stack[i], t.Range.Start)
			}
			break
		}
		match := -1
		for i := len(stack) - 1; i >= 0; i-- {
			if closerOf[stack[i].Type] == t.Type {
				match = i
				break
			}
		}
		if match < 0 {
			continue // a stray closer: the parser reports it as it is
		}
		for i := len(stack) - 1; i > match; i-- {
			report(stack[i], t.Range.Start)
		}
		stack = stack[:match]
	}
	return out
}

// nameUnclosed replaces the diagnostics the parser gave inside an unclosed
// pair (between its opener and where the parser gave up) by one that names
// the opener.
func nameUnclosed(open []unclosed, diags hcl.Diagnostics) hcl.Diagnostics {
	if len(open) == 0 {
		return diags
	}
	var out hcl.Diagnostics
	done := map[int]bool{}
	for _, d := range diags {
		i := innermost(open, d)
		if i < 0 {
			out = append(out, d)
			continue
		}
		if done[i] {
			continue
		}
		done[i] = true
		u := open[i]
		closer := map[string]string{"(": ")", "[": "]"}[u.char]
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Unclosed %s", map[string]string{"(": "parenthesis", "[": "bracket"}[u.char]),
			Detail: fmt.Sprintf("The %s at line %d, column %d is never closed: the parser read on to line %d, column %d without finding its %s. Add %s where what it encloses ends.",
				u.char, u.open.Start.Line, u.open.Start.Column, u.giveUp.Line, u.giveUp.Column, closer, closer),
			Subject: u.open.Ptr(),
		})
	}
	return out
}

// innermost is the index of the latest opened pair whose unclosed span
// holds the diagnostic's start; -1 when none does.
func innermost(open []unclosed, d *hcl.Diagnostic) int {
	best := -1
	if d.Subject == nil {
		return best
	}
	at := d.Subject.Start.Byte
	for i, u := range open {
		if u.open.Filename == d.Subject.Filename && u.open.Start.Byte <= d.Subject.End.Byte && at <= u.giveUp.Byte &&
			(best < 0 || u.open.Start.Byte > open[best].open.Start.Byte) {
			best = i
		}
	}
	return best
}

// The hcl library's messages about block labels count without grammar
// ("must have 1 labels") and show no example.
var (
	missingLabels = lazyregexp.New(`^All (\S+) blocks must have (\d+) labels \((.*)\)\.$`)
	extraLabels   = lazyregexp.New(`^Only (\d+) labels \((.*)\) are expected for (\S+) blocks\.$`)
)

// rewordLabels rewrites those messages with the right number and an
// example of the block's first line.
func rewordLabels(diags hcl.Diagnostics) {
	for _, d := range diags {
		if m := missingLabels.FindStringSubmatch(d.Detail); m != nil {
			n, _ := strconv.Atoi(m[2])
			d.Detail = fmt.Sprintf("%s block takes %s (%s), written after its type, as in %s { ... }.",
				english.CapA(m[1]), english.Count(n, "label"), m[3], blockExample(m[1], m[3]))
		} else if m := extraLabels.FindStringSubmatch(d.Detail); m != nil {
			n, _ := strconv.Atoi(m[1])
			d.Detail = fmt.Sprintf("%s block takes only %s (%s), as in %s { ... }; remove the others.",
				english.CapA(m[3]), english.Count(n, "label"), m[2], blockExample(m[3], m[2]))
		}
	}
}

// blockExample is the first line of a block with placeholder labels:
// message "<role>".
func blockExample(kind, labels string) string {
	out := kind
	for _, l := range strings.Split(labels, ", ") {
		if l != "" {
			out += fmt.Sprintf(" \"<%s>\"", l)
		}
	}
	return out
}
