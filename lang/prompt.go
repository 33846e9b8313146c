package lang

import "github.com/hashicorp/hcl/v2"

// Prompt is a `prompt` block: a message template the client can offer the
// user, with arguments.
type Prompt struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	Title       *hcl.Attribute `hcl:"title,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	// Scopes lists the auth scopes a caller's token needs (HTTP with an
	// auth block only).
	Scopes *hcl.Attribute `hcl:"scopes,optional"`
	Icons  []*Icon        `hcl:"icon,block"`
	Args   []*Arg         `hcl:"arg,block"`
	// ArgRefs is what the block reads of its arguments outside its arg
	// and validation blocks, recorded at load (nil in JSON syntax).
	ArgRefs  *Refs
	Messages []*Message `hcl:"message,block"`
	// Steps are calls made before the messages are built, in order; their
	// answers are steps.<name> in the messages.
	Steps []*Step `hcl:"step,block"`
	// Questions asked of the client before the messages are built; their
	// answers are answers.<key> in the messages.
	Elicit    []*Elicit `hcl:"elicit,block"`
	Sample    []*Sample `hcl:"sample,block"`
	Roots     []*Roots  `hcl:"roots,block"`
	Lint      []*Lint   `hcl:"lint,block"`
	DeclRange hcl.Range `hcl:",def_range"`
}

// Message is one prompt message: a role and exactly one piece of content,
// given as `text`, or as an `image`, `audio` or `resource` block.
type Message struct {
	Role      string          `hcl:"role,label"`
	RoleRange hcl.Range       `hcl:"role,label_range"`
	Text      *hcl.Attribute  `hcl:"text,optional"`
	Image     []*MediaContent `hcl:"image,block"`
	Audio     []*MediaContent `hcl:"audio,block"`
	Resource  []*EmbeddedRes  `hcl:"resource,block"`
	DeclRange hcl.Range       `hcl:",def_range"`
}

// MediaContent is base64 image or audio data with its MIME type.
type MediaContent struct {
	Data      *hcl.Attribute `hcl:"data"`
	MimeType  *hcl.Attribute `hcl:"mime_type"`
	DeclRange hcl.Range      `hcl:",def_range"`
	TypeRange hcl.Range      `hcl:",type_range"`
}

// EmbeddedRes is a resource embedded in a message: inline (uri plus text or
// blob) or, with only a uri, read through the server's own resources.
type EmbeddedRes struct {
	URI       *hcl.Attribute `hcl:"uri"`
	MimeType  *hcl.Attribute `hcl:"mime_type,optional"`
	Text      *hcl.Attribute `hcl:"text,optional"`
	Blob      *hcl.Attribute `hcl:"blob,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
	TypeRange hcl.Range      `hcl:",type_range"`
}
