package diagcode

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Extra is the Extra of a diagnostic whose producer gave it its code: a
// lint finding, or an error whose class its producer knows (every
// diagnostic of the parser is a syntax error); or a Hint, with or without
// a code.
type Extra struct {
	Code string
	Hint *Hint
}

// Hint is what a diagnostic offers an editor beside its text, which
// says the same in words: the text a "Did you mean" suggests in place of
// the text at Range, and the other places the detail names.
type Hint struct {
	Replacement string
	Range       *hcl.Range
	Related     []hcl.Range
}

// Suggest records on d that replacement is to take the place of the
// text at r. A diagnostic whose Extra is of another type is left as it
// is. It returns d.
func Suggest(d *hcl.Diagnostic, replacement string, r hcl.Range) *hcl.Diagnostic {
	if h := hintOn(d); h != nil {
		h.Replacement, h.Range = replacement, &r
	}
	return d
}

// Relate records on d the places its detail names. It returns d.
func Relate(d *hcl.Diagnostic, places ...hcl.Range) *hcl.Diagnostic {
	if h := hintOn(d); h != nil {
		h.Related = append(h.Related, places...)
	}
	return d
}

// HintOf returns d's hint, or nil.
func HintOf(d *hcl.Diagnostic) *Hint {
	if e, ok := d.Extra.(*Extra); ok {
		return e.Hint
	}
	return nil
}

func hintOn(d *hcl.Diagnostic) *Hint {
	if d.Extra == nil {
		d.Extra = &Extra{}
	}
	e, ok := d.Extra.(*Extra)
	if !ok {
		return nil
	}
	if e.Hint == nil {
		e.Hint = &Hint{}
	}
	return e.Hint
}

// The codes of error classes. They are stable: a code is never reused
// for another class.
const (
	// Generic is an error of no known class.
	Generic    = "MCPD001"
	Syntax     = "MCPD010"
	Structure  = "MCPD011"
	Reference  = "MCPD012"
	Type       = "MCPD013"
	Value      = "MCPD014"
	Duplicate  = "MCPD015"
	Backend    = "MCPD016"
	Expression = "MCPD017"
	File       = "MCPD018"
	Security   = "MCPD019"
	Check      = "MCPD020"
)

// Class is one class of errors: its code, a name that says it in words,
// and the texts a report shows.
type Class struct {
	Code, Name, Short, Full string
}

// Classes lists the error classes, in the order of their codes.
// docs/lint.md has a section per code.
var Classes = []Class{
	{Syntax, "syntax-error", "Syntax error",
		"The file cannot be read as HCL (or JSON): an unclosed string, bracket or block, a missing '=', a stray character."},
	{Structure, "structure-error", "Unknown, missing or misplaced block or attribute",
		"A block or attribute is not known where it is written, a required one is missing, or two that exclude each other are both given."},
	{Reference, "reference-error", "Unknown name or reference",
		"A reference (args.x, var.x, steps.x...), a function, a backend, a kind or another name does not exist, or is not available where it is used."},
	{Type, "type-error", "Type mismatch",
		"A value, default or expression has another type than the one expected where it is used."},
	{Value, "value-error", "Invalid value or constraint",
		"A value has the right type but is refused: a malformed name, URI, duration or schema, an impossible constraint, a value out of range."},
	{Duplicate, "duplicate-error", "Duplicate name or block",
		"Two declarations share a name, a URI or a key, or a block that may appear once appears twice."},
	{Backend, "backend-error", "Invalid backend or call",
		"A backend block or a call to a backend (http, sql, shell) is configured in a way its kind refuses."},
	{Expression, "expression-error", "Invalid expr-lang expression",
		"An expr-lang expression (a result, a condition, a {{ }} piece) does not compile: a syntax error, an unknown name or function, a type error."},
	{File, "file-error", "File not found or unreadable",
		"A configuration file, a folder, a page, a TLS or SQL file the configuration names cannot be found or read."},
	{Security, "security-error", "Refused as unsafe",
		"The configuration would let a caller do more than it says (read any file, run arguments as code, pass options to a program) or would be easy to break into (a guessable or short token)."},
	{Check, "check-error", "Backend check failed",
		"mcpdecl check could not open a backend, or a backend refused a call (an SQL statement it cannot prepare)."},
}

// Mark gives each error of diags that has no code yet the code. It
// returns diags.
func Mark(diags hcl.Diagnostics, code string) hcl.Diagnostics {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		switch e, ok := d.Extra.(*Extra); {
		case d.Extra == nil:
			d.Extra = &Extra{Code: code}
		case ok && e.Code == "":
			e.Code = code
		}
	}
	return diags
}

// Of returns the code of a diagnostic's class: the code in its Extra,
// else, for an error, the class of its summary; "" when it has none.
func Of(d *hcl.Diagnostic) string {
	if e, ok := d.Extra.(*Extra); ok && e.Code != "" {
		return e.Code
	}
	if d.Severity != hcl.DiagError {
		return ""
	}
	return OfSummary(d.Summary)
}

// OfSummary returns the code of the class of an error summary, "" when
// none matches. A summary written with fmt.Sprintf("Invalid %s name")
// matches as written.
func OfSummary(summary string) string {
	for _, s := range summaries {
		if match(s.pattern, summary) {
			return s.code
		}
	}
	return ""
}

// match reports whether s matches pattern, in which each %s stands for
// any text of one or more characters.
func match(pattern, s string) bool {
	parts := strings.Split(pattern, "%s")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last {
			return len(s) > len(p) && strings.HasSuffix(s, p)
		}
		j := strings.Index(s[1:], p)
		if j < 0 || p == "" {
			return false
		}
		s = s[1+j+len(p):]
	}
	return true
}
