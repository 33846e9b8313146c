package server

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

const elicitConfig = `
tool "test_elicitation" {
  description = "Asks the user for their details."
  arg "message" {
    type = string
  }
  elicit {
    message = args.message
    requested_schema = {
      type = "object"
      properties = {
        username = { type = "string", description = "Your user name" }
        email    = { type = "string", format = "email" }
        plan     = { type = "string", oneOf = [{ const = "free", title = "Free" }, { const = "pro", title = "Pro" }], default = "free" }
      }
      required = ["username", "email"]
    }
  }
  result {
    text = "'User response: action=' + elicit.action + ', content=' + toJSON(elicit.content)"
  }
}
`

// answeringNotifier answers server→client requests like a legacy client.
type answeringNotifier struct {
	nopNotifier
	answer string
	asked  []json.RawMessage
}

func (n *answeringNotifier) Request(_ context.Context, method string, params any) (json.RawMessage, error) {
	if method != "elicitation/create" {
		return nil, errors.New("unexpected " + method)
	}
	n.asked = append(n.asked, mustJSON(params))
	return json.RawMessage(n.answer), nil
}

func TestElicitationLegacy(t *testing.T) {
	s := staticServer(t, elicitConfig)
	n := &answeringNotifier{answer: `{"action":"accept","content":{"username":"testuser","email":"test@example.com"}}`}
	req := &mcp.Request{Era: mcp.EraLegacy, Notifier: n}
	res, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "test_elicitation", Arguments: json.RawMessage(`{"message":"Please provide your information"}`)})
	if err != nil {
		t.Fatal(err)
	}
	got := string(mustJSON(res))
	for _, want := range []string{`User response: action=accept, content={`, `\"username\": \"testuser\"`} {
		if !strings.Contains(got, want) || res.IsError {
			t.Errorf("result %s lacks %s", got, want)
		}
	}
	// The requested schema reaches the client verbatim, defaults and oneOf included.
	for _, part := range []string{`"message":"Please provide your information"`, `"oneOf":[{"const":"free","title":"Free"},{"const":"pro","title":"Pro"}]`, `"default":"free"`, `"format":"email"`} {
		if len(n.asked) != 1 || !strings.Contains(string(n.asked[0]), part) {
			t.Errorf("elicitation/create params %s lack %s", n.asked, part)
		}
	}
	n.answer = `{"action":"decline"}`
	res, _ = s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "test_elicitation", Arguments: json.RawMessage(`{"message":"m"}`)})
	if !res.IsError || !strings.Contains(string(mustJSON(res)), "did not agree (declined)") {
		t.Errorf("decline gave %s", mustJSON(res))
	}
}

func TestElicitationWithoutBackChannel(t *testing.T) {
	s := staticServer(t, elicitConfig)
	req := &mcp.Request{Era: mcp.EraLegacy, Notifier: nopNotifier{}}
	res, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "test_elicitation", Arguments: json.RawMessage(`{"message":"m"}`)})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, "cannot carry the request") {
		t.Fatalf("got %+v, %v", res, err)
	}
}

func TestElicitationModernRoundTrip(t *testing.T) {
	s := staticServer(t, elicitConfig)
	req := &mcp.Request{Era: mcp.EraModern, Notifier: nopNotifier{}}
	args := json.RawMessage(`{"message":"Please provide your information"}`)
	first, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "test_elicitation", Arguments: args})
	if err != nil || first.InputRequired == nil {
		t.Fatalf("want input_required, got %+v, %v", first, err)
	}
	ir := first.InputRequired
	if ir.InputRequests["elicit"].Method != "elicitation/create" || ir.RequestState == "" {
		t.Fatalf("input requests %+v", ir)
	}
	answer := json.RawMessage(`{"elicit":{"action":"accept","content":{"username":"u","email":"u@example.com"}}}`)
	retry := &mcp.CallToolParams{Name: "test_elicitation", Arguments: args}
	retry.InputResponses, retry.RequestState = answer, ir.RequestState
	res, err := s.CallTool(context.Background(), req, retry)
	if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "action=accept") {
		t.Fatalf("retry gave %+v, %v", res, err)
	}

	// A tampered state, a state for other arguments, and an expired state are refused.
	tampered := *retry
	tampered.RequestState = ir.RequestState[:len(ir.RequestState)-2] + "AA"
	other := *retry
	other.Arguments = json.RawMessage(`{"message":"something else"}`)
	for name, p := range map[string]*mcp.CallToolParams{"tampered": &tampered, "other arguments": &other} {
		if _, err := s.CallTool(context.Background(), req, p); err == nil {
			t.Errorf("%s state was accepted", name)
		}
	}
	expired := s.sealState(stateBinding(context.Background(), req, "test_elicitation", map[string]any{"message": "m"}), nil, time.Now().Add(-time.Minute))
	if _, err := s.openState(expired, stateBinding(context.Background(), req, "test_elicitation", map[string]any{"message": "m"}), time.Now()); err == nil {
		t.Error("an expired state was accepted")
	}
}

type samplingNotifier struct {
	nopNotifier
	params json.RawMessage
}

func (n *samplingNotifier) Request(_ context.Context, method string, params any) (json.RawMessage, error) {
	if method != "sampling/createMessage" {
		return nil, errors.New("unexpected " + method)
	}
	n.params = mustJSON(params)
	return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"This is a test response from the client"},"model":"test-model","stopReason":"endTurn"}`), nil
}

func TestSamplingLegacyAndModern(t *testing.T) {
	s := staticServer(t, `
