package dispatch

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// compileAnswerTool compiles a one-tool config whose answer rules are
// tested against hand-made adapter results.
func compileAnswerTool(t *testing.T, src string) *table.Tool {
	return compileAnswerToolWith(t, adapter.NewRegistry(), src)
}

func compileAnswerToolWith(t *testing.T, reg *adapter.Registry, src string) *table.Tool {
	t.Helper()
	cfg, diags := lang.LoadSource("answer.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, reg, table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl.Tools[0]
}

func TestMapAnswerStaticTool(t *testing.T) {
	tool := compileAnswerTool(t, `
tool "greet" {
  description = "Greets."
  arg "name" {
    type = string
  }
  arg "times" {
    type    = integer
    default = 2
  }
  result {
    structured = "{'greeting': 'Hello ' + args.name, 'times': args.times}"
    text       = "Hello {{ args.name }} x{{ args.times }}"
  }
}`)
	out, err := mapAnswer(&tool.Answer, nil, map[string]any{"name": "Ada", "times": int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	want := &outcome{text: "Hello Ada x2", structured: map[string]any{"greeting": "Hello Ada", "times": 2}}
	if diff := cmp.Diff(want, out, cmp.AllowUnexported(outcome{})); diff != "" {
		t.Errorf("mapAnswer mismatch (-want +got):\n%s", diff)
	}
}

func TestMapAnswerRulesAndFailure(t *testing.T) {
	tool := compileAnswerToolWith(t, all.Registry(), `
backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}
tool "checkout" {
  description = "Checks out."
  arg "isbn" {
    type = string
  }
  http "api" {
    path = "/loans"
  }
  error {
    when    = "status == 409"
    message = "No copies of '{{ body?.title ?? args.isbn }}' are available."
  }
}`)
	tests := []struct {
		name  string
		res   *adapter.Result
		want  string
		isErr bool
	}{
		{"rule matches", &adapter.Result{Fields: map[string]any{"status": 409, "body": map[string]any{"title": "Maps of Small Rivers"}}},
			"No copies of 'Maps of Small Rivers' are available.", true},
		{"rule with missing body", &adapter.Result{Fields: map[string]any{"status": 409}}, "No copies of '978' are available.", true},
		{"failure without rule", &adapter.Result{Fields: map[string]any{"status": 500}, Failure: "The API answered 500."}, "The API answered 500.", true},
		{"success", &adapter.Result{Fields: map[string]any{"status": 200}, Text: "ok"}, "ok", false},
	}
	for _, tt := range tests {
		out, err := mapAnswer(&tool.Answer, tt.res, map[string]any{"isbn": "978"})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if out.text != tt.want || out.isError != tt.isErr {
			t.Errorf("%s: got (%q, %v), want (%q, %v)", tt.name, out.text, out.isError, tt.want, tt.isErr)
		}
	}
}

func TestCutKeepsCharacters(t *testing.T) {
	got := cut(strings.Repeat("é", 100), 90)
	if !strings.HasPrefix(got, "ééééééééé\n[cut: showing the first 18 of 200 bytes") || len(got) > 90 {
		t.Errorf("cut = %q (%d bytes)", got, len(got))
	}
	if cut("short", 10) != "short" {
		t.Error("short text was cut")
	}
}

func TestMaxItemsCutsListsAndSaysSo(t *testing.T) {
	tool := compileAnswerTool(t, `
tool "list" {
  description = "Lists."
  arg "n" {
    type = integer
  }
  result {
    structured = "{'items': 1..args.n, 'name': 'x'}"
    text       = "'done'"
    max_items  = 3
  }
}`)
	out, err := mapAnswer(&tool.Answer, nil, map[string]any{"n": 10})
	if err != nil {
		t.Fatal(err)
	}
	got := out.structured.(map[string]any)
	if items := got["items"].([]int); len(items) != 3 || got["truncated"] != true {
		t.Errorf("structured = %v, want 3 items and truncated", got)
	}
	if !strings.Contains(out.text, "limited to 3 items (the longest had 10)") {
		t.Errorf("text = %q lacks the cut notice", out.text)
	}
	if tool.OutputSchema == nil || tool.OutputSchema["required"] == nil {
		t.Errorf("no output schema inferred from the object literal: %v", tool.OutputSchema)
	}
}

// TestBothCutsSaySo: when max_bytes cuts the text of an answer whose
// lists max_items cut too, both notices reach the model, within max_bytes.
func TestBothCutsSaySo(t *testing.T) {
	tool := compileAnswerTool(t, `
tool "list" {
  description = "Lists."
  result {
    structured = "{'items': 1..500}"
    max_items  = 300
    max_bytes  = 400
  }
}`)
	out, err := mapAnswer(&tool.Answer, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.text) > 400 || !strings.Contains(out.text, "limited to 300 items (the longest had 500)") || !strings.Contains(out.text, "[cut: showing the first") {
		t.Errorf("text (%d bytes) = %q; want both notices within 400 bytes", len(out.text), out.text)
	}
}

func TestDeclaredOutputSchemaIsEnforced(t *testing.T) {
	tool := compileAnswerTool(t, `
tool "count" {
  description = "Counts."
  arg "n" {
    type = integer
  }
  result {
    structured    = "{'count': args.n > 5 ? 'many' : args.n}"
    output_schema = { type = "object", properties = { count = { type = "integer" } }, required = ["count"] }
  }
}`)
	for n, wantErr := range map[int]bool{3: false, 9: true} {
		out, err := mapAnswer(&tool.Answer, nil, map[string]any{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		msg := checkOutput(context.Background(), discard, tool, out)
		if (msg != "") != wantErr {
			t.Errorf("n=%d: checkOutput = %q, want error %v", n, msg, wantErr)
		}
		if wantErr && !strings.Contains(msg, "field count") {
			t.Errorf("n=%d: message %q does not name the field", n, msg)
		}
	}
}

// TestUnencodableAnswerIsAnError: an expression may produce a value JSON
// cannot hold (an infinity); the call answers with an error result, and
// the server goes on.
func TestUnencodableAnswerIsAnError(t *testing.T) {
	for _, result := range []string{
		`structured = "{'ratio': 1 / 0}"`,
		`structured = "{'ratio': 1 / 0}"
    text       = "'fine'"`,
	} {
		tbl := compileTableForCalls(t, `
tool "ratio" {
  description = "Divides by zero."
  result {
    `+result+`
  }
}`)
		res := callTableTool(t, tbl, "ratio", "")
		if !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "cannot be written as JSON") {
			t.Errorf("%s: got %+v, want an error result saying the answer cannot be written as JSON", result, res)
		}
	}
}

// compileTableForCalls compiles a config without backends.
func compileTableForCalls(t *testing.T, src string) *table.Table {
	t.Helper()
	cfg, diags := lang.LoadSource("test.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl
}

// callTableTool calls a tool of table with JSON arguments, as the server
// would, without the protocol.
func callTableTool(t *testing.T, tbl *table.Table, name, args string) *ToolResult {
	t.Helper()
	res, err := CallTool(context.Background(), tbl, name, &CallInput{Arguments: []byte(args)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A program that returns the arguments whole shows them by their names,
// in the structured content and through toJSON.
func TestWholeArgsKeepTheirNames(t *testing.T) {
	tbl := compileTableForCalls(t, `
tool "echo_args" {
  description = "Returns its arguments."
  arg "name" {
    type = string
  }
  arg "tags" {
    type = list(string)
  }
  result {
    structured = "args"
    text       = "toJSON(args)"
  }
}`)
	res := callTableTool(t, tbl, "echo_args", `{"name":"ada","tags":["x"]}`)
	want := `{"name":"ada","tags":["x"]}`
	if string(res.Structured) != want {
		t.Errorf("structured content %s, want %s", res.Structured, want)
	}
	if len(res.Content) != 1 || strings.Join(strings.Fields(res.Content[0].Text), "") != want {
		t.Errorf("text %+v, want %s", res.Content, want)
	}
}
