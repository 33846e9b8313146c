package lint_test

import (
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/lint"
)

func TestMissingDescription(t *testing.T) {
	src := `
tool "search_books" {
  arg "title" {
    type = string
  }
  result {
    text = "args.title"
  }
}
resource "policy" {
  uri  = "policy://loans"
  text = "Two weeks."
}
prompt "plan_reading" {
  arg "topic" {
    description = "A subject, such as rivers."
  }
  message "user" {
    text = "Plan a reading list on ${args.topic}."
  }
}
`
	diags := wantFindings(t, src, lint.CodeMissingDescription, "MCPD101 2:6", "MCPD101 3:7", "MCPD101 10:10", "MCPD101 14:8")
	if d := detailOf(t, diags, lint.CodeMissingDescription); !strings.Contains(d, `Add description = "..."`) {
		t.Errorf("the message does not say what to do: %s", d)
	}
	// Described: nothing.
	wantFindings(t, `
tool "search_books" {
  description = "Find books by words from their title."
  arg "title" {
    description = "Words from the title."
  }
  result {
    text = "args.title"
  }
}`, lint.CodeMissingDescription)
	// Ignored by the tool's lint block, and server-wide.
	wantFindings(t, `
tool "search_books" {
  lint {
    ignore = ["MCPD101"]
  }
  arg "title" {}
  result {
    text = "args.title"
  }
}`, lint.CodeMissingDescription)
	// In a resource, a template and a prompt.
	wantFindings(t, `
resource "policy" {
  uri  = "policy://loans"
  text = "Two weeks."
  lint {
    ignore = ["MCPD101"]
  }
}
resource_template "book" {
  uri_template = "books://{isbn}"
  text         = "Book ${args.isbn}"
  lint {
    ignore = ["MCPD101"]
  }
}
prompt "plan_reading" {
  lint {
    ignore = ["MCPD101"]
  }
  arg "topic" {}
  message "user" {
    text = "Plan a reading list on ${args.topic}."
  }
}`, lint.CodeMissingDescription)
	wantFindings(t, `
server {
  lint {
    ignore = ["missing-description"]
  }
}
tool "search_books" {
  arg "title" {}
  result {
    text = "args.title"
  }
}`, lint.CodeMissingDescription)
}

func TestShortDescription(t *testing.T) {
	src := `
tool "search_books" {
  description = "Search books."
  arg "title" {
    description = "Title."
  }
  arg "author" {
    description = "Author's surname."
  }
  result {
    text = "args.title + args.author"
  }
}
`
	diags := wantFindings(t, src, lint.CodeShortDescription, "MCPD102 3:17", "MCPD102 5:19")
	if d := detailOf(t, diags, lint.CodeShortDescription); !strings.Contains(d, "has 2 words; write at least 4") {
		t.Errorf("detail %q", d)
	}
	wantFindings(t, strings.Replace(src, `"Search books."`, `"Search books by title and author."`, 1), lint.CodeShortDescription, "MCPD102 5:19")
	wantFindings(t, strings.Replace(src, `  result {`, "  lint {\n    ignore = [\"short-description\"]\n  }\n  result {", 1), lint.CodeShortDescription)
}
