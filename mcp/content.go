package mcp

import (
	"encoding/json"
	"fmt"
)

// Content block types.
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResourceLink = "resource_link"
	ContentResource     = "resource"
)

// ContentBlock is one block of a tool result or prompt message. It is a flat
// struct so handler code stays simple; MarshalJSON emits only the fields the
// Type allows, so for example an empty text is still sent as "text":"".
type ContentBlock struct {
	Type        string            // one of the Content* constants
	Text        string            // text
	Data        string            // image, audio: base64
	MimeType    string            // image, audio, resource_link
	Link        *Resource         // resource_link: the linked resource
	Resource    *ResourceContents // resource: the embedded contents
	Annotations *Annotations
	Meta        json.RawMessage
}

// TextContent is a convenience constructor for a text block.
func TextContent(s string) ContentBlock { return ContentBlock{Type: ContentText, Text: s} }

type textWire struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

type mediaWire struct {
	Type        string          `json:"type"`
	Data        string          `json:"data"`
	MimeType    string          `json:"mimeType"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

type linkWire struct {
	Type string `json:"type"`
	Resource
}

type embeddedWire struct {
	Type        string            `json:"type"`
	Resource    *ResourceContents `json:"resource"`
	Annotations *Annotations      `json:"annotations,omitempty"`
	Meta        json.RawMessage   `json:"_meta,omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (c ContentBlock) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case ContentText:
		return json.Marshal(textWire{c.Type, c.Text, c.Annotations, c.Meta})
	case ContentImage, ContentAudio:
		return json.Marshal(mediaWire{c.Type, c.Data, c.MimeType, c.Annotations, c.Meta})
	case ContentResourceLink:
		if c.Link == nil {
			return nil, fmt.Errorf("mcp: resource_link block without Link")
		}
		return json.Marshal(linkWire{c.Type, *c.Link})
	case ContentResource:
		if c.Resource == nil {
			return nil, fmt.Errorf("mcp: resource block without Resource")
		}
		return json.Marshal(embeddedWire{c.Type, c.Resource, c.Annotations, c.Meta})
	}
	return nil, fmt.Errorf("mcp: unknown content block type %q", c.Type)
}

// UnmarshalJSON implements json.Unmarshaler (used by tests and transcripts).
func (c *ContentBlock) UnmarshalJSON(b []byte) error {
	var w struct {
		Type        string            `json:"type"`
		Text        string            `json:"text"`
		Data        string            `json:"data"`
		MimeType    string            `json:"mimeType"`
		Resource    *ResourceContents `json:"resource"`
		Annotations *Annotations      `json:"annotations"`
		Meta        json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*c = ContentBlock{Type: w.Type, Text: w.Text, Data: w.Data, MimeType: w.MimeType,
		Resource: w.Resource, Annotations: w.Annotations, Meta: w.Meta}
	if w.Type == ContentResourceLink {
		var r Resource
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		c.Link, c.MimeType, c.Annotations, c.Meta = &r, "", nil, nil
	}
	return nil
}

// ResourceContents is one item of resources/read or an embedded resource:
// text, or base64 Blob when Blob is non-empty.
type ResourceContents struct {
	URI      string
	MimeType string
	Text     string
	Blob     string
	Meta     json.RawMessage
}

type contentsWire struct {
	URI      string          `json:"uri"`
	MimeType string          `json:"mimeType,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Blob     *string         `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// MarshalJSON emits exactly one of text and blob, as the schemas require.
func (r ResourceContents) MarshalJSON() ([]byte, error) {
	w := contentsWire{URI: r.URI, MimeType: r.MimeType, Meta: r.Meta}
	if r.Blob != "" {
		w.Blob = &r.Blob
	} else {
		w.Text = &r.Text
	}
	return json.Marshal(w)
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *ResourceContents) UnmarshalJSON(b []byte) error {
	var w contentsWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = ResourceContents{URI: w.URI, MimeType: w.MimeType, Meta: w.Meta}
	if w.Text != nil {
		r.Text = *w.Text
	}
	if w.Blob != nil {
		r.Blob = *w.Blob
	}
	return nil
}

// CallToolResult is the era-neutral outcome of tools/call. Tool failures,
// including argument-validation failures, are results with IsError set, not
// errors. When InputRequired is set the other fields are ignored.
type CallToolResult struct {
	Content           []ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"-"` // merged into _meta by the shaper
	InputRequired     *InputRequired  `json:"-"`
	// Task, when set, answers the call with this task instead of a result
	// (the other fields are ignored).
	Task *Task `json:"-"`
}

// ReadResourceResult is the outcome of resources/read. Cache optionally
// overrides the server's default cache hints for this read.
type ReadResourceResult struct {
	Contents      []ResourceContents `json:"contents"`
	Meta          json.RawMessage    `json:"-"`
	Cache         *CacheHint         `json:"-"`
	InputRequired *InputRequired     `json:"-"`
}

// CacheHint is a modern ttlMs/cacheScope pair.
type CacheHint struct {
	TTLMs int64
	Scope string // "public" or "private"
}

// GetPromptResult is the outcome of prompts/get.
type GetPromptResult struct {
	Description   string          `json:"description,omitempty"`
	Messages      []PromptMessage `json:"messages"`
	Meta          json.RawMessage `json:"-"`
	InputRequired *InputRequired  `json:"-"`
}

// CompleteResult is the outcome of completion/complete. The router truncates
// Values to 100 and sets HasMore when it does.
type CompleteResult struct {
	Values  []string
	Total   *int
	HasMore bool
}
