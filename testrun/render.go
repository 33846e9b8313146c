package testrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// Text is the text a model reads in the outcome: the text blocks of a
// tool result or of a prompt's messages, or the text contents of a
// resource, joined by newlines; a protocol error's message.
func (o *Outcome) Text() string {
	var parts []string
	switch {
	case o.Err != nil:
		return o.Err.Message
	case o.Tool != nil:
		for _, b := range o.Tool.Content {
			parts = append(parts, blockText(b)...)
		}
	case o.Resource != nil:
		for _, c := range o.Resource.Contents {
			if c.Blob == "" {
				parts = append(parts, c.Text)
			}
		}
	case o.Prompt != nil:
		for _, m := range o.Prompt.Messages {
			parts = append(parts, blockText(m.Content)...)
		}
	}
	return strings.Join(parts, "\n")
}

func blockText(b mcp.ContentBlock) []string {
	switch {
	case b.Type == mcp.ContentText:
		return []string{b.Text}
	case b.Type == mcp.ContentResource && b.Resource != nil && b.Resource.Blob == "":
		return []string{b.Resource.Text}
	}
	return nil
}

// Structured is the structured content the client receives: a tool's
// structuredContent, or the text of a JSON resource parsed; nil when
// there is none.
func (o *Outcome) Structured() json.RawMessage {
	switch {
	case o.Tool != nil:
		return o.Tool.StructuredContent
	case o.Resource != nil && len(o.Resource.Contents) == 1:
		text := o.Resource.Contents[0].Text
		if json.Valid([]byte(text)) {
			return json.RawMessage(text)
		}
	}
	return nil
}

// WriteText writes the outcome for a person: every block as the model
// sees it (text as it is, other blocks described on one line), the
// structured content indented, and whether it is an error.
func (o *Outcome) WriteText(w io.Writer) error {
	var b strings.Builder
	switch {
	case o.Err != nil:
		fmt.Fprintf(&b, "protocol error %d: %s\n", o.Err.Code, o.Err.Message)
		if o.Err.Data != nil {
			data, _ := json.Marshal(o.Err.Data)
			fmt.Fprintf(&b, "data: %s\n", data)
		}
	case o.Tool != nil:
		if o.Tool.IsError {
			b.WriteString("isError: true\n")
		}
		for _, c := range o.Tool.Content {
			writeBlock(&b, c)
		}
		if len(o.Tool.StructuredContent) > 0 {
			b.WriteString("structuredContent:\n")
			b.WriteString(indentJSON(o.Tool.StructuredContent))
		}
	case o.Resource != nil:
		for _, c := range o.Resource.Contents {
			writeContents(&b, c)
		}
	case o.Prompt != nil:
		if o.Prompt.Description != "" {
			fmt.Fprintf(&b, "description: %s\n", o.Prompt.Description)
		}
		for _, m := range o.Prompt.Messages {
			fmt.Fprintf(&b, "[%s]\n", m.Role)
			writeBlock(&b, m.Content)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeBlock(b *strings.Builder, c mcp.ContentBlock) {
	switch c.Type {
	case mcp.ContentText:
		b.WriteString(withNewline(c.Text))
	case mcp.ContentImage, mcp.ContentAudio:
		fmt.Fprintf(b, "[%s %s, %s of base64]\n", c.Type, c.MimeType, english.Count(len(c.Data), "byte"))
	case mcp.ContentResourceLink:
		if c.Link != nil {
			fmt.Fprintf(b, "[resource_link %s %q]\n", c.Link.URI, c.Link.Name)
		}
	case mcp.ContentResource:
		if c.Resource != nil {
			writeContents(b, *c.Resource)
		}
	}
}

func writeContents(b *strings.Builder, c mcp.ResourceContents) {
	fmt.Fprintf(b, "[resource %s", c.URI)
	if c.MimeType != "" {
		fmt.Fprintf(b, " %s", c.MimeType)
	}
	if c.Blob != "" {
		fmt.Fprintf(b, ", %s of base64]\n", english.Count(len(c.Blob), "byte"))
		return
	}
	b.WriteString("]\n")
	b.WriteString(withNewline(c.Text))
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func indentJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return withNewline(string(raw))
	}
	buf.WriteByte('\n')
	return buf.String()
}
