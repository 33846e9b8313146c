package server

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
)

// compileAnswerTool compiles a one-tool config whose answer rules are
// tested against hand-made adapter results.
func compileAnswerTool(t *testing.T, src string) *dispatch.Tool {
	return compileAnswerToolWith(t, adapter.NewRegistry(), src)
}

func compileAnswerToolWith(t *testing.T, reg *adapter.Registry, src string) *dispatch.Tool {
	t.Helper()
	cfg, diags := lang.LoadSource("answer.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	table, diags := dispatch.Compile(cfg, reg, dispatch.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return table.Tools[0]
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
	got := cut(strings.Repeat("é", 10), 5)
	if !strings.HasPrefix(got, "éé\n[cut: showing the first 4 of 20 bytes") {
		t.Errorf("cut = %q", got)
	}
	if cut("short", 10) != "short" {
		t.Error("short text was cut")
	}
}
