package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const toolsetsCLIConfig = `
tool "repo_list" {
  description = "List repositories."
  result {
    text = "'r'"
  }
}
tool "issue_create" {
  description = "Open an issue."
  result {
    text = "'i'"
  }
}
toolset "repos" {
  tools = ["repo_*"]
}
toolset "work" {
  tools   = ["issue_create"]
  dynamic = true
}
`

func writeConfig(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "main.hcl")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestInspectToolsets: inspect lists each toolset with its tools and the
// tokens its endpoint's tools/list costs; the dynamic one costs the
// meta-tools' listing.
func TestInspectToolsets(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"inspect", writeConfig(t, toolsetsCLIConfig)}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var l struct {
		Toolsets []struct {
			Name    string
			Tools   []string
			Dynamic bool
			Tokens  int
		}
	}
	if err := json.Unmarshal(out.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Toolsets) != 2 || l.Toolsets[0].Name != "repos" || len(l.Toolsets[0].Tools) != 1 || l.Toolsets[0].Tokens <= 0 ||
		!l.Toolsets[1].Dynamic || l.Toolsets[1].Tokens <= l.Toolsets[0].Tokens {
		t.Errorf("toolsets: %+v", l.Toolsets)
	}
}

// TestValidateUnknownToolInToolset: a misspelt tool is an error at its
// place, with the name meant.
func TestValidateUnknownToolInToolset(t *testing.T) {
	path := writeConfig(t, strings.Replace(toolsetsCLIConfig, `["issue_create"]`, `["issue_creat"]`, 1))
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", path}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	all := out.String() + errOut.String()
	if !strings.Contains(all, "main.hcl:18:14") || !strings.Contains(all, `mean "issue_create"?`) {
		t.Errorf("output:\n%s", all)
	}
}

// TestServeUnknownToolset: serve --toolset of a toolset the configuration
// does not declare stops at once, naming the one meant.
func TestServeUnknownToolset(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "--toolset", "repo", writeConfig(t, toolsetsCLIConfig)}, &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), `--toolset repo`) || !strings.Contains(errOut.String(), `Did you mean "repos"?`) {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
}
