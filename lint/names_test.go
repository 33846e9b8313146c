package lint_test

import (
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/lint"
)

// tools writes one described tool per name, each reading its argument.
func tools(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(`tool "` + n + `" {
  description = "Answer with the word given, unchanged."
  arg "word" {
    description = "Any word."
  }
  result {
    text = "args.word"
  }
}
`)
	}
	return b.String()
}

func TestLongName(t *testing.T) {
	long := "find_all_overdue_loans_of_members_by_branch" // 43 characters
	diags := wantFindings(t, tools("search", long), lint.CodeLongName, "MCPD201 10:6")
	if d := detailOf(t, diags, lint.CodeLongName); !strings.Contains(d, "is 43 characters long; keep names to 40") {
		t.Errorf("detail %q", d)
	}
	wantFindings(t, tools("search", "find_overdue_loans_by_branch"), lint.CodeLongName)
	wantFindings(t, "server {\n  lint {\n    ignore = [\"long-name\"]\n  }\n}\n"+tools(long), lint.CodeLongName)
}

func TestUnclearName(t *testing.T) {
	// Generic words, numbered generic words, a bare trailing number and an
	// abbreviation; upload_to_s3 and base64_encode are fine.
	src := tools("run", "query2", "search_2", "get_res", "upload_to_s3", "base64_encode", "search")
	diags := wantFindings(t, src, lint.CodeUnclearName, "MCPD202 1:6", "MCPD202 10:6", "MCPD202 19:6", "MCPD202 28:6")
	for _, want := range []string{
		`"run" says nothing about what it does`,
		`"query2" is a generic word and a number`,
		`"search_2" ends in a number`,
		`"get_res" abbreviates "res"`,
	} {
		if !strings.Contains(describe(diags), want) {
			t.Errorf("no finding says %q:%s", want, describe(diags))
		}
	}
	// An argument may be called query or data: its tool says of what.
	wantFindings(t, strings.ReplaceAll(tools("search_books"), "word", "query"), lint.CodeUnclearName)
	// Ignored in the one tool.
	wantFindings(t, strings.Replace(tools("run"), "  result {", "  lint {\n    ignore = [\"MCPD202\"]\n  }\n  result {", 1), lint.CodeUnclearName)
}

func TestMixedNameStyle(t *testing.T) {
	src := tools("search_books", "list_loans", "renewLoan", "return-book")
	diags := wantFindings(t, src, lint.CodeMixedNameStyle, "MCPD203 19:6", "MCPD203 28:6")
	for _, want := range []string{`write it as "renew_loan"`, `write it as "return_book"`, "are snake_case (2 of 4)"} {
		if !strings.Contains(describe(diags), want) {
			t.Errorf("no finding says %q:%s", want, describe(diags))
		}
	}
	// Ignored in the tools that break the norm.
	ignore := "  lint {\n    ignore = [\"mixed-name-style\"]\n  }\n  result {"
	mixed := tools("search_books", "list_loans") + strings.Replace(tools("renewLoan"), "  result {", ignore, 1) + strings.Replace(tools("return-book"), "  result {", ignore, 1)
	wantFindings(t, mixed, lint.CodeMixedNameStyle)
	// One style, and single words that fit any style: nothing.
	wantFindings(t, tools("search_books", "list_loans", "renew"), lint.CodeMixedNameStyle)
	// Argument names are compared among themselves.
	args := strings.Replace(tools("search_books"), `arg "word" {`, `arg "firstName" {
    description = "A first name."
  }
  arg "last_name" {
    description = "A family name."
  }
  arg "word" {`, 1)
	args = strings.Replace(args, `"args.word"`, `"args.word + args.firstName + args.last_name"`, 1)
	// A tie goes to the style seen first.
	wantFindings(t, args+tools("find_user_by_name"), lint.CodeMixedNameStyle, "MCPD203 6:7")
}

func TestConfusableNames(t *testing.T) {
	diags := wantFindings(t, tools("get_user", "getUser", "get_order"), lint.CodeConfusableNames, "MCPD204 10:6")
	if d := detailOf(t, diags, lint.CodeConfusableNames); !strings.Contains(d, `"getUser" differs from the tool "get_user"`) {
		t.Errorf("detail %q", d)
	}
	wantFindings(t, tools("get_user", "get_users"), lint.CodeConfusableNames)
	wantFindings(t, "server {\n  lint {\n    ignore = [\"MCPD204\", \"MCPD203\"]\n  }\n}\n"+tools("get_user", "getUser"), lint.CodeConfusableNames)
}
