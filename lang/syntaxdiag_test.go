package lang

import (
	"strings"
	"testing"
)

// TestSyntaxDiagnostics: each syntax mistake below is one diagnostic, at
// the place to fix, saying what to do.
func TestSyntaxDiagnostics(t *testing.T) {
	cases := []struct {
		name, src string
		summary   string
		line, col int
		detail    string
	}{
		{"open string", "tool \"t\" {\n  description = \"Find\n  arg \"q\" {\n    type = string\n  }\n}\n",
			"Unterminated string", 2, 17, "starts at line 2, column 17 has no closing quote"},
		{"open string after good ones", "tool \"t\" {\n  title = \"x\"\n  description = \"a \\\"b\\\" c\n}\n",
			"Unterminated string", 3, 17, "no closing quote"},
		{"heredoc", "tool \"t\" {\n  description = <<-EOT\n    Find.\n}\n",
			"Unterminated heredoc", 2, 17, "end it with a line holding only EOT"},
		{"paren before a block end", "tool \"t\" {\n  description = upper(\"x\"\n}\n",
			"Unclosed parenthesis", 2, 22, "The ( at line 2, column 22 is never closed"},
		{"paren inside an interpolation", "tool \"t\" {\n  description = \"${lower(trimspace(\"x\")}\"\n}\n",
			"Unclosed parenthesis", 2, 25, "The ( at line 2, column 25 is never closed"},
		{"paren at the end of the file", "locals {\n  x = upper(\"a\"",
			"Unclosed parenthesis", 2, 12, "is never closed"},
		{"bracket", "locals {\n  x = [1, 2\n}\n",
			"Unclosed bracket", 2, 7, "Add ] where"},
		{"interpolation", "tool \"t\" {\n  description = \"a ${upper(\"b\")\n  x = 1\n}\n",
			"Extra characters after interpolation expression", 2, 20, "The ${ at line 2, column 20 is not closed on its line"},
		{"labels", "prompt \"p\" {\n  message {\n    text = \"x\"\n  }\n}\n",
			"Missing role for message", 2, 11, `A message block takes 1 label (role), written after its type, as in message "<role>" { ... }.`},
	}
	for _, c := range cases {
		_, diags := LoadSource("t.hcl", []byte(c.src))
		var errs []string
		for _, d := range diags {
			errs = append(errs, d.Error())
		}
		if len(diags) == 0 || c.summary != "Missing role for message" && len(diags) != 1 {
			t.Errorf("%s: want one diagnostic, got %d:\n%s", c.name, len(diags), strings.Join(errs, "\n"))
			continue
		}
		d := diags[0]
		if d.Summary != c.summary || d.Subject == nil || d.Subject.Start.Line != c.line || d.Subject.Start.Column != c.col ||
			!strings.Contains(d.Detail, c.detail) {
			t.Errorf("%s: got %s (%s), want %q at %d:%d saying %q", c.name, d.Error(), d.Summary, c.summary, c.line, c.col, c.detail)
		}
	}
}
