package diagtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestErrorCodeInEveryFormat: an error of a known class carries its
// class's code in text, JSON, GitHub annotations and SARIF (as an error
// rule); an error of no known class keeps the generic code, shown only
// where every diagnostic needs one.
func TestErrorCodeInEveryFormat(t *testing.T) {
	at := &hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: 2, Column: 3, Byte: 10}, End: hcl.Pos{Line: 2, Column: 8, Byte: 15}}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Duplicate tool name", Detail: "A tool named \"x\" was already declared.", Subject: at},
		{Severity: hcl.DiagError, Summary: "Something else", Detail: "D", Subject: at},
	}

	var text bytes.Buffer
	if err := WriteText(&text, diags, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "a.hcl:2:3: error: Duplicate tool name [MCPD015]\n") ||
		!strings.Contains(text.String(), "a.hcl:2:3: error: Something else\n") {
		t.Errorf("text:\n%s", text.String())
	}

	var gh bytes.Buffer
	WriteGitHub(&gh, diags)
	if !strings.Contains(gh.String(), "title=Duplicate tool name [MCPD015]::") || !strings.Contains(gh.String(), "title=Something else::") {
		t.Errorf("github:\n%s", gh.String())
	}

	var js bytes.Buffer
	if err := WriteJSON(&js, diags, nil); err != nil {
		t.Fatal(err)
	}
	var rep jsonReport
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if got := []string{rep.Diagnostics[0].Code, rep.Diagnostics[1].Code}; got[0] != "MCPD015" || got[1] != "MCPD001" {
		t.Errorf("json codes = %v, want [MCPD015 MCPD001]", got)
	}

	var sarif bytes.Buffer
	if err := WriteSARIF(&sarif, diags, "test"); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	res := run.Results[0]
	rule := run.Tool.Driver.Rules[res.RuleIndex]
	if res.RuleID != "MCPD015" || rule.ID != "MCPD015" || rule.Name != "duplicate-error" || rule.DefaultConfiguration.Level != "error" || res.Level != "error" {
		t.Errorf("sarif result %+v, rule %+v", res, rule)
	}
}
