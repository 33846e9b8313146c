package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// fakeHandler is a small, fixed Handler for the protocol tests. The real
// handler (package server) is tested elsewhere.
type fakeHandler struct {
	info   ServerInfo
	tools  []Tool
	noSlow bool // the fuzzer must not wait for cancellation
}

func ptr[T any](v T) *T { return &v }

func newFake() *fakeHandler {
	f := &fakeHandler{info: ServerInfo{
		Implementation: Implementation{Name: "fake", Version: "1.0.0", Title: "Fake Server",
			Description: "test double", WebsiteURL: "https://example.com",
			Icons: []Icon{{Src: "https://example.com/i.png", MimeType: "image/png"}}},
		Capabilities: ServerCapabilities{
			Logging:     &struct{}{},
			Completions: &struct{}{},
			Tools:       &ListChangedCapability{ListChanged: true},
			Prompts:     &ListChangedCapability{ListChanged: true},
			Resources:   &ResourcesCapability{Subscribe: true, ListChanged: true},
			Extensions:  map[string]json.RawMessage{"com.example/x": json.RawMessage(`{}`)},
		},
		Instructions: "Use the echo tool.",
		CacheTTLMs:   60000,
	}}
	obj := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","x-mcp-header":"Text"}},"additionalProperties":false}`)
	f.tools = []Tool{
		{Name: "echo", Title: "Echo", Description: "Returns a fixed text.", InputSchema: obj,
			Icons: []Icon{{Src: "https://example.com/e.png"}}, HeaderParams: map[string]string{"Text": "text"},
			Annotations: &ToolAnnotations{Title: "Echo", ReadOnlyHint: ptr(true)}},
		{Name: "structured", Description: "Structured output.", InputSchema: json.RawMessage(`{"type":"object"}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		{Name: "array", Description: "Array output.", InputSchema: json.RawMessage(`{"type":"object"}`),
			OutputSchema: json.RawMessage(`{"type":"array"}`)},
		{Name: "fail", Description: "Always fails.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "progress", Description: "Reports progress and logs.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "slow", Description: "Waits until cancelled.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "elicit", Description: "Needs user input.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "link", Description: "Returns a resource link.", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	return f
}

func (f *fakeHandler) Info() *ServerInfo { return &f.info }

func (f *fakeHandler) ToolHeaderParams(name string) map[string]string {
	for _, t := range f.tools {
		if t.Name == name {
			return t.HeaderParams
		}
	}
	return nil
}

func (f *fakeHandler) ListTools(ctx context.Context, req *Request) ([]Tool, error) {
	return f.tools, nil
}

func (f *fakeHandler) CallTool(ctx context.Context, req *Request, p *CallToolParams) (*CallToolResult, error) {
	switch p.Name {
	case "echo":
		return &CallToolResult{Content: []ContentBlock{TextContent("hello")}}, nil
	case "panic":
		var m map[string]int
		m["boom"]++ // a handler bug
		return nil, nil
	case "structured":
		return &CallToolResult{Content: []ContentBlock{TextContent(`{"n":1}`)}, StructuredContent: json.RawMessage(`{"n":1}`)}, nil
	case "array":
		return &CallToolResult{StructuredContent: json.RawMessage(`[1,2]`)}, nil
	case "fail":
		return &CallToolResult{IsError: true, Content: []ContentBlock{TextContent("argument text: expected string")}}, nil
	case "progress":
		n := req.Notifier
		_ = n.Progress(ctx, 1, 2, "half")
		_ = n.Log(ctx, "info", "fake", "working")
		_ = n.Log(ctx, "debug", "fake", "noise")
		_ = n.Progress(ctx, 2, 2, "done")
		return &CallToolResult{Content: []ContentBlock{TextContent("finished")}}, nil
	case "slow":
		if f.noSlow {
			return &CallToolResult{}, nil
		}
		<-ctx.Done()
		return nil, ctx.Err()
	case "elicit":
		if req.Era == EraLegacy {
			res, err := req.Notifier.Request(ctx, "elicitation/create", map[string]any{
				"message": "Name?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
			if err != nil {
				return &CallToolResult{IsError: true, Content: []ContentBlock{TextContent(err.Error())}}, nil
			}
			return &CallToolResult{Content: []ContentBlock{TextContent("got " + string(res))}}, nil
		}
		if p.RequestState == "asked" {
			return &CallToolResult{Content: []ContentBlock{TextContent("got " + string(p.InputResponses))}}, nil
		}
		return &CallToolResult{InputRequired: &InputRequired{RequestState: "asked", InputRequests: map[string]InputRequest{
			"name": {Method: "elicitation/create", Params: json.RawMessage(`{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`)}}}}, nil
	case "link":
		return &CallToolResult{Content: []ContentBlock{{Type: ContentResourceLink, Link: &Resource{URI: "file:///a.txt", Name: "a", Title: "A"}}}}, nil
	}
	return nil, InvalidParams("unknown tool %q", p.Name)
}

func (f *fakeHandler) ListResources(ctx context.Context, req *Request) ([]Resource, error) {
	var out []Resource
	for i := range 5 {
		out = append(out, Resource{URI: fmt.Sprintf("file:///r%d.txt", i), Name: "r" + strconv.Itoa(i), Title: "R",
			MimeType: "text/plain", Annotations: &Annotations{LastModified: "2026-01-01T00:00:00Z", Priority: ptr(0.5)}})
	}
	return out, nil
}

func (f *fakeHandler) ListResourceTemplates(ctx context.Context, req *Request) ([]ResourceTemplate, error) {
	return []ResourceTemplate{{URITemplate: "file:///{name}", Name: "files", Title: "Files", MimeType: "text/plain"}}, nil
}

func (f *fakeHandler) ReadResource(ctx context.Context, req *Request, p *ReadResourceParams) (*ReadResourceResult, error) {
	if p.URI == "file:///a.txt" {
		return &ReadResourceResult{Contents: []ResourceContents{{URI: p.URI, MimeType: "text/plain", Text: "A"}}}, nil
	}
	return nil, ResourceNotFound(p.URI)
}

func (f *fakeHandler) ListPrompts(ctx context.Context, req *Request) ([]Prompt, error) {
	return []Prompt{{Name: "greet", Title: "Greet", Arguments: []PromptArgument{{Name: "name", Title: "Name", Required: true}}}}, nil
}

func (f *fakeHandler) GetPrompt(ctx context.Context, req *Request, p *GetPromptParams) (*GetPromptResult, error) {
	if p.Name != "greet" {
		return nil, InvalidParams("unknown prompt %q", p.Name)
	}
	if p.Arguments["name"] == "" {
		return nil, InvalidParams("missing required argument name")
	}
	return &GetPromptResult{Description: "greeting", Messages: []PromptMessage{{Role: "user", Content: TextContent("Hello " + p.Arguments["name"])}}}, nil
}

func (f *fakeHandler) Complete(ctx context.Context, req *Request, p *CompleteParams) (*CompleteResult, error) {
	var vals []string
	for i := range 150 {
		vals = append(vals, p.Argument.Value+strconv.Itoa(i))
	}
	return &CompleteResult{Values: vals, Total: ptr(150)}, nil
}
