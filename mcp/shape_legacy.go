package mcp

import (
	"encoding/json"
	"slices"
)

// The helpers below strip fields a legacy revision does not define:
// titles, outputSchema and the _meta of list entries and resource
// contents came with 2025-06-18, icons and
// Implementation.description/websiteUrl with 2025-11-25. Keeping them would
// rely on clients tolerating unknown fields, and strict clients do not.
// Modern requests get items unchanged; inputs are never mutated.

func legacyBefore(req *Request, since string) bool {
	return req.Era == EraLegacy && !atLeast(req.ProtocolVersion, since)
}

func shapeTools(in []Tool, req *Request) []Tool {
	out := make([]Tool, len(in))
	copy(out, in)
	for i := range out {
		t := &out[i]
		if len(t.InputSchema) == 0 {
			t.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		if req.Era != EraLegacy {
			continue
		}
		if legacyBefore(req, Version20250618) {
			t.Title, t.OutputSchema, t.Meta = "", nil, nil
		} else if len(t.OutputSchema) > 0 && !objectRoot(t.OutputSchema) {
			t.OutputSchema = nil // legacy outputSchema must have an object root
		}
		if legacyBefore(req, Version20251125) {
			t.Icons = nil
		} else if t.TaskSupport != "" {
			t.Execution = &ToolExecution{TaskSupport: t.TaskSupport}
		}
	}
	return out
}

// objectRoot reports a JSON Schema whose root declares "type":"object".
func objectRoot(schema json.RawMessage) bool {
	var s struct {
		Type any `json:"type"`
	}
	return json.Unmarshal(schema, &s) == nil && s.Type == "object"
}

func shapeResources(in []Resource, req *Request) []Resource {
	if req.Era != EraLegacy {
		return in
	}
	out := make([]Resource, len(in))
	copy(out, in)
	for i := range out {
		r := &out[i]
		r.Annotations = shapeAnnotations(r.Annotations, req)
		if legacyBefore(req, Version20250618) {
			r.Title, r.Meta = "", nil
		}
		if legacyBefore(req, Version20251125) {
			r.Icons = nil
		}
	}
	return out
}

// shapeContents drops the _meta of resources/read contents, which
// 2025-03-26 does not define.
func shapeContents(in []ResourceContents, req *Request) []ResourceContents {
	if !legacyBefore(req, Version20250618) || !slices.ContainsFunc(in, func(c ResourceContents) bool { return c.Meta != nil }) {
		return in
	}
	out := make([]ResourceContents, len(in))
	for i, c := range in {
		c.Meta = nil
		out[i] = c
	}
	return out
}

func shapeTemplates(in []ResourceTemplate, req *Request) []ResourceTemplate {
	if req.Era != EraLegacy {
		return in
	}
	out := make([]ResourceTemplate, len(in))
	copy(out, in)
	for i := range out {
		t := &out[i]
		t.Annotations = shapeAnnotations(t.Annotations, req)
		if legacyBefore(req, Version20250618) {
			t.Title = ""
		}
		if legacyBefore(req, Version20251125) {
			t.Icons = nil
		}
	}
	return out
}

func shapePrompts(in []Prompt, req *Request) []Prompt {
	if req.Era != EraLegacy {
		return in
	}
	out := make([]Prompt, len(in))
	copy(out, in)
	for i := range out {
		p := &out[i]
		if legacyBefore(req, Version20250618) {
			p.Title = ""
			args := make([]PromptArgument, len(p.Arguments))
			copy(args, p.Arguments)
			for j := range args {
				args[j].Title = ""
			}
			if p.Arguments != nil {
				p.Arguments = args
			}
		}
		if legacyBefore(req, Version20251125) {
			p.Icons = nil
		}
	}
	return out
}

func shapeAnnotations(a *Annotations, req *Request) *Annotations {
	if a == nil || a.LastModified == "" || !legacyBefore(req, Version20250618) {
		return a
	}
	c := *a
	c.LastModified = ""
	return &c
}

// shapeContent converts blocks for old revisions: resource_link (2025-06-18+)
// becomes a text block naming the link for 2025-03-26 clients.
func shapeContent(in []ContentBlock, req *Request) []ContentBlock {
	if in == nil {
		return []ContentBlock{}
	}
	if !legacyBefore(req, Version20250618) {
		return in
	}
	out := make([]ContentBlock, len(in))
	for i, b := range in {
		if b.Type == ContentResourceLink && b.Link != nil {
			b = TextContent("resource " + b.Link.Name + ": " + b.Link.URI)
		}
		b.Annotations = shapeAnnotations(b.Annotations, req)
		out[i] = b
	}
	return out
}

func shapeMessages(in []PromptMessage, req *Request) []PromptMessage {
	if !legacyBefore(req, Version20250618) {
		return in
	}
	out := make([]PromptMessage, len(in))
	for i, m := range in {
		blocks := shapeContent([]ContentBlock{m.Content}, req)
		out[i] = PromptMessage{Role: m.Role, Content: blocks[0]}
	}
	return out
}

// legacyImpl strips Implementation fields by revision.
func legacyImpl(impl Implementation, version string) Implementation {
	if !atLeast(version, Version20250618) {
		impl.Title = ""
	}
	if !atLeast(version, Version20251125) {
		impl.Description, impl.WebsiteURL, impl.Icons = "", "", nil
	}
	return impl
}

// legacyCaps drops the modern-only extensions map, and the tasks
// capability before 2025-11-25.
func legacyCaps(c ServerCapabilities, version string) ServerCapabilities {
	c.Extensions = nil
	if !atLeast(version, Version20251125) {
		c.Tasks = nil
	}
	return c
}

// modernCaps drops the 2025-11-25 tasks capability, which the
// 2026-07-28 tasks extension replaces.
func modernCaps(c ServerCapabilities) ServerCapabilities {
	c.Tasks = nil
	return c
}

// withoutPushes drops what a signed session cannot deliver: list_changed
// and resources/updated need a stream that outlives a request (the GET
// stream of a stateful session). resources/subscribe is still answered,
// as clients that do not check capabilities send it anyway; nothing
// follows it.
func withoutPushes(c ServerCapabilities) ServerCapabilities {
	if c.Tools != nil {
		c.Tools = &ListChangedCapability{}
	}
	if c.Prompts != nil {
		c.Prompts = &ListChangedCapability{}
	}
	if c.Resources != nil {
		c.Resources = &ResourcesCapability{}
	}
	return c
}
