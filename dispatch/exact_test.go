package dispatch

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
)

// exactBody is an API answer whose numbers only their digits hold: a
// trailing zero, more digits than a double keeps, an integer past 2^64.
func exactBody() map[string]any {
	return map[string]any{
		"price": json.Number("304.80"),
		"big":   json.Number("12345678901234567.89"),
		"huge":  json.Number("123456789012345678901234567890"),
		"items": []any{
			map[string]any{"sku": "a", "price": json.Number("0.10")},
			map[string]any{"sku": "b", "price": json.Number("99999999999999999.99")},
		},
		"count": 2,
	}
}

const exactHTTPTool = `
backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}
tool "price" {
  description = "A price."
  http "api" {
    path = "/price"
  }
  error {
    when    = "body.price > 1000"
    message = "Too expensive: {{ body.price }}."
  }
  result {
    structured = %s
    text       = %s
  }
}`

func TestExactNumbersPassThroughExpressions(t *testing.T) {
	tests := []struct {
		name, structured, text string
		wantJSON, wantText     string
	}{
		{"path selection", `"body"`, `"{{ body.price }} {{ body.big }} {{ body.huge }}"`,
			`{"big":12345678901234567.89,"count":2,"huge":123456789012345678901234567890,"items":[{"price":0.10,"sku":"a"},{"price":99999999999999999.99,"sku":"b"}],"price":304.80}`,
			"304.80 12345678901234567.89 123456789012345678901234567890"},
		{"field access and index", `"body.items[1]"`, `"{{ body.items[1].price }}"`,
			`{"price":99999999999999999.99,"sku":"b"}`, "99999999999999999.99"},
		{"map and filter pass values through", `"map(filter(body.items, .price > 1), .price)"`, `"{{ map(body.items, .price) }}"`,
			`[99999999999999999.99]`, "[0.10,99999999999999999.99]"},
		{"built object", `"{'p': body.price, 'n': body.count}"`, `"{{ string(body.price) }}|{{ toJSON(body.big) }}"`,
			`{"n":2,"p":304.80}`, "304.80|12345678901234567.89"},
		{"arithmetic converts", `"{'sum': body.price + 1, 'neg': -body.price, 'total': sum(body.items, .price) > 1}"`,
			`"{{ body.price * 2 }} {{ body.count + 1 }}"`,
			`{"neg":-304.8,"sum":305.8,"total":true}`, "609.6 3"},
		{"comparisons see numbers", `"{'eq': body.price == 304.8, 'lt': body.price < 305, 'in': body.price in [304.8], 'max': max(body.price, 1)}"`,
			`"{{ body.price >= 304.80 ? 'yes' : 'no' }}"`,
			`{"eq":true,"in":true,"lt":true,"max":304.8}`, "yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := fmt.Sprintf(exactHTTPTool, tt.structured, tt.text)
			tool := compileAnswerToolWith(t, all.Registry(), src)
			res := &adapter.Result{Fields: map[string]any{"status": 200, "body": exactBody()}}
			out, err := mapAnswer(&tool.Answer, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := out.structuredJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.wantJSON {
				t.Errorf("structured = %s\nwant         %s", b, tt.wantJSON)
			}
			if out.text != tt.wantText {
				t.Errorf("text = %q, want %q", out.text, tt.wantText)
			}
		})
	}
}

func TestExactNumbersInErrorMessages(t *testing.T) {
	tool := compileAnswerToolWith(t, all.Registry(), fmt.Sprintf(exactHTTPTool, `"body"`, `"'ok'"`))
	body := exactBody()
	body["price"] = json.Number("1000.50")
	out, err := mapAnswer(&tool.Answer, &adapter.Result{Fields: map[string]any{"status": 200, "body": body}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !out.isError || out.text != "Too expensive: 1000.50." {
		t.Errorf("got (%q, %v), want the error rule's message with 1000.50", out.text, out.isError)
	}
}

func TestExactNumbersFromSQLRows(t *testing.T) {
	tool := compileAnswerToolWith(t, all.Registry(), `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
tool "total" {
  description = "A total."
  sql "db" {
    query = "SELECT total FROM orders"
  }
  result {
    structured = "rows[0]"
    text       = "{{ rows[0].total }} of {{ len(rows) }}; over 300: {{ rows[0].total > 300 }}"
  }
}`)
	rows := []map[string]any{{"total": json.Number("304.80"), "id": int64(1)}, {"total": json.Number("12345678901234567.89"), "id": int64(2)}}
	res := &adapter.Result{Fields: map[string]any{"rows": rows, "columns": []string{"id", "total"}, "rows_affected": 0}}
	out, err := mapAnswer(&tool.Answer, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := out.structuredJSON()
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"id":1,"total":304.80}` {
		t.Errorf("structured = %s, want the row as the database wrote it", b)
	}
	if want := "304.80 of 2; over 300: true"; out.text != want {
		t.Errorf("text = %q, want %q", out.text, want)
	}
}

// TestHugeExactNumbersDoNotCrash: an API's 1e400 is passed on as written;
// arithmetic on it gives an infinity or NaN, which a template prints and
// structured output refuses with an error, never a crash.
func TestHugeExactNumbersDoNotCrash(t *testing.T) {
	tool := compileAnswerToolWith(t, all.Registry(), fmt.Sprintf(exactHTTPTool, `"body.huge"`, `"{{ body.huge }} {{ body.huge * 2 }} {{ body.huge - body.huge }}"`))
	body := exactBody()
	body["huge"] = json.Number("1e400")
	out, err := mapAnswer(&tool.Answer, &adapter.Result{Fields: map[string]any{"status": 200, "body": body}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "1e400 +Inf NaN"; out.text != want {
		t.Errorf("text = %q, want %q", out.text, want)
	}
	if b, err := out.structuredJSON(); err != nil || string(b) != "1e400" {
		t.Errorf("structured = %s (%v), want 1e400 as written", b, err)
	}
	tool = compileAnswerToolWith(t, all.Registry(), fmt.Sprintf(exactHTTPTool, `"{'x': body.huge * 2}"`, `"'ok'"`))
	out, err = mapAnswer(&tool.Answer, &adapter.Result{Fields: map[string]any{"status": 200, "body": body}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.structuredJSON(); err == nil {
		t.Error("an infinite structured value was written as JSON")
	}
}

func TestFormatValueNonFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, want := formatValue(f), strconv.FormatFloat(f, 'g', -1, 64); got != want {
			t.Errorf("formatValue(%v) = %q, want %q", f, got, want)
		}
	}
}
