package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJUnitReport parses the JUnit output back: the counts, each case
// with its file and line, the failure's message and the skip's reason.
func TestJUnitReport(t *testing.T) {
	dir := t.TempDir()
	config := `
server {
  name    = "j"
  version = "1.0.0"
}

resource "motd" {
  uri  = "j://motd"
  text = "Hello <world> & all"
}
`
	tests := `
test "passes" {
  resource = "j://motd"
  expect {
    text = { contains = "<world>" }
  }
}

test "fails" {
  resource = "j://motd"
  expect {
    text = "Bye & <all>"
  }
}

test "skipped" {
  resource = "j://motd"
  skip     = "not today"
}
`
	for name, content := range map[string]string{"j.hcl": config, "j_test.hcl": tests} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"test", "--format", "junit", filepath.Join(dir, "j.hcl")}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errOut.String())
	}
	if got := errOut.String(); got != "1 passed, 1 failed, 1 skipped\n" {
		t.Errorf("stderr %q, want the summary line alone", got)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Skipped  int      `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				File    string `xml:"file,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("the report is not XML: %v\n%s", err, out.String())
	}
	if doc.Tests != 3 || doc.Failures != 1 || doc.Skipped != 1 || len(doc.Suites) != 1 || doc.Suites[0].Tests != 3 {
		t.Fatalf("counts: %+v", doc)
	}
	cases := doc.Suites[0].Cases
	if cases[0].Name != "passes" || cases[0].Failure != nil || cases[0].File != filepath.Join(dir, "j_test.hcl") || cases[0].Line != 2 {
		t.Errorf("passing case: %+v", cases[0])
	}
	if f := cases[1].Failure; f == nil || f.Message != `the text is "Hello <world> & all", want "Bye & <all>"` || !strings.Contains(f.Text, "Hello <world> & all") {
		t.Errorf("failing case: %+v", cases[1])
	}
	if s := cases[2].Skipped; s == nil || s.Message != "not today" {
		t.Errorf("skipped case: %+v", cases[2])
	}
}
