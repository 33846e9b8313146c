package mcp

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"time"
)

// methodSpec is one row of the method table.
type methodSpec struct {
	modern, legacy bool
	gate           func(c *ServerCapabilities) bool   // server capability the method needs
	needs          func(r *Request, p *params) *Error // client capability check (ladder step 11)
	legacySince    string                             // the first legacy revision with the method; "" for all
	run            func(ctx context.Context, c *call) ([]byte, *Error)
}

// call bundles what a method implementation needs.
type call struct {
	s    *Server
	in   *inbound
	p    *params
	req  *Request
	info *ServerInfo

	// whole is set when the method's output is the complete response.
	whole bool
}

func hasTools(c *ServerCapabilities) bool       { return c.Tools != nil }
func hasResources(c *ServerCapabilities) bool   { return c.Resources != nil }
func hasPrompts(c *ServerCapabilities) bool     { return c.Prompts != nil }
func hasCompletions(c *ServerCapabilities) bool { return c.Completions != nil }
func hasLogging(c *ServerCapabilities) bool     { return c.Logging != nil }
func hasSubscribe(c *ServerCapabilities) bool   { return c.Resources != nil && c.Resources.Subscribe }

// methods is the method table for both eras. Methods the 2026-07-28 revision
// removed (initialize, ping, logging/setLevel, resources/(un)subscribe) are
// legacy-only rows, so a modern request for them gets -32601 (404 on HTTP),
// as conformance expects.
var methods map[string]*methodSpec

func init() {
	methods = map[string]*methodSpec{
		"server/discover":          {modern: true, run: runDiscover},
		"subscriptions/listen":     {modern: true, run: runListen},
		"initialize":               {legacy: true, run: runInitialize},
		"ping":                     {legacy: true, run: runEmpty},
		"logging/setLevel":         {legacy: true, gate: hasLogging, run: runSetLevel},
		"resources/subscribe":      {legacy: true, gate: hasSubscribe, run: runSubscribe},
		"resources/unsubscribe":    {legacy: true, gate: hasSubscribe, run: runSubscribe},
		"tools/list":               {modern: true, legacy: true, gate: hasTools, run: runListTools},
		"tools/call":               {modern: true, legacy: true, gate: hasTools, run: runCallTool},
		"resources/list":           {modern: true, legacy: true, gate: hasResources, run: runListResources},
		"resources/templates/list": {modern: true, legacy: true, gate: hasResources, run: runListTemplates},
		"resources/read":           {modern: true, legacy: true, gate: hasResources, run: runReadResource},
		"prompts/list":             {modern: true, legacy: true, gate: hasPrompts, run: runListPrompts},
		"prompts/get":              {modern: true, legacy: true, gate: hasPrompts, run: runGetPrompt},
		"completion/complete":      {modern: true, legacy: true, gate: hasCompletions, run: runComplete},
		// Tasks: the 2026-07-28 extension and 2025-11-25's experimental
		// methods (see tasks.go). tasks/get and tasks/cancel exist in
		// both, gated by each era's own capability.
		"tasks/get":    {modern: true, legacy: true, legacySince: Version20251125, gate: hasTaskMethods, needs: needsTasksExtension, run: runGetTask},
		"tasks/cancel": {modern: true, legacy: true, legacySince: Version20251125, gate: hasTaskMethods, needs: needsTasksExtension, run: runCancelTask},
		"tasks/update": {modern: true, gate: hasTasksExtension, needs: needsTasksExtension, run: runUpdateTask},
		"tasks/result": {legacy: true, legacySince: Version20251125, gate: hasLegacyTasks, run: runTaskResult},
		"tasks/list":   {legacy: true, legacySince: Version20251125, gate: hasLegacyTasks, run: runListTasks},
	}
	for name := range methods {
		known[name] = name
	}
}

// lookup is step 10 of the validation ladder: the method must exist in the request's era and its
// server capability must be advertised; otherwise -32601.
func (s *Server) lookup(method string, era Era, version string) (*methodSpec, *Error) {
	spec := methods[method]
	if spec == nil || (era == EraModern && !spec.modern) || (era == EraLegacy && (!spec.legacy || !atLeast(version, spec.legacySince))) {
		return nil, ladderErr(CodeMethodNotFound, "method not found: %s", method)
	}
	if spec.gate != nil && !spec.gate(&s.h.Info().Capabilities) {
		return nil, ladderErr(CodeMethodNotFound, "method not found: %s (capability not offered)", method)
	}
	return spec, nil
}

