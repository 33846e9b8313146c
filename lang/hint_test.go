package lang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
)

// TestDuplicatesRelateTheFirstDeclaration: a duplicate's diagnostic
// carries the first declaration's place as data, beside its text.
func TestDuplicatesRelateTheFirstDeclaration(t *testing.T) {
	src := `server {
  name    = "x"
  version = "1"
}
server {
  name    = "y"
  version = "1"
}
tool "a" {
  description = "A."
  arg "q" {
    type = string
  }
  arg "q" {
    type = string
  }
  shell {
    command = ["true"]
  }
}
`
	path := filepath.Join(t.TempDir(), "dup.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := Load(path)
	found := map[string]int{}
	for _, d := range diags {
		h := diagcode.HintOf(d)
		if h == nil || len(h.Related) != 1 {
			continue
		}
		found[d.Summary] = h.Related[0].Start.Line
	}
	if found["Duplicate server block"] != 1 || found["Duplicate argument name"] != 11 {
		t.Errorf("related lines %v in %v", found, diags)
	}
}
