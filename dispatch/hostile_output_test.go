package dispatch

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
)

// TestHostileOutputNumbers: a backend's answer with numbers of absurd size
// (1e999999, which the schema library would expand exactly to check it is
// an integer) is refused before the output schema is checked, as such
// numbers in a client's arguments are, with a message naming where.
func TestHostileOutputNumbers(t *testing.T) {
	tool := compileAnswerToolWith(t, all.Registry(), `
backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}
tool "counts" {
  description = "Counts."
  http "api" {
    path = "/counts"
  }
  result {
    structured    = "{'counts': body}"
    output_schema = { type = "object", properties = { counts = { type = "array", items = { type = "integer" } } } }
  }
}`)
	body := []any{json.Number("1"), json.Number("1e999999"), json.Number("2e999999"), json.Number("3")}
	out, err := mapAnswer(&tool.Answer, &adapter.Result{Fields: map[string]any{"status": 200, "body": body}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := checkOutput(context.Background(), discard, tool, out)
	if !strings.Contains(msg, "counts.1") || !strings.Contains(msg, "counts.2") || !strings.Contains(msg, "exponent") {
		t.Errorf("checkOutput = %q; want the absurd numbers at counts.1 and counts.2 refused", msg)
	}
	out, err = mapAnswer(&tool.Answer, &adapter.Result{Fields: map[string]any{"status": 200, "body": []any{json.Number("1"), json.Number("12e3")}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkOutput(context.Background(), discard, tool, out); msg != "" {
		t.Errorf("an ordinary answer: checkOutput = %q", msg)
	}
}
