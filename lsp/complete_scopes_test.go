package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// plants has an auth block with claims, a tool with questions, and a
// step over a list; CURSOR is where the completion cases write.
const plants = `server {
  name    = "plants"
  version = "1.0.0"
}

auth {
  issuers = ["https://id.example.com"]
  claim "tenant" {
    type = string
  }
  claim "level" {
    type = number
  }
}

backend "http" "shop" {
  base_url = "http://127.0.0.1:3000"
}

tool "compare" {
  description = "Compare the plants that match the words."
  arg "q" {
    type = string
  }
  elicit {
    message          = "Go on?"
    requested_schema = { type = "object" }
  }
  elicit {
    key              = "budget"
    message          = "How much?"
    requested_schema = { type = "object" }
  }
  sample {
    prompt = "Pick one."
  }
  step "search" {
    http "shop" {
      path = "/plants"
    }
  }
  step "details" {
    for_each = steps.search.body.items
    http "shop" {
      path = "/plants/${each.value.id}"
    }
  }
  result {
    text = "string(len(steps.details))"
  }
}
`

func TestCompletionOfEachClaimsAnswersAndFunctions(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	cases := []struct {
		name, old, new string
		want           []string
	}{
		{"each in a for_each step", `"/plants/${each.value.id}"`, `"/plants/${each.|}"`, []string{"index", "value"}},
		{"each in a step without for_each", `path = "/plants"`, `path = "/plants/${each.|}"`, nil},
		{"each in the step's for_each", "for_each = steps.search.body.items", "for_each = each.|", nil},
		{"claims in HCL", `path = "/plants"`, `path = auth.claims.|`, []string{"level", "tenant"}},
		{"claims in a program", `text = "string(len(steps.details))"`, `text = "auth.claims.t|"`, []string{"level", "tenant"}},
		{"answers", `text = "string(len(steps.details))"`, `text = "{{ answers.|"`, []string{"budget", "elicit", "sample"}},
	}
	for _, tc := range cases {
		src := strings.Replace(plants, tc.old, tc.new, 1)
		if src == plants {
			t.Fatalf("%s: %q is not in the text", tc.name, tc.old)
		}
		got, _ := complete(t, c, filepath.Join(dir, "p.hcl"), src)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCompletionOfFunctions(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	cases := []struct {
		name, old, new string
		have, lack     []string
	}{
		{"program string", `text = "string(len(steps.details))"`, `text = "len(steps.details) > 0 && up|"`,
			[]string{"upper", "filter", "len", "map", "toJSON"}, []string{"now", "jsonencode", "file"}},
		{"template piece", `description = "Compare the plants that match the words."`, `description = "Compare {{ lo|"`,
			[]string{"lower", "filter"}, []string{"jsonencode"}},
		{"HCL", `path = "/plants"`, `path = lo|`, []string{"lower", "file", "jsonencode", "env"}, []string{"filter", "toJSON"}},
		{"HCL in ${ }", `path = "/plants"`, `path = "/plants/${lo|"`, []string{"lower", "file"}, []string{"filter"}},
	}
	for _, tc := range cases {
		got, items := complete(t, c, filepath.Join(dir, "p.hcl"), strings.Replace(plants, tc.old, tc.new, 1))
		for _, want := range tc.have {
			if !slices.Contains(got, want) {
				t.Errorf("%s: %v lacks %s", tc.name, got, want)
			}
		}
		for _, not := range tc.lack {
			if slices.Contains(got, not) {
				t.Errorf("%s: %v has %s", tc.name, got, not)
			}
		}
		for _, it := range items {
			switch {
			case it.Label == "file" && !strings.HasPrefix(it.Detail, "file(path string, ...name string)"):
				t.Errorf("%s: file is %+v", tc.name, it)
			case it.Label == "file" && (it.Documentation == nil || !strings.Contains(it.Documentation.Value, "folder")):
				t.Errorf("%s: file has no doc: %+v", tc.name, it)
			case it.Label == "upper" && tc.name == "program string" && it.Detail != "upper(string) string · expr-lang":
				t.Errorf("%s: upper is %+v", tc.name, it)
			}
		}
	}
	// Prose in a string that is no program gets no function names.
	if got, _ := complete(t, c, filepath.Join(dir, "p.hcl"), strings.Replace(plants, "match the words.", "match the wor|", 1)); len(got) != 0 {
		t.Errorf("prose: %v", got)
	}
}
