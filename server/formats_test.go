package server

import (
	"strings"
	"testing"
)

// TestFormatErrorsSayTheShape: a value that does not match a date or time
// format is answered with how such a value is written, never with Go's
// reference layout ("2006-01-02").
func TestFormatErrorsSayTheShape(t *testing.T) {
	s := staticServer(t, `
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
}`)
	for args, want := range map[string]string{
		`{"day":"2026-13-01"}`:                        "YYYY-MM-DD, for example 2026-11-03 (month out of range)",
		`{"day":"03/11/2026"}`:                        "'03/11/2026' is not a valid date; write it as YYYY-MM-DD",
		`{"day":"2026-11-03","at":"2026-11-03 9:30"}`: "is not a valid date-time; write it as YYYY-MM-DDThh:mm:ss",
	} {
		res := callTool(t, s, "book", args)
		text := res.Content[0].Text
		if !res.IsError || !strings.Contains(text, want) {
			t.Errorf("%s: got %q, want it to say %q", args, text, want)
		}
		if strings.Contains(text, "2006") || strings.Contains(text, "parsing time") {
			t.Errorf("%s: Go's time layout leaks: %q", args, text)
		}
	}
}
