package lsp

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/lint"
)

// Diagnostic is the protocol's diagnostic.
type Diagnostic struct {
	Range              Range                `json:"range"`
	Severity           int                  `json:"severity"`
	Code               string               `json:"code"`
	CodeDescription    *codeDescription     `json:"codeDescription,omitempty"`
	Source             string               `json:"source"`
	Message            string               `json:"message"`
	RelatedInformation []relatedInformation `json:"relatedInformation,omitempty"`
	Data               *fix                 `json:"data,omitempty"`
}

type codeDescription struct {
	Href string `json:"href"`
}

type relatedInformation struct {
	Location location `json:"location"`
	Message  string   `json:"message"`
}

type location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// fix is what a code action needs to repair a diagnostic, carried in its
// data (the client gives it back with the diagnostic).
type fix struct {
	// Replace is the name a "Did you mean" offers for the misspelt one,
	// and At the text it replaces when the diagnostic's maker said
	// (without it, the misspelt name is found in the diagnostic's range).
	Replace string `json:"replace,omitempty"`
	At      *Range `json:"at,omitempty"`
	// Code is the lint code, for the mechanical fixes (codeaction.go).
	Code string `json:"code,omitempty"`
	// Arguments are what the diagnostic's range becomes: the folder and
	// the name a file() of a path from the arguments is to be given as.
	Arguments string `json:"arguments,omitempty"`
}

// lintDocs is the page with a section per code, anchored by the code in
// lower case (as in the SARIF output's helpUri).
const lintDocs = "https://github.com/mcpdecl/mcpdecl/blob/main/docs/lint.md"

const (
	severityError   = 1
	severityWarning = 2
)

// didYouMean finds the suggestion in a detail: `Did you mean "name"?` or
// `Did you mean args.name?`.
var didYouMean = lazyregexp.New(`Did you mean "?([A-Za-z0-9_.\-]+?)"?\?`)

// rangeInText finds the ranges that details quote, as hcl prints them:
// file:3,5-9 or file:3,5-4,2.
var rangeInText = lazyregexp.New(`([^\s"(]+\.hcl(?:\.json)?):(\d+),(\d+)-(?:(\d+),)?(\d+)`)

// toDiagnostic converts one diagnostic, positions through t (its file's
// text) and the related places through textOf.
func toDiagnostic(d *hcl.Diagnostic, t *text, textOf func(string) *text) Diagnostic {
	code := lint.CodeOf(d)
	out := Diagnostic{
		Severity:        severityError,
		Code:            code,
		CodeDescription: &codeDescription{Href: lintDocs + "#" + strings.ToLower(code)},
		Source:          "mcpdecl",
		Message:         messageOf(d),
	}
	if d.Severity == hcl.DiagWarning {
		out.Severity = severityWarning
	}
	if d.Subject != nil {
		out.Range = t.rangeOf(*d.Subject)
	}
	hint := diagcode.HintOf(d)
	if hint != nil && hint.Replacement != "" && hint.Range != nil && d.Subject != nil && hint.Range.Filename == d.Subject.Filename {
		at := t.rangeOf(*hint.Range)
		out.Data = &fix{Replace: hint.Replacement, At: &at}
	} else if m := didYouMean.FindStringSubmatch(d.Detail); m != nil {
		out.Data = &fix{Replace: m[1]}
	} else if args, ok := confinedArguments(d); ok {
		out.Data = &fix{Arguments: args}
	} else if hasMechanicalFix(code) {
		out.Data = &fix{Code: code}
	}
	if hint != nil && len(hint.Related) > 0 {
		for _, r := range hint.Related {
			rt := textOf(r.Filename)
			out.RelatedInformation = append(out.RelatedInformation, relatedInformation{
				Location: location{URI: pathToURI(r.Filename), Range: Range{Start: rt.position(r.Start.Byte), End: rt.position(r.End.Byte)}},
				Message:  "named in the message: " + r.String(),
			})
		}
	} else {
		// A maker that gives no places may still name them in its detail.
		out.RelatedInformation = related(d, textOf)
	}
	return out
}

// messageOf is the summary and the detail, which says what to do.
func messageOf(d *hcl.Diagnostic) string {
	switch {
	case d.Detail == "":
		return d.Summary
	case strings.HasSuffix(d.Summary, ".") || strings.HasSuffix(d.Summary, ":"):
		return d.Summary + " " + d.Detail
	}
	return d.Summary + ": " + d.Detail
}

// related are the places a detail names (the first declaration of a
// duplicate, the block an argument belongs to).
func related(d *hcl.Diagnostic, textOf func(string) *text) []relatedInformation {
	var out []relatedInformation
	for _, m := range rangeInText.FindAllStringSubmatch(d.Detail, -1) {
		file := m[1]
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		endLine := line
		if m[4] != "" {
			endLine, _ = strconv.Atoi(m[4])
		}
		endCol, _ := strconv.Atoi(m[5])
		t := textOf(file)
		start := t.lineColumn(line, col)
		end := t.lineColumn(endLine, endCol)
		out = append(out, relatedInformation{
			Location: location{URI: pathToURI(file), Range: Range{Start: t.position(start), End: t.position(end)}},
			Message:  "named in the message: " + m[0],
		})
	}
	return out
}

// lineColumn is the byte offset of hcl's line and column (both from 1,
// the column in characters).
func (t *text) lineColumn(line, col int) int {
	if line < 1 || line > len(t.lines) {
		return len(t.src)
	}
	off := t.lines[line-1]
	for i := 1; i < col && off < len(t.src) && t.src[off] != '\n'; i++ {
		_, size := decodeRune(t.src[off:])
		off += size
	}
	return off
}
