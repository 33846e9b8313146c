package diagtext

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lint"
)

// Sort orders diagnostics by file and position, so output is
// stable and reads top to bottom.
func Sort(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}

// Count counts the errors and the warnings.
func Count(diags hcl.Diagnostics) (errs, warns int) {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// jsonDiagnostic is the JSON form of a diagnostic (Terraform's shape).
type jsonDiagnostic struct {
	Severity string     `json:"severity"`
	Code     string     `json:"code"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail,omitempty"`
	Range    *jsonRange `json:"range,omitempty"`
	Snippet  string     `json:"snippet,omitempty"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type jsonReport struct {
	Valid        bool             `json:"valid"`
	ErrorCount   int              `json:"error_count"`
	WarningCount int              `json:"warning_count"`
	Diagnostics  []jsonDiagnostic `json:"diagnostics"`
}

// WriteJSON writes the diagnostics as one JSON report.
func WriteJSON(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File) error {
	errs, warns := Count(diags)
	rep := jsonReport{Valid: errs == 0, ErrorCount: errs, WarningCount: warns, Diagnostics: []jsonDiagnostic{}}
	for _, d := range diags {
		jd := jsonDiagnostic{Severity: severityName(d.Severity), Code: lint.CodeOf(d), Summary: d.Summary, Detail: d.Detail}
		if r := d.Subject; r != nil {
			jd.Range = &jsonRange{Filename: r.Filename,
				Start: jsonPos{r.Start.Line, r.Start.Column, r.Start.Byte},
				End:   jsonPos{r.End.Line, r.End.Column, r.End.Byte}}
			jd.Snippet = sourceLine(files, r)
		}
		rep.Diagnostics = append(rep.Diagnostics, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func severityName(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

func sourceLine(files map[string]*hcl.File, r *hcl.Range) string {
	f, ok := files[r.Filename]
	if !ok {
		return ""
	}
	lines := strings.Split(string(f.Bytes), "\n")
	if r.Start.Line < 1 || r.Start.Line > len(lines) {
		return ""
	}
	return lines[r.Start.Line-1]
}

// WriteGitHub writes GitHub Actions workflow commands, which show
// as annotations on the pull request's changed lines.
func WriteGitHub(w io.Writer, diags hcl.Diagnostics) {
	for _, d := range diags {
		level := "error"
		if d.Severity == hcl.DiagWarning {
			level = "warning"
		}
		props := []string{"title=" + EscapeGitHubProp(d.Summary+ownCode(d))}
		if r := d.Subject; r != nil {
			props = append([]string{
				"file=" + EscapeGitHubProp(r.Filename),
				fmt.Sprintf("line=%d", r.Start.Line), fmt.Sprintf("col=%d", r.Start.Column),
				fmt.Sprintf("endLine=%d", r.End.Line), fmt.Sprintf("endColumn=%d", r.End.Column),
			}, props...)
		}
		fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), EscapeGitHubData(d.Detail))
	}
}

// ownCode is " [MCPD101]" for a diagnostic with a code of its own (a lint
// finding, or an error of a known class), and "" for the others, whose
// generic codes (MCPD001, MCPD002) would only add noise to text meant
// for people.
func ownCode(d *hcl.Diagnostic) string {
	if code := lint.CodeOf(d); !lint.IsGeneric(code) {
		return " [" + code + "]"
	}
	return ""
}

// EscapeGitHubData escapes the message of a workflow command.
func EscapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeGitHubProp escapes a property of a workflow command.
func EscapeGitHubProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Dedupe drops repeated diagnostics (same summary at the same place), which
// arise when one mistake is seen by two stages.
func Dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	out := diags[:0:0]
	for _, d := range diags {
		key := d.Summary
		if d.Subject != nil {
			key += d.Subject.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}
