package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// compileDetails compiles src and returns each diagnostic as
// "line: summary: detail".
func compileDetails(t *testing.T, src string) []string {
	t.Helper()
	cfg, diags := lang.LoadSource("t.hcl", []byte(src))
	if !cfg.Incomplete {
		_, d := table.Compile(cfg, all.Registry(), table.Options{})
		diags = append(diags, d...)
	}
	var out []string
	for _, d := range diags {
		line := 0
		if d.Subject != nil {
			line = d.Subject.Start.Line
		}
		out = append(out, fmt.Sprintf("%02d: %s: %s", line, d.Summary, d.Detail))
	}
	return out
}

// wantDetails requires one diagnostic per entry holding every given text.
func wantDetails(t *testing.T, got []string, want ...[]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("want %d diagnostics, got %d:\n%s", len(want), len(got), strings.Join(got, "\n"))
	}
	for i, texts := range want {
		for _, s := range texts {
			if !strings.Contains(got[i], s) {
				t.Errorf("diagnostic %d lacks %q:\n%s", i, s, got[i])
			}
		}
	}
}

// TestAnswerNamesSuggested: a misspelt answer key or field gets the same
// "Did you mean" as a misspelt argument, in expr-lang and in HCL.
func TestAnswerNamesSuggested(t *testing.T) {
	got := compileDetails(t, `
tool "summarise" {
  description = "Summarise."
  sample {
    key    = "summary"
    prompt = "Summarise this."
  }
  result {
    text = "sample.txt"
  }
}
tool "summarise2" {
  description = "Summarise."
  sample {
    key    = "summary"
    prompt = "Summarise this."
  }
  result {
    text = "answers.sumary.text"
  }
}
prompt "plan" {
  elicit {
    key              = "context"
    message          = "About?"
    requested_schema = { type = "object", properties = { topic = { type = "string" } } }
  }
  message "user" {
    text = "${answers.contxt.content.topic} ${answers.context.contnt.topic}"
  }
}`)
	wantDetails(t, got,
		[]string{"09: Invalid expression", "Did you mean sample.text?"},
		[]string{"19: Invalid expression", "Did you mean answers.summary?"},
		[]string{"29: Reference to unknown question key", "Did you mean answers.context?"},
		[]string{"29: Reference to unknown field", "Did you mean answers.context.content?"},
	)
}

// TestResourceArgsSayWhatToDo: a resource takes no arguments; the message
// says to use a resource template, not to declare an arg block.
func TestResourceArgsSayWhatToDo(t *testing.T) {
	got := compileDetails(t, `
backend "http" "api" {
  base_url = "http://127.0.0.1:1"
}
resource "today" {
  uri = "notes://today"
  http "api" {
    path = "/notes/${args.day}"
  }
}`)
	wantDetails(t, got, []string{"08: Reference to undeclared argument", `uri_template = "notes://today/{name}"`})
	if strings.Contains(got[0], "arg block") {
		t.Errorf("a resource cannot declare arg blocks: %s", got[0])
	}
}

// TestMessageGrammar: articles and plurals built from values read right.
func TestMessageGrammar(t *testing.T) {
	got := compileDetails(t, `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
tool "t" {
  description = "d"
  http "db" {
    path = "/x"
  }
}
prompt "p" {
  message {
    text = "x"
  }
}`)
	joined := strings.Join(got, "\n")
	for _, want := range []string{"is an sql backend", "so an http call", "A message block takes 1 label (role)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q in:\n%s", want, joined)
		}
	}
	for _, bad := range []string{"a sql", "a http", "1 labels"} {
		if strings.Contains(joined, bad) {
			t.Errorf("%q in:\n%s", bad, joined)
		}
	}
}

// TestSuggestionsAreValidNames: "Did you mean" never offers a name the
// file refuses where it is declared.
func TestSuggestionsAreValidNames(t *testing.T) {
	got := compileDetails(t, `
variable "9lives" {
  type = string
}
backend "http" "my api" {
  base_url = "http://127.0.0.1:1"
}
locals {
  x = var["9live"]
}
tool "t" {
  description = "d"
  arg "start-date" {
    type = string
  }
  http "my apj" {
    path = "/x/${args.start_date}"
  }
}
tool "u" {
  description = "d"
  arg "start-date" {
    type = string
  }
  result {
    text = "args.start_dat"
  }
}`)
	joined := strings.Join(got, "\n")
	for _, bad := range []string{"9lives?", "\"my api\"?", "args.start-date", "Declared: 9lives"} {
		if strings.Contains(joined, bad) {
			t.Errorf("suggests a refused name (%s):\n%s", bad, joined)
		}
	}
	if !strings.Contains(joined, "Invalid argument name") || !strings.Contains(joined, "Invalid variable name") {
		t.Errorf("the refused names are not reported:\n%s", joined)
	}
}

