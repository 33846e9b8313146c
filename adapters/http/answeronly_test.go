package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// TestAnswerOnlyMatchesResult: when nothing reads a result's fields, a
// JSON answer is checked rather than decoded; its text is the general
// result's, and its structured content decodes to the same value. Answers
// that are not a 2xx JSON object in valid UTF-8, and backends whose
// credentials must be scrubbed from answers, take the general way.
func TestAnswerOnlyMatchesResult(t *testing.T) {
	bodies := []struct {
		name, contentType, body string
		asJSON                  bool // the structured content comes as JSON text
	}{
		{"object", "application/json", `{"id":3,"name":"Fern","price":304.80,"tags":["a","b"],"big":123456789012345678901234567890}`, true},
		{"pretty", "application/json", "{\n  \"id\": 3,\n  \"name\": \"Ros\u00e9\"\n}", true},
		{"escapes", "application/json; charset=utf-8", `{"s":"\u00e9\ud83d\ude00\n<&>","k\"":null}`, true},
		{"no content type", "", `{"id":1}`, true},
		{"array", "application/json", `[{"id":1},{"id":2}]`, false},
		{"not JSON", "application/json", `{"id":`, false},
		{"invalid UTF-8", "application/json", "{\"s\":\"\xff\"}", false},
		{"text", "text/plain", `{"id":1}`, false},
	}
	for _, b := range bodies {
		t.Run(b.name, func(t *testing.T) {
			srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if b.contentType != "" {
					w.Header().Set("Content-Type", b.contentType)
				} else {
					w.Header()["Content-Type"] = nil // no sniffed type either
				}
				w.Write([]byte(b.body))
			})
			c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
}
http "api" { path = "/x" }`, srv.URL), nil)
			general, err := invokeAnswerOnly(c, false)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := invokeAnswerOnly(c, true)
			if err != nil {
				t.Fatal(err)
			}
			if (fast.StructuredJSON != nil) != b.asJSON {
				t.Errorf("structured content as JSON text: %v, want %v", fast.StructuredJSON != nil, b.asJSON)
			}
			if fast.Text != general.Text || fast.Failure != general.Failure {
				t.Errorf("text %q failure %q, want %q %q", fast.Text, fast.Failure, general.Text, general.Failure)
			}
			if got, want := structuredOf(t, fast), structuredOf(t, general); !cmp.Equal(got, want) {
				t.Errorf("structured content (-want +got):\n%s", cmp.Diff(want, got))
			}
		})
	}
	t.Run("credentials", func(t *testing.T) {
		srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"echo":"` + r.Header.Get("Authorization") + `"}`))
		})
		c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  headers  = { Authorization = "Bearer tok-5521-secret" }
}
http "api" { path = "/x" }`, srv.URL), nil)
		fast, err := invokeAnswerOnly(c, true)
		if err != nil {
			t.Fatal(err)
		}
		if fast.StructuredJSON != nil || fast.Text != `{"echo":"[redacted]"}` {
			t.Errorf("answer %q (structured as JSON %v); want the credential scrubbed the general way", fast.Text, fast.StructuredJSON != nil)
		}
	})
}

func invokeAnswerOnly(c *compiled, answerOnly bool) (*adapter.Result, error) {
	return c.actions[0].Invoke(context.Background(), &adapter.Request{
		Args: args(nil), Static: c.static, AnswerOnly: answerOnly,
		Progress: func(float64, float64, string) {}, Log: func(string, any) {},
	})
}

// structuredOf is a result's structured content as decoded JSON (nil for
// none).
func structuredOf(t *testing.T, r *adapter.Result) any {
	t.Helper()
	var b []byte
	switch {
	case r.StructuredJSON != nil:
		b = r.StructuredJSON
	case r.Structured != nil:
		var err error
		if b, err = json.Marshal(r.Structured); err != nil {
			t.Fatal(err)
		}
	default:
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("structured content is not JSON: %v\n%s", err, b)
	}
	return v
}
