package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
)

// View is the server as one endpoint shows it: every tool, or the tools of
// some toolsets; directly, or through the three meta-tools of the dynamic
// mode. Everything but the tools (resources, prompts, tasks) is the
// server's. A call through the meta-tool call_tool is the server's
// CallTool of the named tool, so arguments, scopes, redaction, steps,
// tasks and metrics are those of a direct call.
type View struct {
	*Server
	sets    []string
	dynamic bool
}

var _ mcp.Handler = (*View)(nil)

// View returns the server as an endpoint serving the tools of toolsets
// (none: every tool); dynamic forces the dynamic mode, which the table's
// server block or one of the toolsets may also ask for.
func (s *Server) View(toolsets []string, dynamic bool) *View {
	return &View{Server: s, sets: slices.Clone(toolsets), dynamic: dynamic}
}

// viewOf is what a view serves of one generation.
type viewOf struct {
	t       *table.Table
	sets    []*table.Toolset
	dynamic bool
}

func (v *View) of(t *table.Table) viewOf {
	out := viewOf{t: t, dynamic: v.dynamic || t.Dynamic}
	for _, name := range v.sets {
		ts := t.Toolset(name)
		if ts == nil {
			// A reload removed it: the endpoint serves no tool.
			ts = &table.Toolset{Name: name}
		}
		out.sets = append(out.sets, ts)
		out.dynamic = out.dynamic || ts.Dynamic
	}
	return out
}

// has reports whether the view serves the tool named name.
func (vo viewOf) has(name string) bool {
	return vo.t.Tool(name) != nil && vo.inSets(name)
}

// inSets reports whether the view's toolsets hold name (a view of no
// toolset holds every tool); whether the table has it is has's question.
func (vo viewOf) inSets(name string) bool {
	if len(vo.sets) == 0 {
		return true
	}
	for _, ts := range vo.sets {
		if ts.Has(name) {
			return true
		}
	}
	return false
}

