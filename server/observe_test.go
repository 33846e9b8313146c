package server

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// recorder keeps what an Observer is told, as "kind name outcome".
type recorder struct {
	mu      sync.Mutex
	ended   []string
	running int
}

func (r *recorder) CallStarted(string) { r.mu.Lock(); r.running++; r.mu.Unlock() }
func (r *recorder) CallEnded(kind, name, outcome string, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running--
	r.ended = append(r.ended, kind+" "+name+" "+outcome)
}
func (r *recorder) Reloaded(uint64, error) {}

// TestObserverOutcomes: the outcomes the HTTP test of serve cannot cause
// from a client: a call stopped at its tool's deadline is a timeout, one
// whose client went away is cancelled (a command that fails has a long
// deadline: starting a process on a loaded machine can take over 100 ms,
// which made it a timeout); prompts and completions are named
// by the prompt, and an unknown prompt is "unknown".
func TestObserverOutcomes(t *testing.T) {
	url := slowAPI(t, 2*time.Second)
	tbl := compileTable(t, `
backend "http" "api" {
  base_url = "`+url+`"
}
tool "short" {
  description = "Stopped at its deadline."
  timeout     = "100ms"
  http "api" {
    path = "/slow"
  }
}
tool "nap" {
  description = "A command stopped at its deadline."
  timeout     = "100ms"
  shell {
    command = ["sleep", "5"]
  }
}
tool "fails" {
  description = "A command that fails at once, well within its deadline."
  timeout     = "30s"
  shell {
    command = ["false"]
  }
}
tool "patient" {
  description = "Waits for the slow answer."
  http "api" {
    path = "/slow"
  }
}
prompt "greet" {
  description = "Greets."
  arg "who" {
    type        = string
    completions = ["Ada", "Alan"]
  }
  message "user" {
    text = "Hello ${args.who}"
  }
}
`, all.Registry(), table.Options{})
	rec := &recorder{}
	s := New(tbl, &Options{Observer: rec})
	req := &mcp.Request{Method: "tools/call", Notifier: nopNotifier{}}

	if _, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "short", Arguments: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"nap", "fails"} {
		if _, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, _ = s.CallTool(ctx, req, &mcp.CallToolParams{Name: "patient", Arguments: json.RawMessage(`{}`)})
	_, _ = s.GetPrompt(context.Background(), req, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"who": "Ada"}})
	_, _ = s.GetPrompt(context.Background(), req, &mcp.GetPromptParams{Name: "nope"})
	p := &mcp.CompleteParams{}
	p.Ref.Type, p.Ref.Name = "ref/prompt", "greet"
	p.Argument.Name, p.Argument.Value = "who", "A"
	_, _ = s.Complete(context.Background(), req, p)

	want := []string{
		"tool short timeout",
		"tool nap timeout",
		"tool fails tool_error",
		"tool patient cancelled",
		"prompt greet ok",
		"prompt unknown protocol_error",
		"completion greet ok",
	}
	if !slices.Equal(rec.ended, want) {
		t.Errorf("observed\n%q\nwant\n%q", rec.ended, want)
	}
	if rec.running != 0 {
		t.Errorf("%d calls still counted running", rec.running)
	}
}
