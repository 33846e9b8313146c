package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaPath is the official SARIF 2.1.0 schema, kept in the
// repository (testdata/sarif/README.md says where it comes from).
var sarifSchemaPath = filepath.Join("..", "..", "testdata", "sarif", "sarif-2.1.0-rtm.5.json")

func officialSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaPath)
	if err != nil {
		t.Fatalf("the SARIF 2.1.0 schema of testdata/sarif: %v", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validateSARIF runs `mcpdecl validate --format sarif` in dir on the
// given files and returns its output, checked against the schema.
func validateSARIF(t *testing.T, sch *jsonschema.Schema, dir string, args ...string) map[string]any {
	t.Helper()
	return commandSARIF(t, sch, dir, "validate", args...)
}

// commandSARIF runs `mcpdecl <command> --format sarif` in dir on the
// given files and returns its output, checked against the schema.
func commandSARIF(t *testing.T, sch *jsonschema.Schema, dir, command string, args ...string) map[string]any {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	run(append([]string{command, "--format", "sarif"}, args...), &out, &errOut)
	if errOut.Len() > 0 {
		t.Fatalf("stderr: %s", errOut.String())
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("the SARIF output does not match the SARIF 2.1.0 schema: %v\n%s", err, out.String())
	}
	var log map[string]any
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// TestSARIFMatchesSchema: lint findings, errors and a diagnostic without
// a place in a file all give valid SARIF 2.1.0, with relative URIs.
func TestSARIFMatchesSchema(t *testing.T) {
	sch := officialSARIFSchema(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "my configs"), 0o755)
	writeFile(t, filepath.Join(dir, "my configs", "lint.hcl"), `
tool "run" {
  arg "x" {}
  result {
    text = "'ok'"
  }
}
`)
	writeFile(t, filepath.Join(dir, "broken.hcl"), `tool "t" {
  description = "Say something back, unchanged."
  result {
    text = "args.nope"
  }
}
`)
	log := validateSARIF(t, sch, dir, "my configs/lint.hcl", "broken.hcl", "missing.hcl")
	text, _ := json.Marshal(log)
	for _, want := range []string{
		`"ruleId":"MCPD202"`, `"ruleId":"MCPD504"`, `"ruleId":"MCPD017"`, `"ruleId":"MCPD018"`,
		`"uri":"my%20configs/lint.hcl"`, `"uri":"broken.hcl"`,
		`"helpUri":"https://github.com/mcpdecl/mcpdecl/blob/main/docs/lint.md#mcpd101"`,
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("SARIF output lacks %s", want)
		}
	}
	// A clean run is a valid log with no results.
	writeFile(t, filepath.Join(dir, "clean.hcl"), `
tool "echo_text" {
  description = "Say the given text back, unchanged."
  arg "text" {
    description = "What to say back."
  }
  result {
    text = "args.text"
  }
}
`)
	log = validateSARIF(t, sch, dir, "clean.hcl")
	if results := log["runs"].([]any)[0].(map[string]any)["results"].([]any); len(results) != 0 {
		t.Errorf("results of a clean run: %v", results)
	}
}

// TestCheckSARIFMatchesSchema: check writes the same SARIF as validate.
func TestCheckSARIFMatchesSchema(t *testing.T) {
	sch := officialSARIFSchema(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "broken.hcl"), `tool "t" {
  description = "Say something back, unchanged."
  result {
    text = "args.nope"
  }
}
`)
	log := commandSARIF(t, sch, dir, "check", "broken.hcl")
	text, _ := json.Marshal(log)
	for _, want := range []string{`"ruleId":"MCPD017"`, `"uri":"broken.hcl"`, `"id":"MCPD020"`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("SARIF output of check lacks %s", want)
		}
	}
}

// TestSARIFSchemaRejects: the schema check can fail (a log without its
// version is refused), so the test above proves something.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := officialSARIFSchema(t)
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"runs": [{"tool": {"driver": {"name": "mcpdecl"}}, "results": [{"message": {"text": "x"}, "level": "loud"}]}]}`))
	if err := sch.Validate(inst); err == nil {
		t.Error("the schema accepts a log without version and with level \"loud\"")
	}
}
