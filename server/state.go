package server

import (
	"encoding/json"
	"reflect"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// state is one generation of the served configuration with everything
// precomputed that requests read: listings, indexes, compiled templates.
// It is immutable; a reload builds a new one.
type state struct {
	generation
	table     *table.Table
	info      *mcp.ServerInfo
	tools     []mcp.Tool
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
	// secrets are the texts of sensitive variables, longest first.
	secrets []string
	// verifier checks the tokens of HTTP requests (nil: none are
	// checked); authErr is why the auth block could not be set up.
	verifier *auth.Verifier
	authErr  error
	// hooks are the limits and the audit trail, nil when both are off.
	hooks *callHooks
}

// newState builds a generation's listings from the table's own listing,
// the one `mcpdecl inspect` prints, so the two cannot differ.
func newState(t *table.Table) *state {
	s := &state{table: t}
	s.refs.Store(1)
	l := t.Listing()
	s.info = serverInfo(&l.Server)
	s.info.CacheScope = t.Server.CacheScope
	s.secrets = t.Secrets
	tasks := false
	reuse := listingReuse{}
	for i, tl := range l.Tools {
		s.tools = append(s.tools, reuse.toolListing(&tl, t.Tools[i].HeaderParams))
		if spec := t.Tools[i].Task; spec != nil {
			s.tools[i].TaskSupport, tasks = spec.Mode, true
		}
	}
	if tasks {
		s.info.Capabilities = mcp.TasksCapabilities(s.info.Capabilities)
	}
	if t.HasApps() {
		s.info.Capabilities = mcp.WithExtension(s.info.Capabilities, table.ExtensionUI)
	}
	for _, rl := range l.Resources {
		s.resources = append(s.resources, resourceListing(&rl))
	}
	for _, tl := range l.ResourceTemplates {
		s.templates = append(s.templates, templateListing(&tl))
	}
	for _, pl := range l.Prompts {
		s.prompts = append(s.prompts, promptListing(&pl))
	}
	return s
}

func serverInfo(srv *table.ServerListing) *mcp.ServerInfo {
	info := &mcp.ServerInfo{
		Implementation: mcp.Implementation{Name: srv.Name, Version: srv.Version, Title: srv.Title,
			Description: srv.Description, WebsiteURL: srv.WebsiteURL, Icons: icons(srv.Icons)},
		Instructions: srv.Instructions,
	}
	caps := &info.Capabilities
	caps.Logging = &struct{}{}
	// The lists can change on reload, so listChanged is always offered.
	caps.Tools = &mcp.ListChangedCapability{ListChanged: true}
	// Subscriptions are accepted; updates are sent when a reload changes a
	// subscribed resource's listing.
	caps.Resources = &mcp.ResourcesCapability{ListChanged: true, Subscribe: true}
	caps.Prompts = &mcp.ListChangedCapability{ListChanged: true}
	caps.Completions = &struct{}{}
	return info
}

func icons(in []table.Icon) []mcp.Icon {
	var out []mcp.Icon
	for _, ic := range in {
		out = append(out, mcp.Icon{Src: ic.Src, MimeType: ic.MimeType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	return out
}

// listingReuse keeps the encoded schema and the annotations of each
// schema and annotation map the table's tools share (table shares equal
// ones), so that tools alike share them in the listing too. Neither is
// changed once listed.
type listingReuse struct {
	schemas     map[uintptr]json.RawMessage
	annotations map[uintptr]*mcp.ToolAnnotations
}

func (r *listingReuse) schema(m map[string]any) json.RawMessage {
	if r.schemas == nil {
		r.schemas = map[uintptr]json.RawMessage{}
	}
	key := mapIdentity(m)
	if raw, ok := r.schemas[key]; ok {
		return raw
	}
	raw := mustJSON(m)
	r.schemas[key] = raw
	return raw
}

func (r *listingReuse) toolAnnotations(m map[string]any) *mcp.ToolAnnotations {
	if r.annotations == nil {
		r.annotations = map[uintptr]*mcp.ToolAnnotations{}
	}
	key := mapIdentity(m)
	if a, ok := r.annotations[key]; ok {
		return a
	}
	a := toolAnnotations(m)
	r.annotations[key] = a
	return a
}

// mapIdentity tells maps apart by identity: the shared ones are the same
// map, and telling equal ones apart by content would cost an encoding.
func mapIdentity(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }

func toolListing(t *table.ToolListing, headerParams map[string]string) mcp.Tool {
	var fresh listingReuse
	return fresh.toolListing(t, headerParams)
}

func (r *listingReuse) toolListing(t *table.ToolListing, headerParams map[string]string) mcp.Tool {
	out := mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, Icons: icons(t.Icons), HeaderParams: headerParams}
	out.InputSchema = r.schema(t.InputSchema)
	if t.OutputSchema != nil {
		out.OutputSchema = r.schema(t.OutputSchema)
	}
	if len(t.Annotations) > 0 {
		out.Annotations = r.toolAnnotations(t.Annotations)
	}
	if t.Meta != nil {
		out.Meta = mustJSON(t.Meta)
	}
	return out
}

func toolAnnotations(m map[string]any) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{}
	a.Title, _ = m["title"].(string)
	hint := func(key string) *bool {
		if v, ok := m[key].(bool); ok {
			return &v
		}
		return nil
	}
	a.ReadOnlyHint, a.DestructiveHint = hint("readOnlyHint"), hint("destructiveHint")
	a.IdempotentHint, a.OpenWorldHint = hint("idempotentHint"), hint("openWorldHint")
	return a
}

func resourceListing(r *table.ResourceListing) mcp.Resource {
	out := mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
		MimeType: r.MimeType, Annotations: annotations(r.Annotations), Icons: icons(r.Icons)}
	if r.Size > 0 {
		size := r.Size
		out.Size = &size
	}
	if r.Meta != nil {
		out.Meta = mustJSON(r.Meta)
	}
	return out
}

func templateListing(t *table.TemplateListing) mcp.ResourceTemplate {
	return mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title,
		Description: t.Description, MimeType: t.MimeType, Annotations: annotations(t.Annotations), Icons: icons(t.Icons)}
}

func annotations(m map[string]any) *mcp.Annotations {
	if len(m) == 0 {
		return nil
	}
	a := &mcp.Annotations{}
	if aud, ok := m["audience"].([]any); ok {
		for _, v := range aud {
			a.Audience = append(a.Audience, v.(string))
		}
	}
	if p, ok := m["priority"].(float64); ok {
		a.Priority = &p
	}
	return a
}

func promptListing(p *table.PromptListing) mcp.Prompt {
	out := mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Icons: icons(p.Icons)}
	for _, a := range p.Arguments {
		out.Arguments = append(out.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
	}
	return out
}

// mustJSON encodes values built by the compiler from JSON-ready parts; a
// failure is a bug in the compiler.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("server: cannot encode compiled value: " + err.Error())
	}
	return b
}
