package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// callTool is callJSON returning the result itself.
func callTool(t *testing.T, s *Server, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.Request{Method: "tools/call", Notifier: nopNotifier{}},
		&mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestNumbersBeyond64Bits: JSON Schema's numbers are unbounded, but an
// integer outside int64 would wrap around in expressions and drivers, and
// a number outside float64 become infinite; such values are refused with
// the other argument problems, naming the argument.
func TestNumbersBeyond64Bits(t *testing.T) {
	s := staticServer(t, `
tool "get" {
  description = "Gets."
  arg "id" {
    type = integer
  }
  arg "ids" {
    type     = list(integer)
    required = false
  }
  arg "ratio" {
    type     = number
    required = false
  }
  result {
    text = "'id ' + string(args.id)"
  }
}`)
	for args, want := range map[string]string{
		`{"id":9223372036854775808}`:              "argument id: 9223372036854775808 is too large",
		`{"id":-9223372036854775809}`:             "argument id: -9223372036854775809 is too large",
		`{"id":1e40}`:                             "argument id: 1e40 is too large",
		`{"id":1,"ids":[2,99999999999999999999]}`: "argument ids.1: 99999999999999999999 is too large",
		`{"id":1,"ratio":1e400}`:                  "argument ratio: 1e400 is too large; give a number between",
	} {
		res := callTool(t, s, "get", args)
		if !res.IsError || !strings.Contains(res.Content[0].Text, want) {
			t.Errorf("%s: got %+v, want an error saying %q", args, res, want)
		}
	}
	for args, want := range map[string]string{
		`{"id":9223372036854775807}`:  "id 9223372036854775807",
		`{"id":-9223372036854775808}`: "id -9223372036854775808",
		`{"id":1e3}`:                  "id 1000",
	} {
		res := callTool(t, s, "get", args)
		if res.IsError || res.Content[0].Text != want {
			t.Errorf("%s: got %+v, want %q", args, res, want)
		}
	}
}

// TestAbsurdNumbersRefusedFirst: a number with an absurd exponent or digit
// count (1e999999 costs the schema validator's exact arithmetic tens of
// milliseconds) is refused before any schema work, naming the argument,
// wherever it is nested and whatever type the argument has.
func TestAbsurdNumbersRefusedFirst(t *testing.T) {
	s := staticServer(t, `
tool "sum" {
  description = "Sums."
  arg "nums" {
    type = list(integer)
  }
  arg "extra" {
    type     = any
    required = false
  }
  result {
    text = "'ok'"
  }
}`)
	long := strings.Repeat("7", 101)
	for args, want := range map[string]string{
		`{"nums":[1e999999]}`:                         "argument nums.0: 1e999999 has an exponent beyond ±400",
		`{"nums":[1,2,-1E-401]}`:                      "argument nums.2: -1E-401 has an exponent beyond ±400",
		`{"nums":[` + long + `]}`:                     "argument nums.0: " + long[:37] + "... has more than 100 digits",
		`{"nums":[1],"extra":{"a":[0.` + long + `]}}`: "argument extra.a.0: 0." + long[:35] + "... has more than 100 digits",
		`{"nums":[1],"extra":1e99999999999999999999}`: "argument extra: 1e99999999999999999999 has an exponent beyond ±400",
	} {
		res := callTool(t, s, "sum", args)
		if !res.IsError || !strings.Contains(res.Content[0].Text, want) {
			t.Errorf("%s: got %+v, want an error saying %q", args, res, want)
		}
		if strings.Contains(res.Content[0].Text, "too large") {
			t.Errorf("%s: the schema ran on an absurd number: %s", args, res.Content[0].Text)
		}
	}
	for _, ok := range []string{`{"nums":[1e3, 1E+18]}`, `{"nums":[1],"extra":[1e-400, 1e400, 0.` + long[:99] + `]}`} {
		if res := callTool(t, s, "sum", ok); res.IsError {
			t.Errorf("%s: got %+v, want it accepted", ok, res)
		}
	}
	many := `{"nums":[` + strings.Repeat("1e999999,", 99) + `1e999999]}`
	text := callTool(t, s, "sum", many).Content[0].Text
	if n := strings.Count(text, "\n"); n > 22 || !strings.Contains(text, "and 80 more") {
		t.Errorf("100 absurd numbers: %d lines, want 20 and a count of the rest:\n%s", n, text)
	}
}

// TestViolationListCapped: an invalid call lists the first problems in
// the order of the arguments (nums.2 before nums.10) and counts the rest,
// instead of a line for each of 100,000 wrong items.
func TestViolationListCapped(t *testing.T) {
	s := staticServer(t, `
tool "sum" {
  description = "Sums."
  arg "nums" {
    type = list(integer)
  }
  result {
    text = "'ok'"
  }
}`)
	text := callTool(t, s, "sum", `{"nums":[`+strings.Repeat(`"x",`, 99999)+`"x"]}`).Content[0].Text
	lines := strings.Split(text, "\n")
	if len(lines) != 22 || lines[len(lines)-1] != "- and 99980 more" {
		t.Fatalf("got %d lines ending %q, want a heading, 20 problems and \"- and 99980 more\"", len(lines), lines[len(lines)-1])
	}
	for i, line := range lines[1:21] {
		if want := fmt.Sprintf("- argument nums.%d: got string, want integer", i); line != want {
			t.Errorf("line %d = %q, want %q", i+1, line, want)
		}
	}
}

// TestValidationOfReportedArgument: a validation block about an argument
// the schema already reported (missing, wrong type) adds nothing, and one
// whose message cannot be written because an argument it uses is null
// adds no generic line; validations of other arguments still run, and one
// that is about a null value on purpose still speaks.
func TestValidationOfReportedArgument(t *testing.T) {
	s := staticServer(t, `
locals {
  date_pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
}
tool "add_event" {
  description = "Adds an event."
  arg "date" {
    type = string
    validation {
      condition     = can(regex(local.date_pattern, args.date))
      error_message = "Date '${args.date}' is not in YYYY-MM-DD form."
    }
  }
  arg "minutes" {
    type    = integer
    default = 60
    validation {
      condition     = args.minutes % 5 == 0
      error_message = "minutes must be a multiple of 5, not ${args.minutes}."
    }
  }
  arg "room" {
    type     = string
    required = false
    validation {
      condition     = can(regex("^[A-Z]", args.room))
      error_message = "Room '${args.room}' must start with a capital letter."
    }
  }
  arg "mode" {
    type     = string
    required = false
  }
  validation {
    condition     = args.mode != "online" || args.room == null
    error_message = "An online event has no room."
  }
  result {
    text = "'ok'"
  }
}`)
	for args, want := range map[string]string{
		`{}`:                               "The arguments are not valid; fix these and call again:\n- arguments: missing property 'date'",
		`{"date":5}`:                       "The arguments are not valid; fix these and call again:\n- argument date: got number, want string",
		`{"minutes":7}`:                    "The arguments are not valid; fix these and call again:\n- arguments: missing property 'date'\nminutes must be a multiple of 5, not 7.",
		`{"date":"3 May"}`:                 "Date '3 May' is not in YYYY-MM-DD form.",
		`{"date":"2026-05-03","room":"b"}`: "Room 'b' must start with a capital letter.",
		`{"date":"2026-05-03","room":"B","mode":"online"}`: "An online event has no room.",
	} {
		res := callTool(t, s, "add_event", args)
		if !res.IsError || res.Content[0].Text != want {
			t.Errorf("%s: got %+v, want the error %q", args, res, want)
		}
	}
	if res := callTool(t, s, "add_event", `{"date":"2026-05-03"}`); res.IsError {
		t.Errorf("an absent optional argument blocked the call: %+v", res)
	}
}

// TestPromptTextKeepsBytes: a prompt's arguments and the answers it asks
// for reach its messages with the bytes the client sent, not normalised.
func TestPromptTextKeepsBytes(t *testing.T) {
	s := staticServer(t, `
prompt "note" {
  description = "Writes a note."
  arg "name" {}
  elicit {
    message          = "Which title?"
    requested_schema = { type = "object", properties = { title = { type = "string" } } }
  }
  message "user" {
    text = "${args.name}/${answers.elicit.content.title}"
  }
}`)
	n := &answeringNotifier{answer: `{"action":"accept","content":{"title":"\uF900e\u0301"}}`}
	req := &mcp.Request{Method: "prompts/get", Era: mcp.EraLegacy, Notifier: n}
	res, err := s.GetPrompt(context.Background(), req, &mcp.GetPromptParams{Name: "note", Arguments: map[string]string{"name": "\u2126"}})
	if err != nil || len(res.Messages) != 1 || res.Messages[0].Content.Text != "\u2126/\uF900e\u0301" {
		t.Fatalf("got %+v, %v; want the text %+q", res, err, "\u2126/\uF900e\u0301")
	}
}

// TestDateArgumentSaysTheShape: a date argument that does not parse is
// described as the model should write it, not with Go's reference layout.
func TestDateArgumentSaysTheShape(t *testing.T) {
	s := staticServer(t, `
tool "on" {
  description = "On a day."
  arg "day" {
    type   = string
    format = "date"
  }
  result {
    text = "args.day"
  }
}`)
	res := callTool(t, s, "on", `{"day":"03/11/2026"}`)
	text := res.Content[0].Text
	if !res.IsError || !strings.Contains(text, "YYYY-MM-DD") || strings.Contains(text, "2006-01-02") {
		t.Errorf("got %q, want the YYYY-MM-DD shape and no Go layout", text)
	}
}
