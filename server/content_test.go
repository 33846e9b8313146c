package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
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
	return New(compileTable(t, src, adapter.NewRegistry(), table.Options{}), nil)
}

// compileTable loads and compiles src; any error fails the test.
func compileTable(t *testing.T, src string, reg *adapter.Registry, opts table.Options) *table.Table {
	t.Helper()
	cfg, diags := lang.LoadSource("test.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, reg, opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl
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

func TestInputSchemaListedVerbatimAndEnforced(t *testing.T) {
	s := staticServer(t, `
tool "json_schema_2020_12_tool" {
  description = "Takes a JSON Schema 2020-12 input with $defs and $ref."
  input_schema = {
    "$schema" = "https://json-schema.org/draft/2020-12/schema"
    type      = "object"
    "$defs" = {
      address = {
        type       = "object"
        properties = { street = { type = "string" }, city = { type = "string" } }
      }
    }
    properties = {
      name    = { type = "string" }
      address = { "$ref" = "#/$defs/address" }
    }
    required             = ["name"]
    additionalProperties = false
  }
  result {
    text = "'Hello ' + args.name + ' from ' + (args.address?.city ?? 'nowhere')"
  }
}`)
	tools, _ := s.ListTools(context.Background(), nil)
	want := `{"$defs":{"address":{"properties":{"city":{"type":"string"},"street":{"type":"string"}},"type":"object"}},` +
		`"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,` +
		`"properties":{"address":{"$ref":"#/$defs/address"},"name":{"type":"string"}},"required":["name"],"type":"object"}`
	if diff := cmp.Diff(want, string(tools[0].InputSchema)); diff != "" {
		t.Errorf("inputSchema mismatch (-want +got):\n%s", diff)
	}
	got := callJSON(t, s, "json_schema_2020_12_tool", `{"name":"Ada","address":{"city":"Paris"}}`)
	if want := `{"content":[{"type":"text","text":"Hello Ada from Paris"}]}`; got != want {
		t.Errorf("call = %s, want %s", got, want)
	}
	got = callJSON(t, s, "json_schema_2020_12_tool", `{"name":"Ada","address":{"city":7},"extra":1}`)
	for _, part := range []string{`argument address.city`, `additional properties`, `"isError":true`} {
		if !strings.Contains(got, part) {
			t.Errorf("call with bad arguments = %s, lacks %q", got, part)
		}
	}
}

func TestSwapReportsChangedResources(t *testing.T) {
	compile := func(text string) *table.Table {
		cfg, diags := lang.LoadSource("r.hcl", []byte(`
resource "a" {
  uri  = "test://a"
  text = "`+text+`"
}
resource "b" {
  uri  = "test://b"
  text = "same"
}`))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return tbl
	}
	s := New(compile("one"), nil)
	kinds, updated := s.SwapAndDiff(compile("three"))
	if diff := cmp.Diff([]string{"test://a"}, updated); diff != "" {
		t.Errorf("updated mismatch (-want +got):\n%s", diff)
	}
	if kinds&mcp.ResourcesListChanged == 0 {
		t.Error("a changed size should change the resource list")
	}
}

func TestCompletionFromACall(t *testing.T) {
	tbl := compileTable(t, `
prompt "fruit" {
  description = "Talk about a fruit."
  arg "name" {
    complete {
      shell {
        command = ["printf", "apple\nbanana\napricot\n${args.value}-typed\n"]
        output  = "lines"
      }
    }
  }
  message "user" {
    text = "Tell me about ${args.name}."
  }
}`, all.Registry(), table.Options{})
	s := New(tbl, nil)
	p := &mcp.CompleteParams{}
	p.Ref.Type, p.Ref.Name = "ref/prompt", "fruit"
	p.Argument.Name, p.Argument.Value = "name", "ap"
	res, err := s.Complete(context.Background(), &mcp.Request{Notifier: nopNotifier{}}, p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"apple", "apricot", "ap-typed"}, res.Values); diff != "" {
		t.Errorf("values mismatch (-want +got):\n%s", diff)
	}
}

// TestTemplateOptionalQueryVariables: a {?var} the URI leaves out is a
// null argument (so a default or coalesce applies), not an empty string.
func TestTemplateOptionalQueryVariables(t *testing.T) {
	s := staticServer(t, `
resource_template "tag" {
  uri_template = "kb://tags/{tag}{?lang,n}"
  name         = "tag"
  arg "lang" {
    type     = string
    enum     = ["en", "fr"]
    required = false
  }
  arg "n" {
    type    = integer
    default = 10
  }
  text = "${args.tag} ${coalesce(args.lang, "any")} ${args.n}"
}`)
	for uri, want := range map[string]string{
		"kb://tags/setup":             "setup any 10",
		"kb://tags/setup?lang=fr":     "setup fr 10",
		"kb://tags/setup?lang=en&n=3": "setup en 3",
	} {
		res, err := s.ReadResource(context.Background(), &mcp.Request{Method: "resources/read"}, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("%s: %v", uri, err)
			continue
		}
		if got := res.Contents[0].Text; got != want {
			t.Errorf("%s: %q, want %q", uri, got, want)
		}
	}
}

// TestListingIsInspectsListing: what tools/list and resources/list send is
// built from the listing `mcpdecl inspect` prints; a text resource's size
// is in both.
func TestListingIsInspectsListing(t *testing.T) {
	tbl := compileTable(t, `
resource "note" {
  uri  = "note://a"
  name = "note"
  text = "hello, world"
}
tool "t" {
  description = "T."
  arg "x" {
    type = string
  }
  result {
    text = "'ok'"
  }
}`, adapter.NewRegistry(), table.Options{})
	s := New(tbl, nil)
	listed, _ := s.ListResources(context.Background(), &mcp.Request{})
	inspected := tbl.Listing()
	if len(listed) != 1 || listed[0].Size == nil || *listed[0].Size != 12 || inspected.Resources[0].Size != 12 {
		t.Errorf("size on the wire %v, in inspect %d; want 12 in both", listed[0].Size, inspected.Resources[0].Size)
	}
	tools, _ := s.ListTools(context.Background(), &mcp.Request{})
	want, _ := json.Marshal(inspected.Tools[0].InputSchema)
	if string(tools[0].InputSchema) != string(want) {
		t.Errorf("input schema on the wire %s, in inspect %s", tools[0].InputSchema, want)
	}
}
