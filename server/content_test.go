package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
)

const contentConfig = `
tool "mixed" {
  description = "Answers with every kind of content."
  arg "word" {
    type    = string
    default = "data"
  }
  content "text" {
    text = "Multiple content types: ${args.word}"
  }
  content "image" {
    data      = "iVBORw0KGgo="
    mime_type = "image/png"
  }
  content "audio" {
    data      = "UklGRg=="
    mime_type = "audio/wav"
  }
  content "resource_link" {
    uri  = "test://linked"
    name = "linked"
  }
  content "resource" {
    uri       = "test://mixed-content-resource"
    mime_type = "application/json"
    text      = jsonencode({ test = args.word, value = 123 })
  }
}

tool "fails" {
  description = "Always an error result."
  result {
    text     = "'This tool intentionally returns an error'"
    is_error = "true"
  }
}
`

func staticServer(t *testing.T, src string) *Server {
	t.Helper()
	cfg, diags := lang.LoadSource("static.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	table, diags := dispatch.Compile(cfg, adapter.NewRegistry(), dispatch.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return New(table, nil)
}

func callJSON(t *testing.T, s *Server, name, args string) string {
	t.Helper()
	req := &mcp.Request{Method: "tools/call", Notifier: nopNotifier{}}
	res, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestContentBlocks(t *testing.T) {
	s := staticServer(t, contentConfig)
	got := callJSON(t, s, "mixed", `{"word":"w"}`)
	want := `{"content":[{"type":"text","text":"Multiple content types: w"},` +
		`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},` +
		`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},` +
		`{"type":"resource_link","uri":"test://linked","name":"linked"},` +
		`{"type":"resource","resource":{"uri":"test://mixed-content-resource","mimeType":"application/json","text":"{\"test\":\"w\",\"value\":123}"}}]}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools/call mismatch (-want +got):\n%s", diff)
	}
}

func TestResultIsError(t *testing.T) {
	s := staticServer(t, contentConfig)
	got := callJSON(t, s, "fails", `{}`)
	want := `{"content":[{"type":"text","text":"This tool intentionally returns an error"}],"isError":true}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

type nopNotifier struct{}

func (nopNotifier) Progress(context.Context, float64, float64, string) error { return nil }
func (nopNotifier) Log(context.Context, string, string, any) error           { return nil }
func (nopNotifier) Request(context.Context, string, any) (json.RawMessage, error) {
	return nil, mcp.ErrNoBackChannel
}

func TestPromptEmbedsResourceNamedByArgument(t *testing.T) {
	s := staticServer(t, `
resource "example" {
  uri       = "test://example-resource"
  mime_type = "text/plain"
  text      = "Embedded resource content for testing."
}

prompt "embed" {
  description = "Embeds a resource chosen by the caller."
  arg "resourceUri" {}
  message "user" {
    resource {
      uri       = args.resourceUri
      mime_type = "text/plain"
      text      = "Inline for ${args.resourceUri}"
    }
  }
  message "user" {
    resource {
      uri = args.resourceUri
    }
  }
}`)
	req := &mcp.Request{Method: "prompts/get", Notifier: nopNotifier{}}
	res, err := s.GetPrompt(context.Background(), req, &mcp.GetPromptParams{Name: "embed", Arguments: map[string]string{"resourceUri": "test://example-resource"}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Messages)
	want := `[{"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"Inline for test://example-resource"}}},` +
		`{"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"Embedded resource content for testing."}}}]`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("messages mismatch (-want +got):\n%s", diff)
	}
	_, err = s.GetPrompt(context.Background(), req, &mcp.GetPromptParams{Name: "embed", Arguments: map[string]string{"resourceUri": "test://nope"}})
	if err == nil {
		t.Error("an unknown resource URI gave no error")
	}
}