// dispatch runs a validated request (the ladder's last step).
// whole reports an out that is already the complete response (see
// call.answer), not a result still to be wrapped.
func (s *Server) dispatch(ctx context.Context, in *inbound, p *params, req *Request) (out []byte, whole bool, e *Error) {
	// A handler's bug costs one request an internal error, not the
	// server and every other client's requests.
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("handler panicked", "method", in.msg.Method, "panic", v, "stack", string(debug.Stack()))
			out, whole, e = nil, false, Errorf(CodeInternalError, "internal error while handling %s; the server log has the details", in.msg.Method)
		}
	}()
	req.Notifier = &notifier{req: req, out: in.out}
	c := &call{s: s, in: in, p: p, req: req, info: s.h.Info()}
	out, e = methods[in.msg.Method].run(ctx, c)
	return out, c.whole, e
}

func runEmpty(ctx context.Context, c *call) ([]byte, *Error) { return []byte("{}"), nil }

func runDiscover(ctx context.Context, c *call) ([]byte, *Error) {
	r := struct {
		SupportedVersions []string           `json:"supportedVersions"`
		Capabilities      ServerCapabilities `json:"capabilities"`
		Instructions      string             `json:"instructions,omitempty"`
	}{c.s.versions.list, modernCaps(c.info.Capabilities), c.info.Instructions}
	return c.result(r, true, nil, nil)
}

func runInitialize(ctx context.Context, c *call) ([]byte, *Error) {
	version, ok := c.s.versions.negotiate(c.p.ProtocolVersion)
	if !ok {
		return nil, versionErr(c.p.ProtocolVersion, c.s.versions.list)
	}
	if c.in.sess != nil {
		var caps ClientCapabilities
		var info *Implementation
		_ = json.Unmarshal(c.p.Capabilities, &caps)
		if len(c.p.ClientInfo) > 0 {
			info = new(Implementation)
			_ = json.Unmarshal(c.p.ClientInfo, info)
		}
		c.in.sess.initialize(version, caps, info)
	}
	r := struct {
		ProtocolVersion string             `json:"protocolVersion"`
		Capabilities    ServerCapabilities `json:"capabilities"`
		ServerInfo      Implementation     `json:"serverInfo"`
		Instructions    string             `json:"instructions,omitempty"`
	}{version, legacyCaps(c.info.Capabilities, version), legacyImpl(c.info.Implementation, version), c.info.Instructions}
	if c.in.sess != nil && c.in.sess.signed {
		r.Capabilities = withoutPushes(r.Capabilities)
	}
	return c.result(r, false, nil, nil)
}

func runSetLevel(ctx context.Context, c *call) ([]byte, *Error) {
	if !validLogLevel(c.p.Level) {
		return nil, InvalidParams("invalid log level %q", c.p.Level)
	}
	if c.in.sess != nil {
		c.in.sess.setLogLevel(c.p.Level)
	}
	return []byte("{}"), nil
}

func runSubscribe(ctx context.Context, c *call) ([]byte, *Error) {
	if e := c.unservedSubscription(); e != nil {
		return nil, e
	}
	if c.p.URI == "" {
		return nil, InvalidParams("missing uri")
	}
	if c.in.sess != nil && !c.in.sess.subscribe(c.p.URI, c.req.Method == "resources/subscribe") {
		return nil, InvalidParams("too many subscriptions: at most %d per session; unsubscribe from some first", maxSubscriptions)
	}
	return []byte("{}"), nil
}

// unservedSubscription refuses resources/subscribe of a URI the handler
// does not serve, when it can tell (ResourceLookup).
func (c *call) unservedSubscription() *Error {
	l, ok := c.s.h.(ResourceLookup)
	if !ok || c.p.URI == "" || c.req.Method != "resources/subscribe" || l.HasResource(c.p.URI) {
		return nil
	}
	return ResourceNotFound(c.p.URI)
}

