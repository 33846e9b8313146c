package diagtext

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lint"
)

// SARIF 2.1.0 (OASIS), the format GitHub code scanning and other tools
// read: one run of one tool, every rule described once, each diagnostic a
// result pointing at its rule.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	homepage     = "https://github.com/mcpdecl/mcpdecl"
	// lintDocs is the page with a section per code, anchored by the code
	// in lower case.
	lintDocs = homepage + "/blob/main/docs/lint.md"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifText    `json:"shortDescription"`
	FullDescription      sarifText    `json:"fullDescription"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// WriteSARIF writes the diagnostics as a SARIF log of mcpdecl at version.
func WriteSARIF(w io.Writer, diags hcl.Diagnostics, version string) error {
	wd, _ := os.Getwd()
	index := map[string]int{}
	driver := sarifDriver{Name: "mcpdecl", Version: version, InformationURI: homepage}
	for i, r := range lint.Rules {
		index[r.Code] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID: r.Code, Name: r.Name,
			ShortDescription:     sarifText{r.Short},
			FullDescription:      sarifText{r.Full},
			HelpURI:              lintDocs + "#" + strings.ToLower(r.Code),
			DefaultConfiguration: sarifDefault{ruleLevel(r.Code)},
		})
	}
	run := sarifRun{Tool: sarifTool{driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	for _, d := range diags {
		code := lint.CodeOf(d)
		res := sarifResult{RuleID: code, RuleIndex: index[code], Level: severityName(d.Severity), Message: sarifText{sarifMessage(d)}}
		if r := d.Subject; r != nil {
			res.Locations = []sarifLocation{{sarifPhysical{
				ArtifactLocation: sarifArtifact{artifactURI(r.Filename, wd)},
				Region:           regionOf(r),
			}}}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// regionOf is a range as SARIF wants it: lines and columns from 1, the
// end not before the start; nil for a range with no position (the whole
// file).
func regionOf(r *hcl.Range) *sarifRegion {
	if r.Start.Line < 1 || r.Start.Column < 1 {
		return nil
	}
	reg := &sarifRegion{r.Start.Line, r.Start.Column, r.End.Line, r.End.Column}
	if reg.EndLine < reg.StartLine || reg.EndLine == reg.StartLine && reg.EndColumn < reg.StartColumn {
		reg.EndLine, reg.EndColumn = reg.StartLine, reg.StartColumn
	}
	return reg
}

func ruleLevel(code string) string {
	if lint.IsError(code) {
		return "error"
	}
	return "warning"
}

// sarifMessage is the summary and the detail, as one text: code scanning
// shows the message alone.
func sarifMessage(d *hcl.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary + "."
	}
	return d.Summary + ": " + d.Detail
}

// artifactURI is a file's URI relative to the working directory (the
// repository root, in CI), with forward slashes and escaped segments; a
// file outside it gets an absolute file: URI.
func artifactURI(name, wd string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return escapePath(filepath.ToSlash(name))
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && wd != "" && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return escapePath(filepath.ToSlash(rel))
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
