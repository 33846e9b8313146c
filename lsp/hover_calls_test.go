package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestHoverOfStepsAndFunctions(t *testing.T) {
	c := startClient(t, newServer())
	c.initialize()
	src := strings.Replace(plants, `path = "/plants"`, `path = lower("/PLANTS")`, 1)
	uri := c.open(filepath.Join(t.TempDir(), "p.hcl"), src)
	hover := func(marker string, offset int) string {
		var h *hoverResult
		c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": at(t, src, marker, offset)}, &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	search := "**steps.search** calls `http \"shop\"`\n\n```hcl\npath = lower(\"/PLANTS\")\n```\n\nAnswer: `status`, `headers`, `body`, `text`"
	if got := hover("steps.search.body", 8); got != search {
		t.Errorf("hover on steps.search:\n%s\nwant:\n%s", got, search)
	}
	if got := hover("steps.details))", 9); !strings.Contains(got, `path = "/plants/${each.value.id}"`) || !strings.Contains(got, "one per item of `for_each`") {
		t.Errorf("hover on steps.details: %q", got)
	}
	if got := hover(`lower("/PLANTS")`, 2); !strings.HasPrefix(got, "```\nlower(str string)\n```\n\nfunction: Returns the given string") {
		t.Errorf("hover on lower: %q", got)
	}
	if got := hover("len(steps.details)", 1); got != "```\nlen(...)\n```\n\nexpr-lang builtin" {
		t.Errorf("hover on len in a program: %q", got)
	}
	if got := hover(`string(len`, 2); !strings.HasPrefix(got, "```\nstring(") || !strings.Contains(got, "expr-lang") {
		t.Errorf("hover on string in a program: %q", got)
	}
	if got := hover("Compare the plants", 2); got != "" {
		t.Errorf("hover on prose: %q", got)
	}
}