func runCallTool(ctx context.Context, c *call) ([]byte, *Error) {
	if c.p.Name == "" {
		return nil, InvalidParams("missing tool name")
	}
	if a := c.p.Arguments; a != nil && firstByte(a) != '{' && string(a) != "null" {
		return nil, InvalidParams("tool arguments must be an object")
	}
	args := json.RawMessage(c.p.Arguments)
	if string(args) == "null" {
		args = nil
	}
	p := &CallToolParams{Name: c.p.Name, Arguments: args, MRTR: c.mrtr()}
	if c.req.Era == EraLegacy && len(c.p.Task) > 0 && string(c.p.Task) != "null" && atLeast(c.req.ProtocolVersion, Version20251125) {
		var tr struct {
			TTL *int64 `json:"ttl"`
		}
		if json.Unmarshal(c.p.Task, &tr) != nil {
			return nil, InvalidParams("task must be an object, optionally with ttl in milliseconds")
		}
		p.Task = &TaskRequest{}
		if tr.TTL != nil && *tr.TTL > 0 {
			p.Task.TTL = time.Duration(*tr.TTL) * time.Millisecond
		}
	}
	if hops := c.p.Meta.hops(); hops != nil {
		ctx = WithHops(ctx, hops)
	}
	r, err := c.s.h.CallTool(ctx, c.req, p)
	if err != nil {
		return nil, asError(err)
	}
	if r == nil {
		r = &CallToolResult{}
	}
	return c.shapeCallTool(r)
}

func runReadResource(ctx context.Context, c *call) ([]byte, *Error) {
	if c.p.URI == "" {
		return nil, InvalidParams("missing uri")
	}
	r, err := c.s.h.ReadResource(ctx, c.req, &ReadResourceParams{URI: c.p.URI, MRTR: c.mrtr()})
	if err != nil {
		return nil, asError(err)
	}
	if r == nil || len(r.Contents) == 0 && r.InputRequired == nil {
		// Never an empty contents for a missing resource.
		return nil, ResourceNotFound(c.p.URI)
	}
	if r.InputRequired != nil {
		return c.inputRequired(r.InputRequired, "resources/read")
	}
	out := struct {
		Contents []ResourceContents `json:"contents"`
	}{shapeContents(r.Contents, c.req)}
	return c.result(out, true, r.Cache, r.Meta)
}

func runGetPrompt(ctx context.Context, c *call) ([]byte, *Error) {
	if c.p.Name == "" {
		return nil, InvalidParams("missing prompt name")
	}
	p := &GetPromptParams{Name: c.p.Name, MRTR: c.mrtr()}
	if len(c.p.Arguments) > 0 && string(c.p.Arguments) != "null" {
		if err := json.Unmarshal(c.p.Arguments, &p.Arguments); err != nil {
			return nil, InvalidParams("prompt arguments must be an object of strings")
		}
	}
	r, err := c.s.h.GetPrompt(ctx, c.req, p)
	if err != nil {
		return nil, asError(err)
	}
	if r == nil {
		r = &GetPromptResult{}
	}
	if r.InputRequired != nil {
		return c.inputRequired(r.InputRequired, "prompts/get")
	}
	out := *r
	if out.Messages == nil {
		out.Messages = []PromptMessage{}
	}
	out.Messages = shapeMessages(out.Messages, c.req)
	return c.result(out, false, nil, r.Meta)
}

func runComplete(ctx context.Context, c *call) ([]byte, *Error) {
	var p CompleteParams
	if err := json.Unmarshal(c.in.msg.Params, &p); err != nil {
		return nil, InvalidParams("invalid completion params: %v", err)
	}
	if p.Ref.Type != "ref/prompt" && p.Ref.Type != "ref/resource" {
		return nil, InvalidParams("invalid ref type %q", p.Ref.Type)
	}
	r, err := c.s.h.Complete(ctx, c.req, &p)
	if err != nil {
		return nil, asError(err)
	}
	if r == nil {
		r = &CompleteResult{}
	}
	type completion struct {
		Values  []string `json:"values"`
		Total   *int     `json:"total,omitempty"`
		HasMore bool     `json:"hasMore,omitempty"`
	}
	comp := completion{Values: r.Values, Total: r.Total, HasMore: r.HasMore}
	if comp.Values == nil {
		comp.Values = []string{}
	}
	if len(comp.Values) > 100 { // the schema caps values at 100
		comp.Values, comp.HasMore = comp.Values[:100], true
	}
	return c.result(struct {
		Completion completion `json:"completion"`
	}{comp}, false, nil, nil)
}

// mrtr copies the modern retry fields; legacy requests never carry them.
func (c *call) mrtr() MRTR {
	if c.req.Era != EraModern {
		return MRTR{}
	}
	return MRTR{InputResponses: json.RawMessage(c.p.InputResponses), RequestState: c.p.RequestState}
}
