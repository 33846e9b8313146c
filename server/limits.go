package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/mcpdecl/mcpdecl/limits"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/table"
)

// callHooks are what a call does beside running when the configuration
// has limit blocks or the server writes an audit trail. A generation
// without either has none (nil), so that a call pays one comparison.
type callHooks struct {
	limits    []*table.Limit
	store     limits.Store
	audit     *audit.Log
	onRefused LimitRefusedFunc
}

// LimitRefusedFunc is told of each call a limit refused: the tool's
// configured name and the limit's scope (table.LimitPer*).
type LimitRefusedFunc func(tool, scope string)

// hooksFor returns the hooks of a generation serving t, nil when neither
// limits nor audit are on.
func (s *Server) hooksFor(t *table.Table) *callHooks {
	if len(t.Limits) == 0 && s.audit == nil {
		return nil
	}
	h := &callHooks{limits: t.Limits, audit: s.audit, onRefused: s.onRefused}
	if len(t.Limits) > 0 {
		h.store = s.limitStore()
	}
	return h
}

// limitStore is Options.LimitStore, or one memory store made the first
// time a configuration has limits.
func (s *Server) limitStore() limits.Store {
	s.limitMu.Lock()
	defer s.limitMu.Unlock()
	if s.limitBuckets == nil {
		s.limitBuckets = limits.NewMemory()
	}
	return s.limitBuckets
}

// principal is who a call is from, for limits and the audit trail, by
// the rule of task owners (tasks.Runner's owner): the verified token's
// issuer and subject; over stdio the one client; a 2025 client's
// session; else one anonymous caller per server.
func (s *Server) principal(ctx context.Context, req *mcp.Request) string {
	if s.identity != nil {
		if sub := s.identity(ctx, req); sub != "" {
			return "sub:" + sub
		}
	}
	if req.Header == nil {
		return "stdio"
	}
	if req.Session != "" {
		return "session:" + req.Session
	}
	return "anonymous"
}

// serverLimitTaken marks a request whose whole-server limits were taken
// before its body was read (Guard), so that the call does not take them
// again.
type serverLimitTaken struct{}

// refusal is a call a limit refused.
type refusal struct {
	limit *table.Limit
	wait  time.Duration
}

// take takes a token of every limit covering the tool; the first that
// has none refuses the call, and the tokens the others gave are returned
// (a refused call costs no limit anything). A store that fails lets the
// call through (logged): limits protect backends, and an outage of the
// store should not become an outage of the server.
func (s *Server) take(ctx context.Context, h *callHooks, req *mcp.Request, tool string) *refusal {
	var who string
	var taken []takenToken
	// The whole-server limits guardLimits took before the body was read
	// are given back like the others if a limit refuses.
	guarded := ctx.Value(serverLimitTaken{}) != nil
	if guarded {
		for _, l := range h.limits {
			if l.Per == table.LimitPerServer && l.AllTools {
				taken = append(taken, takenToken{l.Name + "\x00s", l})
			}
		}
	}
	for _, l := range h.limits {
		if !l.Covers(tool) {
			continue
		}
		var key string
		switch l.Per {
		case table.LimitPerCaller:
			if who == "" {
				who = s.principal(ctx, req)
			}
			key = l.Name + "\x00c\x00" + who
		case table.LimitPerTool:
			key = l.Name + "\x00t\x00" + tool
		default:
			if l.AllTools && guarded {
				continue
			}
			key = l.Name + "\x00s"
		}
		d, err := h.store.Take(ctx, key, l.Bucket)
		if err != nil {
			s.log.WarnContext(ctx, "limit store failed: the call is let through", "limit", l.Name, "error", err)
			continue
		}
		if !d.Allowed {
			if h.onRefused != nil {
				h.onRefused(tool, l.Per)
			}
			s.giveBack(ctx, h, taken)
			return &refusal{limit: l, wait: d.RetryAfter}
		}
		taken = append(taken, takenToken{key, l})
	}
	return nil
}

// takenToken is a token take took, by its bucket's key and limit.
type takenToken struct {
	key   string
	limit *table.Limit
}

// giveBack returns the tokens a refused call took.
func (s *Server) giveBack(ctx context.Context, h *callHooks, taken []takenToken) {
	for _, tk := range taken {
		if err := h.store.Return(ctx, tk.key, tk.limit.Bucket); err != nil {
			s.log.WarnContext(ctx, "limit store failed to take back a token", "limit", tk.limit.Name, "error", err)
		}
	}
}

// result is the tool error result of a refused call: the model reads
// when to try again.
func (r *refusal) result() *mcp.CallToolResult {
	secs := retrySeconds(r.wait)
	text := fmt.Sprintf("Refused by the limit %q (%s, %s): retry in %d seconds, after %s.",
		r.limit.Name, r.limit.Bucket.Rate, scopeText(r.limit.Per), secs, time.Now().Add(time.Duration(secs)*time.Second).UTC().Format(time.RFC3339))
	return &mcp.CallToolResult{IsError: true, Content: []mcp.ContentBlock{{Type: "text", Text: text}}}
}

func scopeText(per string) string {
	switch per {
	case table.LimitPerCaller:
		return "per caller"
	case table.LimitPerTool:
		return "per tool"
	}
	return "for the whole server"
}

// retrySeconds is a wait in whole seconds, at least 1 (Retry-After's unit).
func retrySeconds(d time.Duration) int64 {
	return max(1, int64(math.Ceil(d.Seconds())))
}

// guardLimits answers 429 with Retry-After to a modern HTTP tools/call
// (the Mcp-Method header names it before the body is read) when a limit
// on every tool of the whole server has no token. It returns r, marked
// when such limits were taken, or nil when it answered.
func (s *Server) guardLimits(w http.ResponseWriter, r *http.Request) *http.Request {
	st := s.state.Load()
	h := st.hooks
	if h == nil || len(h.limits) == 0 || r.Method != http.MethodPost || r.Header.Get("Mcp-Method") != "tools/call" {
		return r
	}
	// The meta-tools answered without a call (search_tools,
	// describe_tool) take no token, as in every other era.
	name := r.Header.Get("Mcp-Name")
	if table.IsMetaTool(name) && name != table.MetaCall {
		return r
	}
	took := false
	for _, l := range h.limits {
		if l.Per != table.LimitPerServer || !l.AllTools {
			continue
		}
		took = true
		d, err := h.store.Take(r.Context(), l.Name+"\x00s", l.Bucket)
		if err != nil {
			s.log.WarnContext(r.Context(), "limit store failed: the call is let through", "limit", l.Name, "error", err)
			continue
		}
		if !d.Allowed {
			if h.onRefused != nil {
				h.onRefused(toolName(st.table, name), l.Per)
			}
			w.Header().Set("Retry-After", strconv.FormatInt(retrySeconds(d.RetryAfter), 10))
			http.Error(w, fmt.Sprintf("refused by the limit %q (%s for the whole server)", l.Name, l.Bucket.Rate), http.StatusTooManyRequests)
			return nil
		}
	}
	if !took {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), serverLimitTaken{}, true))
}