// TestDefaultFormatSaysTheShape: a default that does not match its date
// format says how a date is written, not Go's layout.
func TestDefaultFormatSaysTheShape(t *testing.T) {
	got := compileDetails(t, `
tool "t" {
  description = "d"
  arg "day" {
    type    = string
    format  = "date"
    default = "3 Nov 2026"
  }
  result {
    text = "'ok'"
  }
}`)
	wantDetails(t, got, []string{"07: Invalid default value", "'3 Nov 2026' is not a valid date; write it as YYYY-MM-DD"})
	if strings.Contains(got[0], "2006") || strings.Contains(got[0], "parsing time") {
		t.Errorf("Go's time layout leaks: %s", got[0])
	}
}

// TestSchemaErrorTextOfArguments: the text of a format violation found
// when a call's arguments are validated says how the value is written.
func TestSchemaErrorTextOfArguments(t *testing.T) {
	cfg, diags := lang.LoadSource("t.hcl", []byte(`
tool "book" {
  description = "Books a day."
  arg "day" {
    type   = string
    format = "date"
  }
  arg "at" {
    type     = string
    format   = "date-time"
    required = false
  }
  result {
    text = "'ok'"
  }
}`))
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if diags = append(diags, d...); diags.HasErrors() {
		t.Fatal(diags)
	}
	v, err := tbl.Tools[0].Args.Validator()
	if err != nil {
		t.Fatal(err)
	}
	for value, want := range map[string]string{
		`{"day":"2026-13-01"}`:                        "'2026-13-01' is not a valid date; write it as YYYY-MM-DD, for example 2026-11-03 (month out of range)",
		`{"day":"03/11/2026"}`:                        "'03/11/2026' is not a valid date; write it as YYYY-MM-DD",
		`{"day":"2026-11-03","at":"2026-11-03 9:30"}`: "is not a valid date-time; write it as YYYY-MM-DDThh:mm:ss",
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(value))
		err := v.Validate(inst)
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%s: no validation error: %v", value, err)
		}
		var texts []string
		for leaves := []*jsonschema.ValidationError{ve}; len(leaves) > 0; leaves = leaves[1:] {
			if len(leaves[0].Causes) == 0 {
				texts = append(texts, table.SchemaErrorText(leaves[0].ErrorKind))
			}
			leaves = append(leaves, leaves[0].Causes...)
		}
		got := strings.Join(texts, "\n")
		if !strings.Contains(got, want) || strings.Contains(got, "2006") || strings.Contains(got, "parsing time") {
			t.Errorf("%s: got %q, want it to say %q and not Go's layout", value, got, want)
		}
	}
}

// TestAnswersAreAmongTheRoots: a prompt that asks questions lists
// answers among what its messages can refer to, and suggests it.
func TestAnswersAreAmongTheRoots(t *testing.T) {
	got := compileDetails(t, `
prompt "plan" {
  elicit {
    key              = "context"
    message          = "About?"
    requested_schema = { type = "object", properties = { topic = { type = "string" } } }
  }
  message "user" {
    text = "${answer.context.content.topic}"
  }
}`)
	wantDetails(t, got, []string{"09: Unknown reference", "answers.<question_key>", `Did you mean "answers"?`})
}

// TestSameBadDefaultReportedEachTime: arguments with the same schema and
// the same default are checked once, and each is still reported where it
// is written; the same schema with a valid default is not.
func TestSameBadDefaultReportedEachTime(t *testing.T) {
	tool := func(name, def string) string {
		return fmt.Sprintf(`
tool %q {
  description = "d"
  arg "n" {
    type    = integer
    maximum = 30
    default = %s
  }
  result {
    text = "'ok'"
  }
}`, name, def)
	}
	got := compileDetails(t, tool("a", "60")+tool("b", "60")+tool("c", "20")+tool("d", "31"))
	wantDetails(t, got,
		[]string{"07: Invalid default value", "maximum: got 60, want 30"},
		[]string{"18: Invalid default value", "maximum: got 60, want 30"},
		[]string{"40: Invalid default value", "maximum: got 31, want 30"})
}
