package server

import (
	"context"
	"encoding/json"
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
