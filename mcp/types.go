package mcp

import "encoding/json"

// Implementation names a client or server (Implementation in the schemas).
type Implementation struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Title       string `json:"title,omitempty"`       // since 2025-06-18
	Description string `json:"description,omitempty"` // since 2025-11-25
	WebsiteURL  string `json:"websiteUrl,omitempty"`  // since 2025-11-25
	Icons       []Icon `json:"icons,omitempty"`       // since 2025-11-25
}

// Icon is a display icon.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// Annotations are client hints on resources, templates and content blocks.
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"` // since 2025-06-18
}

// ToolAnnotations are untrusted behaviour hints on a tool.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Tool describes one tool. InputSchema must be a JSON Schema object whose root
// has "type":"object"; OutputSchema is optional.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Icons        []Icon           `json:"icons,omitempty"`
	Meta         json.RawMessage  `json:"_meta,omitempty"`

	// HeaderParams maps Mcp-Param-{Name} header names to the top-level
	// argument they mirror (inputSchema properties annotated x-mcp-header).
	// The router checks them on modern HTTP requests (ladder step 12). It is not
	// serialized: the annotation already lives in InputSchema.
	HeaderParams map[string]string `json:"-"`

	// TaskSupport is "optional" or "required" for a tool that may or must
	// run as a task, "" otherwise; 2025-11-25 clients see it as
	// execution.taskSupport.
	TaskSupport string `json:"-"`
	// Execution is written by the shaper from TaskSupport.
	Execution *ToolExecution `json:"execution,omitempty"`
}

// ToolExecution is a 2025-11-25 tool's execution object.
type ToolExecution struct {
	TaskSupport string `json:"taskSupport,omitempty"`
}

// Resource is a concrete resource listed by resources/list.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceTemplate is an RFC 6570 URI template listed by
// resources/templates/list.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// Prompt is a prompt template listed by prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Icons       []Icon           `json:"icons,omitempty"`
	Meta        json.RawMessage  `json:"_meta,omitempty"`
}

// PromptArgument declares one string argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptMessage is one message of a prompts/get result.
type PromptMessage struct {
	Role    string       `json:"role"` // "user" or "assistant"
	Content ContentBlock `json:"content"`
}

// ServerCapabilities is what the server advertises; the router also uses it as
// the method gate (ladder step 10).
type ServerCapabilities struct {
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	Logging      *struct{}                  `json:"logging,omitempty"`
	Completions  *struct{}                  `json:"completions,omitempty"`
	Prompts      *ListChangedCapability     `json:"prompts,omitempty"`
	Resources    *ResourcesCapability       `json:"resources,omitempty"`
	Tools        *ListChangedCapability     `json:"tools,omitempty"`
	Extensions   map[string]json.RawMessage `json:"extensions,omitempty"` // modern only
	// Tasks is the 2025-11-25 tasks capability (legacy only; see
	// TasksCapabilities).
	Tasks json.RawMessage `json:"tasks,omitempty"`
}

// ListChangedCapability is the tools/prompts capability object.
type ListChangedCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourcesCapability is the resources capability object.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

// ClientCapabilities are the capabilities a client declared: per request in
// the modern era, at initialize in the legacy one. Values stay raw because
// handlers only test presence (and elicitation modes).
type ClientCapabilities struct {
	Roots        json.RawMessage            `json:"roots,omitempty"`
	Sampling     json.RawMessage            `json:"sampling,omitempty"`
	Elicitation  json.RawMessage            `json:"elicitation,omitempty"`
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	Extensions   map[string]json.RawMessage `json:"extensions,omitempty"`
	Tasks        json.RawMessage            `json:"tasks,omitempty"`
}

// ServerInfo is everything discover and initialize report, plus the cache
// hints stamped on cacheable modern results.
type ServerInfo struct {
	Implementation Implementation
	Capabilities   ServerCapabilities
	Instructions   string

	// CacheTTLMs and CacheScope ("public" or "private"; "" means "public")
	// are stamped on discover, the four list results and resources/read.
	CacheTTLMs int64
	CacheScope string
}

// CallToolParams are the params of tools/call.
type CallToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"` // a JSON object, or nil
	MRTR
	// Task is set when a 2025-11-25 client asked for a task (params.task).
	Task *TaskRequest `json:"-"`
}

// ReadResourceParams are the params of resources/read.
type ReadResourceParams struct {
	URI string `json:"uri"`
	MRTR
}

// GetPromptParams are the params of prompts/get.
type GetPromptParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
	MRTR
}

// MRTR carries a modern multi-round-trip retry: the client's answers
// keyed like the earlier inputRequests, and the opaque state echoed back
// byte-exact. The server must treat RequestState as attacker-controlled.
type MRTR struct {
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
	RequestState   string          `json:"requestState,omitempty"`
}

// CompleteParams are the params of completion/complete.
type CompleteParams struct {
	Ref struct {
		Type string `json:"type"` // "ref/prompt" or "ref/resource"
		Name string `json:"name,omitempty"`
		URI  string `json:"uri,omitempty"`
	} `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context struct {
		Arguments map[string]string `json:"arguments,omitempty"`
	} `json:"context"`
}

// InputRequired is a modern input_required outcome. At least one field
// must be set. Legacy clients cannot receive it; see shape.go.
type InputRequired struct {
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
	RequestState  string                  `json:"requestState,omitempty"`
}

// InputRequest is one embedded server request (elicitation/create,
// sampling/createMessage or roots/list).
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}
