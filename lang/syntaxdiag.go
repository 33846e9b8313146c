package lang

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/english"
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
	return nameUnclosed(unclosedBrackets(tokens), diags)
}

// oneUnterminatedString keeps the diagnostics before the first string left
// open on its line and replaces it and everything after with one.
func oneUnterminatedString(tokens hclsyntax.Tokens, diags hcl.Diagnostics) (hcl.Diagnostics, bool) {
	first := -1
	for i, d := range diags {
		if d.Subject != nil && (d.Summary == "Invalid multi-line string" || d.Summary == "Unterminated template string") {
			if first < 0 || d.Subject.Start.Byte < diags[first].Subject.Start.Byte {
				first = i
			}
		}
	}
	if first < 0 {
		return diags, false
	}
	at := diags[first].Subject.Start.Byte
	open := openingQuoteBefore(tokens, at)
	if open == nil {
		return diags, false
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Subject != nil && d.Subject.Filename == open.Filename && d.Subject.Start.Byte < open.Start.Byte {
			out = append(out, d)
		}
	}
	subject := hcl.Range{Filename: open.Filename, Start: open.Start, End: diags[first].Subject.Start}
	return append(out, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unterminated string",
		Detail: fmt.Sprintf("The string that starts at line %d, column %d has no closing quote (\") on its line, so the rest of the file "+
			"cannot be read. Close it on the same line; write a line break as \\n, or use a heredoc (<<-EOT ... EOT) for text over several lines.",
			open.Start.Line, open.Start.Column),
		Subject: &subject,
	}), true
}

// openingQuoteBefore is the range of the last opening quote before byte
// offset at.
func openingQuoteBefore(tokens hclsyntax.Tokens, at int) *hcl.Range {
	var found *hcl.Range
	for i := range tokens {
		t := &tokens[i]
		if t.Range.Start.Byte > at {
			break
		}
		if t.Type == hclsyntax.TokenOQuote {
			found = &t.Range
		}
	}
	return found
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
	missingLabels = regexp.MustCompile(`^All (\S+) blocks must have (\d+) labels \((.*)\)\.$`)
	extraLabels   = regexp.MustCompile(`^Only (\d+) labels \((.*)\) are expected for (\S+) blocks\.$`)
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
