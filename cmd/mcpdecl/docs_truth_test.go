package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docBlock is the code block of language lang in the Markdown file doc
// (relative to the repository) that holds marker, without the
// indentation of a list item.
func docBlock(t *testing.T, doc, lang, marker string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("../..", doc))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?ms)^( *)```" + lang + "\n(.*?)^ *```")
	for _, m := range re.FindAllStringSubmatch(string(text), -1) {
		if !strings.Contains(m[2], marker) {
			continue
		}
		var lines []string
		for _, l := range strings.Split(m[2], "\n") {
			lines = append(lines, strings.TrimPrefix(l, m[1]))
		}
		return strings.Join(lines, "\n")
	}
	t.Fatalf("%s has no %s block with %q", doc, lang, marker)
	return ""
}

// runCLI runs mcpdecl with args in-process and returns its exit code,
// stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

const gardenSQL = `CREATE TABLE plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, last_watered TEXT NOT NULL);
INSERT INTO plants VALUES (1, 'Rose', '2026-06-01'), (2, 'Fern', '2026-06-03');
`

// gardenConfig writes the docs' garden backend (SQLite, built from
// gardenSQL) beside src into a new folder and returns the file.
func gardenConfig(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "garden.sql"), []byte(gardenSQL), 0o644); err != nil {
		t.Fatal(err)
	}
	config := `server {
  name    = "garden"
  version = "1.0.0"
}
backend "sql" "garden" {
  driver   = "sqlite"
  dsn      = "file:` + filepath.Join(dir, "garden.db") + `"
  init_sql = "garden.sql"
}
` + src
	path := filepath.Join(dir, "garden.hcl")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDocsTemplateFromSteps reads the resource template of
// docs/language.md whose content comes from steps alone: a known id is
// its result's text, an unknown one its error rule's message.
func TestDocsTemplateFromSteps(t *testing.T) {
	config := gardenConfig(t, docBlock(t, "docs/language.md", "hcl", `resource_template "plant_card"`))
	if code, out, errOut := runCLI("validate", config); code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI("call", config, "--resource", "garden://plants/1")
	if code != 0 || !strings.Contains(out, "Rose, last watered 2026-06-01") {
		t.Errorf("read garden://plants/1: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("call", config, "--resource", "garden://plants/9")
	if code != 1 || !strings.Contains(out+errOut, "There is no plant 9.") {
		t.Errorf("read garden://plants/9: exit %d, want 1 and the error rule's message\n%s%s", code, out, errOut)
	}
}

// TestTemplateStepsNeedContent: a template with steps and no content is
// told every way to give it, the result block after steps included, and
// a result block beside text is a second source, not silently unused.
func TestTemplateStepsNeedContent(t *testing.T) {
	step := `
  step "plant" {
    sql "garden" {
      query = "SELECT name FROM plants WHERE id = ${args.id}"
    }
  }`
	for name, c := range map[string]struct{ body, want string }{
		"none": {step, `Missing resource content`},
		"both": {step + `
  text = "x"
  result {
    text = "{{ steps.plant.rows[0].name }}"
  }`, `Conflicting resource content`},
	} {
		config := gardenConfig(t, `resource_template "plant_name" {
  uri_template = "garden://names/{id}"
  description  = "The name of one plant of the garden."
  arg "id" {
    type = integer
  }`+c.body+`
}
`)
		code, out, errOut := runCLI("validate", config)
		if code != 1 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "result") {
			t.Errorf("%s: exit %d, want 1 with %q naming the result block\n%s%s", name, code, c.want, out, errOut)
		}
	}
}

// TestDocsPromptStepError gets the prompt of docs/language.md whose step
// turns an unknown plant down: the error is -32602 with the rule's text
// and no data, as documented; a known plant builds the message; a step
// that fails with no rule to catch it is -32603.
func TestDocsPromptStepError(t *testing.T) {
	src := docBlock(t, "docs/language.md", "hcl", `prompt "care_plan"`)
	config := gardenConfig(t, src)
	code, out, errOut := runCLI("call", config, "--prompt", "care_plan", "-a", "plant=Oak", "--format", "json")
	want := "{\n  \"error\": {\n    \"code\": -32602,\n    \"message\": \"There is no plant named Oak in the garden.\"\n  }\n}\n"
	if code != 1 || out != want {
		t.Errorf("prompts/get care_plan plant=Oak: exit %d\n%s%s\nwant exit 1 and\n%s", code, out, errOut, want)
	}
	code, out, errOut = runCLI("call", config, "--prompt", "care_plan", "-a", "plant=Rose")
	if code != 0 || !strings.Contains(out, "Plan the care of my Rose, last watered 2026-06-01.") {
		t.Errorf("prompts/get care_plan plant=Rose: exit %d\n%s%s", code, out, errOut)
	}
	broken := gardenConfig(t, strings.Replace(src, "FROM plants", "FROM weeds", 1))
	code, out, errOut = runCLI("call", broken, "--prompt", "care_plan", "-a", "plant=Rose", "--format", "json")
	if code != 1 || !strings.Contains(out, `"code": -32603`) {
		t.Errorf("a failing step: exit %d, want 1 and -32603\n%s%s", code, out, errOut)
	}
}

// TestSARIFOfAConfigThatDoesNotCompile: as README's SARIF section says, a
// configuration with errors gets its errors in the SARIF log and no lint
// finding, though it has what lint would report (a one-word description).
func TestSARIFOfAConfigThatDoesNotCompile(t *testing.T) {
	section := readmeSection(t, "or, to see lint findings in GitHub code scanning")
	if !strings.Contains(strings.Join(strings.Fields(section), " "), "Lint rules run only on a configuration that compiles.") {
		t.Errorf("README's SARIF section does not say that lint runs only on a configuration that compiles:\n%s", section)
	}
	config := filepath.Join(t.TempDir(), "broken.hcl")
	src := `server {
  name    = "broken"
  version = "1.0.0"
}
tool "x" {
  description = "Short."
  shell {
    command = ["true"]
  }
  bogus = 1
}
`
	if err := os.WriteFile(config, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("validate", "--format", "sarif", config)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF log of one run (%v):\n%s", err, out)
	}
	results := log.Runs[0].Results
	if len(results) == 0 {
		t.Fatalf("no result for a configuration that does not compile:\n%s", out)
	}
	for _, r := range results {
		if r.Level != "error" || !regexp.MustCompile(`^MCPD0(01|1[0-9]|20)$`).MatchString(r.RuleID) {
			t.Errorf("result %s (%s): want only compile errors, no lint finding", r.RuleID, r.Level)
		}
	}
	// Once it compiles, the finding shows.
	if err := os.WriteFile(config, []byte(strings.Replace(src, "  bogus = 1\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runCLI("validate", "--format", "sarif", config)
	if !strings.Contains(out, `"ruleId": "MCPD102"`) {
		t.Errorf("the fixed configuration has no MCPD102 finding:\n%s", out)
	}
}