// scopes are the scopes the view's endpoint requires, of all its toolsets.
func (vo viewOf) scopes() []string {
	var out []string
	for _, ts := range vo.sets {
		for _, s := range ts.Scopes {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// metaTools are the listings of the meta-tools, built once.
var metaTools = sync.OnceValue(func() []mcp.Tool {
	var out []mcp.Tool
	for _, tl := range table.MetaTools() {
		out = append(out, toolListing(&tl, nil))
	}
	return out
})

// metaListing is the meta-tools' listing; when a tool of the view may run
// as a task, call_tool says it may, so that a 2025-11-25 client asks for
// one (a tool that does not run as a task answers such a call at once).
func (vo viewOf) metaListing() []mcp.Tool {
	for _, t := range vo.t.Tools {
		if t.Task != nil && vo.has(t.Name) {
			out := slices.Clone(metaTools())
			for i := range out {
				if out[i].Name == table.MetaCall {
					out[i].TaskSupport = table.TaskOptional
				}
			}
			return out
		}
	}
	return metaTools()
}

// ListTools implements mcp.Handler: the view's tools, or the meta-tools.
func (v *View) ListTools(ctx context.Context, req *mcp.Request) ([]mcp.Tool, error) {
	st := v.state.Load()
	vo := v.of(st.table)
	if vo.dynamic {
		return vo.metaListing(), nil
	}
	if len(vo.sets) == 0 {
		return st.tools, nil
	}
	out := make([]mcp.Tool, 0, len(st.tools))
	for _, tl := range st.tools {
		if vo.has(tl.Name) {
			out = append(out, tl)
		}
	}
	return out, nil
}

// ToolHeaderParams implements mcp.ToolHeaderLookup for the view's tools.
// The tool is looked up once, in the generation the view is taken of.
func (v *View) ToolHeaderParams(name string) map[string]string {
	t := v.state.Load().table
	tool := t.Tool(name)
	if tool == nil || !v.of(t).inSets(name) {
		return nil
	}
	return tool.HeaderParams
}

// CallTool implements mcp.Handler: a tool outside the view is unknown, as
// a tool no configuration declares; in the dynamic mode the meta-tools
// answer too.
func (v *View) CallTool(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	vo := v.of(v.state.Load().table)
	if vo.dynamic && table.IsMetaTool(p.Name) {
		if inner := v.metaCall(vo, p); inner != nil {
			if v.state.Load().hooks != nil {
				ctx = context.WithValue(ctx, viaMeta{}, p.Name)
			}
			return v.Server.CallTool(ctx, req, inner)
		}
		return v.watched(ctx, req, p.Name, func() (*mcp.CallToolResult, error) { return v.callMeta(vo, p), nil })
	}
	if !vo.has(p.Name) {
		// Logged and counted as the call of a name the configuration
		// does not have, which is what the client sees.
		return v.watched(ctx, req, unknownName, func() (*mcp.CallToolResult, error) {
			return nil, mcp.InvalidParams("unknown tool %q", p.Name)
		})
	}
	return v.Server.CallTool(ctx, req, p)
}

// watched runs a call the view answers itself, logged, counted and traced
// as a tool call labelled label (a meta-tool's name, or unknownName).
func (v *View) watched(ctx context.Context, req *mcp.Request, label string, f func() (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	ctx = logs.WithRequest(ctx, traceparent(req))
	st := v.acquire()
	defer st.release()
	o := v.observe(KindTool)
	if o.watched() {
		o.name = label
		ctx = o.trace(ctx, req)
	}
	start := auditStart(st)
	res, err := f()
	if o.watched() {
		o.end(ctx, st, err, res != nil && res.IsError, false)
	}
	if st.hooks != nil && st.hooks.audit != nil {
		v.auditMeta(ctx, st, req, start, label, res, err)
	}
	return res, err
}

// metaCall is the call of the tool a valid call_tool names, with its
// arguments; nil for every other meta-call, which callMeta answers.
func (v *View) metaCall(vo viewOf, p *mcp.CallToolParams) *mcp.CallToolParams {
	if p.Name != table.MetaCall {
		return nil
	}
	a, err := decodeMeta(p)
	if err != nil || a.Name == nil || a.Query != nil || a.Limit != nil || !vo.has(*a.Name) {
		return nil
	}
	inner := *p
	inner.Name, inner.Arguments = *a.Name, a.Arguments
	if string(inner.Arguments) == "null" {
		inner.Arguments = nil
	}
	return &inner
}

func decodeMeta(p *mcp.CallToolParams) (metaArgs, error) {
	var a metaArgs
	if len(p.Arguments) == 0 {
		return a, nil
	}
	dec := json.NewDecoder(bytes.NewReader(p.Arguments))
	dec.DisallowUnknownFields()
	err := dec.Decode(&a)
	return a, err
}

// metaArgs are the arguments of the meta-tools.
type metaArgs struct {
	Query     *string         `json:"query"`
	Limit     *int            `json:"limit"`
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// callMeta answers search_tools, describe_tool, and a call_tool that
// names no tool of the view or is malformed.
func (v *View) callMeta(vo viewOf, p *mcp.CallToolParams) *mcp.CallToolResult {
	a, err := decodeMeta(p)
	if err != nil {
		return metaError("The arguments of %s are not valid: %s. Give an object as its input schema says.", p.Name, err)
	}
	switch p.Name {
	case table.MetaSearch:
		if a.Query == nil || strings.TrimSpace(*a.Query) == "" || a.Name != nil || a.Arguments != nil {
			return metaError("search_tools needs a query: a few words describing the task, as in {\"query\": \"list open issues\"}.")
		}
		limit := 10
		if a.Limit != nil {
			if *a.Limit < 1 || *a.Limit > 50 {
				return metaError("limit is from 1 to 50.")
			}
			limit = *a.Limit
		}
		return searchResult(vo, *a.Query, limit)
	case table.MetaDescribe:
		if a.Name == nil || a.Query != nil || a.Limit != nil || a.Arguments != nil {
			return metaError("describe_tool needs the name of a tool, as in {\"name\": \"list_issues\"}.")
		}
		if !vo.has(*a.Name) {
			return unknownMeta(vo, *a.Name)
		}
		return describeResult(v.state.Load(), *a.Name)
	default: // call_tool that metaCall did not pass on
		if a.Name == nil || a.Query != nil || a.Limit != nil {
			return metaError("call_tool needs the name of a tool and its arguments, as in {\"name\": \"list_issues\", \"arguments\": {}}.")
		}
		return unknownMeta(vo, *a.Name)
	}
}

func metaError(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.ContentBlock{{Type: "text", Text: fmt.Sprintf(format, args...)}}}
}

// unknownMeta answers a meta-tool given a tool the view does not serve.
func unknownMeta(vo viewOf, name string) *mcp.CallToolResult {
	var names []string
	for _, t := range vo.t.Tools {
		if vo.has(t.Name) {
			names = append(names, t.Name)
		}
	}
	return metaError("There is no tool %q here.%s search_tools finds the tools by what they do.", name, rule.DidYouMean(name, names))
}

// searchResult lists the best matches of query, each with its name,
// title and description.
func searchResult(vo viewOf, query string, limit int) *mcp.CallToolResult {
	type hit struct {
		Name        string `json:"name"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
	}
	hits := []hit{}
	for _, t := range vo.t.SearchTools(query, func(t *table.Tool) bool { return vo.has(t.Name) }, limit) {
		hits = append(hits, hit{t.Name, t.Title, t.Description})
	}
	out := mustJSON(map[string]any{"tools": hits})
	text := string(out)
	if len(hits) == 0 {
		text = "No tool matches these words. Try other words: what the tool acts on, or what it does."
	}
	return &mcp.CallToolResult{StructuredContent: out, Content: []mcp.ContentBlock{{Type: "text", Text: text}}}
}

// describeResult is the tool's entry of tools/list, with its execution.
func describeResult(st *state, name string) *mcp.CallToolResult {
	for _, tl := range st.tools {
		if tl.Name != name {
			continue
		}
		if tl.TaskSupport != "" {
			tl.Execution = &mcp.ToolExecution{TaskSupport: tl.TaskSupport}
		}
		out := mustJSON(tl)
		return &mcp.CallToolResult{StructuredContent: out, Content: []mcp.ContentBlock{{Type: "text", Text: string(out)}}}
	}
	return metaError("There is no tool %q here.", name)
}

// Guard is the mcp.HTTPGuard of the view's endpoint: the server's token
// checks, and then the scopes of its toolsets. A request without a token
// gets 401 naming those scopes (after the auth block's initial scopes); a
// token without them 403 naming the scopes to ask for.
func (v *View) Guard(w http.ResponseWriter, r *http.Request) *http.Request {
	st := v.state.Load()
	need := v.of(st.table).scopes()
	if st.verifier == nil || len(need) == 0 {
		return v.Server.Guard(w, r)
	}
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if !preflight && r.Header.Get("Authorization") == "" && (r.URL.RawQuery == "" || !r.URL.Query().Has("access_token")) {
		// What a client first asks for here: the scopes of the first
		// 401 the MCP endpoint gives, and the toolsets'.
		var initial []string
		if st.table.Auth != nil {
			initial = st.table.Auth.InitialScopes
		}
		st.verifier.Challenge(w, r, http.StatusUnauthorized, nil, stepUp(initial, need))
		return nil
	}
	passed := v.Server.Guard(w, r)
	if passed == nil || preflight {
		return passed
	}
	id := auth.FromContext(passed.Context())
	if id == nil {
		return passed
	}
	if missing := id.Missing(need); len(missing) > 0 {
		msg := fmt.Sprintf("This endpoint serves toolsets that need the scope %s, which the access token does not grant. Authorize again asking for it.", strings.Join(missing, " "))
		st.verifier.Challenge(w, r, http.StatusForbidden, &auth.Error{Code: "insufficient_scope", Description: msg}, stepUp(id.Scopes, need))
		return nil
	}
	return passed
}

// stepUp is what a token should ask for: the scopes it holds and those
// needed, so that authorizing again loses nothing.
func stepUp(held, need []string) []string {
	out := slices.Clone(held)
	for _, s := range need {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