tool "test_sampling" {
  description = "Asks the client's model."
  arg "prompt" {
    type = string
  }
  sample {
    prompt     = args.prompt
    max_tokens = 100
  }
  result {
    text = "'LLM response: ' + sample.text"
  }
}`)
	n := &samplingNotifier{}
	args := json.RawMessage(`{"prompt":"Test prompt for sampling"}`)
	res, err := s.CallTool(context.Background(), &mcp.Request{Era: mcp.EraLegacy, Notifier: n}, &mcp.CallToolParams{Name: "test_sampling", Arguments: args})
	if err != nil || res.Content[0].Text != "LLM response: This is a test response from the client" {
		t.Fatalf("legacy: %+v, %v", res, err)
	}
	if want := `{"maxTokens":100,"messages":[{"content":{"text":"Test prompt for sampling","type":"text"},"role":"user"}]}`; string(n.params) != want {
		t.Errorf("sampling params %s, want %s", n.params, want)
	}
	modern := &mcp.Request{Era: mcp.EraModern, Notifier: nopNotifier{}}
	first, _ := s.CallTool(context.Background(), modern, &mcp.CallToolParams{Name: "test_sampling", Arguments: args})
	if first.InputRequired == nil || first.InputRequired.InputRequests["sample"].Method != "sampling/createMessage" {
		t.Fatalf("modern first call: %+v", first)
	}
	retry := &mcp.CallToolParams{Name: "test_sampling", Arguments: args}
	retry.RequestState = first.InputRequired.RequestState
	retry.InputResponses = json.RawMessage(`{"sample":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`)
	res, err = s.CallTool(context.Background(), modern, retry)
	if err != nil || res.Content[0].Text != "LLM response: hi" {
		t.Fatalf("modern retry: %+v, %v", res, err)
	}
}

// TestAcceptedAnswerMustFitTheSchema: content that breaks the requested
// schema is refused before the call, so a confirmed destructive call does
// not run on a malformed answer.
func TestAcceptedAnswerMustFitTheSchema(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "deleted")
	s := New(compileTable(t, `
tool "delete" {
  description = "Deletes, after asking why."
  elicit {
    message          = "Why?"
    requested_schema = { type = "object", properties = { reason = { type = "string" } }, required = ["reason"] }
  }
  shell {
    command = ["touch", "`+marker+`"]
  }
}`, all.Registry(), table.Options{}), nil)
	call := func(answer string) *mcp.CallToolResult {
		n := &answeringNotifier{answer: answer}
		res, err := s.CallTool(context.Background(), &mcp.Request{Era: mcp.EraLegacy, Notifier: n}, &mcp.CallToolParams{Name: "delete"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, bad := range []string{`{"action":"accept","content":{"reason":42}}`, `{"action":"accept","content":{}}`,
		`{"action":"accept","content":{"reason":"x","n":1e999999}}`} {
		res := call(bad)
		if !res.IsError || !strings.Contains(res.Content[0].Text, `does not fit what was asked, so nothing was done`) {
			t.Errorf("%s: %+v", bad, res)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: the call ran on an answer that breaks the schema", bad)
		}
	}
	if res := call(`{"action":"decline"}`); !strings.Contains(res.Content[0].Text, "(declined)") {
		t.Errorf("decline: %+v", res)
	}
	if res := call(`{"action":"accept","content":{"reason":"tidy up"}}`); res.IsError {
		t.Errorf("a fitting answer: %+v", res)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the call did not run on a fitting answer: %v", err)
	}
}

// TestLaterRoundNeedsTheState: answers to a later round sent without the
// signed state of the earlier ones are ignored, so a client cannot skip
// the first question by answering both at once.
func TestLaterRoundNeedsTheState(t *testing.T) {
	s := staticServer(t, `
tool "two" {
  description = "Asks twice."
  elicit {
    key              = "a"
    message          = "First?"
    requested_schema = { type = "object", properties = { x = { type = "string" } } }
  }
  elicit {
    key              = "b"
    round            = 2
    message          = "Second?"
    requested_schema = { type = "object", properties = { x = { type = "string" } } }
  }
  result {
    text = "'a=' + (answers.a.content?.x ?? '') + ' b=' + (answers.b.content?.x ?? '')"
  }
}`)
	req := &mcp.Request{Era: mcp.EraModern, Notifier: nopNotifier{}}
	p := &mcp.CallToolParams{Name: "two"}
	p.InputResponses = json.RawMessage(`{"a":{"action":"accept","content":{"x":"A"}},"b":{"action":"accept","content":{"x":"FORGED"}}}`)
	res, err := s.CallTool(context.Background(), req, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.InputRequired == nil || res.InputRequired.InputRequests["b"].Method == "" {
		t.Fatalf("want the second question asked, got %+v", res)
	}
	retry := &mcp.CallToolParams{Name: "two"}
	retry.RequestState = res.InputRequired.RequestState
	retry.InputResponses = json.RawMessage(`{"b":{"action":"accept","content":{"x":"B"}}}`)
	res, err = s.CallTool(context.Background(), req, retry)
	if err != nil || res.IsError || res.Content[0].Text != "a=A b=B" {
		t.Fatalf("with the state: %+v, %v", res, err)
	}
}
