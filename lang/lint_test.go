package lang_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
)

func TestLintBlocks(t *testing.T) {
	cfg, diags := lang.LoadSource("main.hcl", []byte(`
server {
  lint {
    ignore       = ["MCPD101"]
    token_budget = 4000
  }
}
backend "http" "api" {
  base_url = "http://127.0.0.1:3100"
  lint {
    ignore = ["unused-backend"]
  }
}
tool "t" {
  lint {
    ignore = ["MCPD504"]
  }
  result {
    text = "'x'"
  }
}
`))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(cfg.Server.Lint) != 1 || cfg.Server.Lint[0].TokenBudget == nil || len(cfg.Tools[0].Lint) != 1 {
		t.Fatalf("lint blocks not decoded: server %v, tool %v", cfg.Server.Lint, cfg.Tools[0].Lint)
	}
	// The backend's lint block is taken out of the body its adapter decodes.
	if len(cfg.Backends[0].Lint) != 1 {
		t.Fatal("backend lint block not decoded")
	}
	content, d := cfg.Backends[0].Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "base_url"}}})
	if d.HasErrors() || content.Attributes["base_url"] == nil {
		t.Errorf("the adapter's schema does not fit the backend's body: %v", d)
	}
}

func TestLintBlockMistakes(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`tool "t" {
  lint {
    token_budget = 10
  }
  result {
    text = "'x'"
  }
}`, `main.hcl:3,5-17: Misplaced token_budget; token_budget limits the whole tools/list result, so it is set once, in server { lint { token_budget = ... } }, not in the tool "t".`},
		{`prompt "p" {
  lint {}
  lint {}
  message "user" {
    text = "x"
  }
}`, `main.hcl:3,3-7: Duplicate lint block; The prompt "p" already has a lint block`},
		{`backend "http" "api" {
  base_url = "http://127.0.0.1:3100"
  lint {
    ignored = ["MCPD101"]
  }
}`, `main.hcl:4,5-12: Unsupported argument; An argument named "ignored" is not expected here. Did you mean "ignore"?`},
	} {
		_, diags := lang.LoadSource("main.hcl", []byte(c.src))
		if !strings.Contains(diags.Error(), c.want) {
			t.Errorf("got %s\nwant %s", diags.Error(), c.want)
		}
	}
}
