package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

func TestUnusedVariableAndLocal(t *testing.T) {
	src := `
variable "base" {
  default = "http://127.0.0.1:3100"
}
variable "spare" {
  default = "x"
}
locals {
  api    = var.base
  unused = "y"
}
backend "http" "shop" {
  base_url = local.api
}
` + tool("get_item", "", `http "shop" {
    path = "/items/${args.id}"
  }`)
	diags := check(t, src)
	want := []string{"MCPD501 5:10", "MCPD502 10:3"}
	var got []string
	for _, f := range found(diags) {
		if strings.HasPrefix(f, "MCPD50") {
			got = append(got, f)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("findings %q, want %q", got, want)
	}
	// Only the server's lint block can ignore them.
	wantFindings(t, "server {\n  lint {\n    ignore = [\"unused-variable\", \"unused-local\"]\n  }\n}\n"+src, lint.CodeUnusedVariable)
}

// TestUnusedValueUsedOnlyLate: the search for uses stops once every value
// is found used, and not before: a variable used only by the last block,
// after many that use the others, is used, and one used nowhere is not.
func TestUnusedValueUsedOnlyLate(t *testing.T) {
	src := `
variable "base" {
  default = "http://127.0.0.1:3100"
}
variable "late" {
  default = "shelf"
}
variable "spare" {
  default = "x"
}
backend "http" "shop" {
  base_url = var.base
}
`
	for i := range 5 {
		src += tool(fmt.Sprintf("get_item_%d", i), "", `http "shop" {
    path = "/items/${args.id}"
  }`)
	}
	src += tool("get_last", "", `http "shop" {
    path = "/items/${var.late}/${args.id}"
  }`)
	var got []string
	for _, f := range found(check(t, src)) {
		if strings.HasPrefix(f, "MCPD50") {
			got = append(got, f)
		}
	}
	if want := "MCPD501 8:10"; strings.Join(got, ",") != want {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestUnusedInJSONSyntax: a JSON file's references are strings until
// decoded; any "var.<name>" text in it counts as a use, so nothing used is
// reported.
func TestUnusedInJSONSyntax(t *testing.T) {
	src := `{
  "variable": {"base": {"default": "http://127.0.0.1:3100"}, "spare": {"default": "x"}},
  "backend": {"http": {"shop": {"base_url": "${var.base}"}}},
  "tool": {"get_item": {
    "description": "Get one item of the shop by its id.",
    "annotations": {"read_only": true},
    "arg": {"id": {"description": "The item's id."}},
    "http": {"shop": {"path": "/items/${args.id}"}}
  }}
}`
	cfg, diags := lang.LoadSource("main.hcl.json", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	got := found(lint.Check(cfg, tbl))
	if strings.Join(got, ",") != "MCPD501 2:62" {
		t.Errorf("findings %q, want only the unused variable spare", got)
	}
}

func TestUnusedBackend(t *testing.T) {
	src := backends + tool("get_item", "annotations {\n    read_only = true\n  }", `http "shop" {
    path = "/items/${args.id}"
  }`)
	diags := wantFindings(t, src, lint.CodeUnusedBackend, "MCPD503 5:15")
	if d := detailOf(t, diags, lint.CodeUnusedBackend); !strings.Contains(d, `No call uses the backend "db"`) {
		t.Errorf("detail %q", d)
	}
	// Used by a completion call only: used.
	complete := strings.Replace(src, `description = "The item's id."`, `description = "The item's id."
    complete {
      sql "db" {
        query = "SELECT id FROM items WHERE id > ${args.value} LIMIT 10"
      }
    }`, 1)
	wantFindings(t, complete, lint.CodeUnusedBackend)
	wantFindings(t, strings.Replace(src, `read_only = false`, "read_only = false\n  lint {\n    ignore = [\"MCPD503\"]\n  }", 1), lint.CodeUnusedBackend)
}

func TestUnusedArg(t *testing.T) {
	src := backends + `
tool "find_items" {
  description = "Find items by name, colour and size."
  annotations {
    read_only = true
  }
  arg "name" {
    description = "Part of the name."
  }
  arg "colour" {
    description = "A colour, e.g. red."
    validation {
      condition     = args.colour != "none"
      error_message = "Name a colour."
    }
  }
  arg "size" {
    description = "A size, S to XL."
  }
  arg "limit" {
    type        = number
    description = "How many items at most."
  }
  validation {
    condition     = args.size != "XXL"
    error_message = "No such size."
  }
  http "shop" {
    path  = "/items"
    query = { q = args.name }
  }
  error {
    when    = "status == 404 && args.limit > 0"
    message = "Nothing found."
  }
}
`
	// colour and size are only validated, never sent: unused.
	diags := wantFindings(t, src, lint.CodeUnusedArg, "MCPD504 19:7", "MCPD504 26:7")
	if d := detailOf(t, diags, lint.CodeUnusedArg); !strings.Contains(d, `The argument "colour" of tool "find_items" is never read`) {
		t.Errorf("detail %q", d)
	}
	// args as a whole in expr-lang may read any argument (HCL refuses it:
	// an HCL reference names one argument).
	wantFindings(t, strings.Replace(src, `message = "Nothing found."`, `message = "Nothing for {{ toJSON(args) }}."`, 1), lint.CodeUnusedArg)
	// A literal key names one.
	wantFindings(t, strings.Replace(src, "query = { q = args.name }", `query = { q = args.name, c = args["colour"] }`, 1), lint.CodeUnusedArg, "MCPD504 26:7")
	wantFindings(t, strings.Replace(src, `status == 404 && args.limit > 0`, `status == 404 && args.limit > 0 && args['size'] != ''`, 1), lint.CodeUnusedArg, "MCPD504 19:7")
	wantFindings(t, strings.Replace(src, "  http \"shop\" {", "  lint {\n    ignore = [\"unused-arg\"]\n  }\n  http \"shop\" {", 1), lint.CodeUnusedArg)
}

func TestUnusedArgInStepsResultsAndTemplates(t *testing.T) {
	src := backends + `
tool "item_report" {
  description = "Report on one item and its stock level."
  annotations {
    read_only = true
  }
  arg "id" {
    description = "The item's id."
  }
  arg "verbose" {
    type        = bool
    description = "Whether to list every field."
  }
  arg "unit" {
    description = "The unit of the stock level."
  }
  step "item" {
    when = "args.verbose"
    http "shop" {
      path = "/items/${args.id}"
    }
  }
  result {
    text = "string(steps.item.body) + ' in ' + args.unit"
  }
}

resource_template "item" {
  uri_template = "shop://items/{id}"
  description  = "One item of the shop, as JSON."
  arg "id" {
    description = "The item's id."
  }
  http "shop" {
    path = "/items"
  }
}

prompt "describe_item" {
  description = "Describe one item of the shop for a customer."
  arg "id" {
    description = "The item's id."
  }
  arg "tone" {
    description = "How formal to be."
  }
  message "user" {
    text = "Describe item ${args.id}."
  }
}
`
	// The template's id is matched in its URI; the prompt's tone is read
	// by nothing.
	wantFindings(t, src, lint.CodeUnusedArg, "MCPD504 53:7")
}
