package table

// Listing is what the server lists: tools, resources, resource templates
// and prompts, shaped as MCP list results, in the order clients see them.
type Listing struct {
	Server            ServerListing     `json:"server"`
	Tools             []ToolListing     `json:"tools"`
	Resources         []ResourceListing `json:"resources"`
	ResourceTemplates []TemplateListing `json:"resourceTemplates"`
	Prompts           []PromptListing   `json:"prompts"`
}

// ServerListing is the server's name, version and instructions.
type ServerListing struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Title        string `json:"title,omitempty"`
	Description  string `json:"description,omitempty"`
	WebsiteURL   string `json:"websiteUrl,omitempty"`
	Icons        []Icon `json:"icons,omitempty"`
	Instructions string `json:"instructions,omitempty"`
}

// ToolListing is one entry of tools/list.
type ToolListing struct {
	Name         string         `json:"name"`
	Title        string         `json:"title,omitempty"`
	Description  string         `json:"description,omitempty"`
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema,omitempty"`
	Annotations  map[string]any `json:"annotations,omitempty"`
	Icons        []Icon         `json:"icons,omitempty"`
	// Meta is the tool's _meta: its ui block (see ToolUI.Meta).
	Meta map[string]any `json:"_meta,omitempty"`
}

// ResourceListing is one entry of resources/list.
type ResourceListing struct {
	URI         string         `json:"uri"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	MimeType    string         `json:"mimeType,omitempty"`
	Size        int64          `json:"size,omitempty"`
	Annotations map[string]any `json:"annotations,omitempty"`
	Icons       []Icon         `json:"icons,omitempty"`
	// Meta is an app's _meta: {"ui": McpUiResourceMeta}.
	Meta map[string]any `json:"_meta,omitempty"`
}

// TemplateListing is one entry of resources/templates/list.
type TemplateListing struct {
	URITemplate string         `json:"uriTemplate"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	MimeType    string         `json:"mimeType,omitempty"`
	Annotations map[string]any `json:"annotations,omitempty"`
	Icons       []Icon         `json:"icons,omitempty"`
}

// PromptListing is one entry of prompts/list.
type PromptListing struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Icons       []Icon           `json:"icons,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Listing returns what the server lists.
func (t *Table) Listing() *Listing {
	l := &Listing{
		Tools: []ToolListing{}, Resources: []ResourceListing{},
		ResourceTemplates: []TemplateListing{}, Prompts: []PromptListing{},
	}
	s := t.Server
	l.Server = ServerListing{Name: s.Name, Version: s.Version, Title: s.Title, Description: s.Description,
		WebsiteURL: s.WebsiteURL, Icons: s.Icons, Instructions: s.Instructions}
	for _, tool := range t.Tools {
		l.Tools = append(l.Tools, ToolListing{Name: tool.Name, Title: tool.Title, Description: tool.Description,
			InputSchema: tool.Args.Schema, OutputSchema: tool.OutputSchema, Annotations: nonEmpty(tool.Annotations), Icons: tool.Icons,
			Meta: tool.UI.Meta()})
	}
	for _, r := range t.Resources {
		l.Resources = append(l.Resources, ResourceListing{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
			MimeType: r.MimeType, Size: listedSize(r), Annotations: r.Annotations, Icons: r.Icons, Meta: appMeta(r.App)})
	}
	for _, tm := range t.Templates {
		l.ResourceTemplates = append(l.ResourceTemplates, TemplateListing{URITemplate: tm.URITemplate, Name: tm.Name, Title: tm.Title,
			Description: tm.Description, MimeType: tm.MimeType, Annotations: tm.Annotations, Icons: tm.Icons})
	}
	for _, p := range t.Prompts {
		pl := PromptListing{Name: p.Name, Title: p.Title, Description: p.Description, Icons: p.Icons}
		for _, a := range p.Args.List {
			pl.Arguments = append(pl.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		l.Prompts = append(l.Prompts, pl)
	}
	return l
}

// listedSize is a resource's size in bytes when it is known without
// reading anything: the configured size, else the length of inline text.
func listedSize(r *Resource) int64 {
	if r.Size > 0 {
		return r.Size
	}
	return int64(len(r.Text))
}

// appMeta is the _meta of an app's listing entry; nil for other
// resources and apps with no _meta.ui fields.
func appMeta(a *App) map[string]any {
	if a == nil || a.Meta == nil {
		return nil
	}
	return map[string]any{"ui": a.Meta}
}

func nonEmpty(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return m
}
