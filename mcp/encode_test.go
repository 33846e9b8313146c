package mcp

import (
	"encoding/json"
	"testing"
)

// TestCallToolResultEncoding checks the direct encoder against
// encoding/json for every kind of block and field.
func TestCallToolResultEncoding(t *testing.T) {
	prio := 0.5
	for _, r := range []*CallToolResult{
		{},
		{Content: []ContentBlock{}},
		{Content: []ContentBlock{TextContent("")}, IsError: true},
		{Content: []ContentBlock{TextContent("a \"quoted\" <tag> & \u2028 \xff line\nbreak")},
			StructuredContent: json.RawMessage(`{"books":[{"title":"x"}],"n":1.5}`)},
		{Content: []ContentBlock{
			{Type: ContentText, Text: "with annotations", Annotations: &Annotations{Audience: []string{"user"}, Priority: &prio}},
			{Type: ContentText, Text: "with meta", Meta: json.RawMessage(`{"k":"v"}`)},
			{Type: ContentImage, Data: "aGk=", MimeType: "image/png"},
			{Type: ContentAudio, Data: "aGk=", MimeType: "audio/wav"},
			{Type: ContentResourceLink, Link: &Resource{URI: "file:///x", Name: "x"}},
			{Type: ContentResource, Resource: &ResourceContents{URI: "mcpdecl://result", MimeType: "application/pdf", Blob: "aGk="}},
		}},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("direct encoding differs:\n got %s\nwant %s", got, want)
		}
	}
}

func TestCallToolResultEncodingErrors(t *testing.T) {
	r := &CallToolResult{Content: []ContentBlock{{Type: ContentResourceLink}}}
	if _, err := r.appendJSON(nil); err == nil {
		t.Error("a resource_link block without its link was encoded")
	}
}
