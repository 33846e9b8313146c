package server

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/limits"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// Options configure a Server.
type Options struct {
	// Logger receives call failures with their full detail; the model sees
	// only the message written for it. Nil discards logs.
	Logger *slog.Logger
	// DefaultTimeout is the deadline of a call whose tool sets no timeout,
	// replacing its backend's. Zero (the default) leaves such calls to
	// their call block's or backend's timeout.
	DefaultTimeout time.Duration
	// StateKeys seal the requestState of modern multi-round calls
	// (elicitation). Replicas behind one load balancer need the same keys
	// (see mcp.Keys). Nil means a random key per process.
	StateKeys *mcp.Keys
	// HTTPAuth says the server is served over HTTP: when its table has an
	// auth block, tokens are checked (see Guard). Over stdio leave it
	// false: there is no token, and the auth block is not used.
	HTTPAuth bool
	// TaskStore keeps the tasks of tools with a task block; replicas
	// behind one load balancer need one shared store (tasks.Redis).
	// Nil means an in-memory store for this process.
	TaskStore tasks.Store
	// TaskLease is how long a running task counts as alive without its
	// replica renewing it (tasks.DefaultLease when zero).
	TaskLease time.Duration
	// MaxTasks bounds the tasks running at once on this server
	// (tasks.DefaultMax when zero, no bound when negative): a call beyond
	// it is refused, so that clients cannot start commands without end.
	MaxTasks int
	// MaxTasksPerOwner bounds the tasks one caller runs at once
	// (tasks.DefaultMaxPerOwner when zero, no bound when negative); callers
	// with neither a token nor a session share only MaxTasks.
	MaxTasksPerOwner int
	// Identity names the authenticated caller, to whom tasks are bound;
	// nil means the issuer and subject of the request's verified token
	// (auth block, over HTTP), else a 2025 client's session id, else
	// nobody.
	Identity tasks.Identity
	// Observer, when set, is told of every call and reload (metrics).
	// Nil costs a call nothing.
	Observer Observer
	// Tracer, when set, makes a span of every call and backend call.
	// Nil costs a call nothing.
	Tracer Tracer
	// OnBackendCall, when set, is told of every backend call (metrics).
	OnBackendCall BackendCallFunc
	// LimitStore keeps the buckets of the configuration's limit blocks;
	// replicas share one (limits.Redis). Nil means a memory store of this
	// server, made when a configuration first has limits.
	LimitStore limits.Store
	// OnLimitRefused, when set, is told of each call a limit refused.
	OnLimitRefused LimitRefusedFunc
	// Audit, when set, receives one record per tools/call,
	// resources/read, prompts/get and tasks/cancel, per task result
	// handed out (audit_tasks.go) and per completion that calls a
	// backend. Nil costs a call nothing.
	Audit *audit.Log
}

// Server implements mcp.Handler over a compiled table.
type Server struct {
	state     atomic.Pointer[state]
	swapMu    sync.Mutex // one swap at a time
	closed    bool       // by Close; guarded by swapMu
	log       *slog.Logger
	timeout   time.Duration
	stateKeys *mcp.Keys
	httpAuth  bool
	tasks     taskRunner
	obs       Observer
	tracer    Tracer
	callLog   *slog.Logger             // the logger when it writes a debug line per call, else nil
	backends  dispatch.BackendObserver // nil when backend calls are not watched
	gen       uint64                   // the generation served, 1 at start; guarded by swapMu

	identity     tasks.Identity // who calls, for limits and audit
	audit        *audit.Log
	onRefused    LimitRefusedFunc
	limitMu      sync.Mutex
	limitBuckets limits.Store
}

var (
	_ mcp.Handler          = (*Server)(nil)
	_ mcp.ToolHeaderLookup = (*Server)(nil)
	_ mcp.ResourceLookup   = (*Server)(nil)
)

// ToolHeaderParams implements mcp.ToolHeaderLookup: the Mcp-Param-*
// headers a modern HTTP call of the tool must carry.
func (s *Server) ToolHeaderParams(name string) map[string]string {
	if t := s.state.Load().table.Tool(name); t != nil {
		return t.HeaderParams
	}
	return nil
}

// New returns a Server serving t.
func New(t *table.Table, opts *Options) *Server {
	if opts == nil {
		opts = &Options{}
	}
	s := &Server{log: opts.Logger, timeout: opts.DefaultTimeout, stateKeys: opts.StateKeys, httpAuth: opts.HTTPAuth,
		obs: opts.Observer, tracer: opts.Tracer, backends: backendObserver(opts.Tracer, opts.OnBackendCall), gen: 1,
		identity: opts.Identity, audit: opts.Audit, onRefused: opts.OnLimitRefused, limitBuckets: opts.LimitStore}
	if s.identity == nil {
		s.identity = tokenSubject
	}
	if s.stateKeys == nil {
		s.stateKeys, _ = mcp.NewKeys(nil)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	} else {
		s.log = slog.New(redactingHandler{inner: s.log.Handler(), secrets: func() []string { return s.state.Load().secrets }})
		// The level is fixed for the process: decide once whether calls
		// are logged, so an unlogged call does not ask the handler.
		if s.log.Enabled(context.Background(), slog.LevelDebug) {
			s.callLog = s.log
		}
	}
	s.tasks = newTaskRunner(opts, s.log)
	st := newState(t)
	st.log = s.log
	st.verifier, st.authErr = s.newVerifier(t)
	st.hooks = s.hooksFor(t)
	s.state.Store(st)
	return s
}

// Swap replaces the served table atomically. Calls in flight finish on the
// table they started with. The caller owns t's backends (see Reload for a
// swap that opens and closes them). It returns the lists that changed, for
// list_changed notifications.
func (s *Server) Swap(t *table.Table) mcp.ListKind {
	kinds, _ := s.SwapAndDiff(t)
	return kinds
}

// SwapAndDiff is Swap that also returns the URIs of resources whose
// description or static content changed, for resources/updated.
func (s *Server) SwapAndDiff(t *table.Table) (mcp.ListKind, []string) {
	v, err := s.newVerifier(t)
	kinds, updated, _ := s.swap(t, false, v, err)
	return kinds, updated
}

// changedResources lists resources that exist in both generations but
// whose listing or static content differs.
func changedResources(prev, next *state) []string {
	if prev == nil {
		return nil
	}
	listed := make(map[string]mcp.Resource, len(prev.resources))
	for _, r := range prev.resources {
		listed[r.URI] = r
	}
	var out []string
	for i, r := range next.table.Resources {
		old := prev.table.Resource(r.URI)
		if old == nil {
			continue
		}
		same := old.Text == r.Text && old.Blob == r.Blob && old.File == r.File &&
			sameJSON(listed[r.URI], next.resources[i])
		if !same {
			out = append(out, r.URI)
		}
	}
	return out
}

// Table returns the table being served.
func (s *Server) Table() *table.Table { return s.state.Load().table }

// Info implements mcp.Handler.
func (s *Server) Info() *mcp.ServerInfo { return s.state.Load().info }

// ListTools implements mcp.Handler.
func (s *Server) ListTools(context.Context, *mcp.Request) ([]mcp.Tool, error) {
	return s.state.Load().tools, nil
}

// ListResources implements mcp.Handler.
func (s *Server) ListResources(context.Context, *mcp.Request) ([]mcp.Resource, error) {
	return s.state.Load().resources, nil
}

// ListResourceTemplates implements mcp.Handler.
func (s *Server) ListResourceTemplates(context.Context, *mcp.Request) ([]mcp.ResourceTemplate, error) {
	return s.state.Load().templates, nil
}

// ListPrompts implements mcp.Handler.
func (s *Server) ListPrompts(context.Context, *mcp.Request) ([]mcp.Prompt, error) {
	return s.state.Load().prompts, nil
}

func changedLists(prev, next *state) mcp.ListKind {
	var kinds mcp.ListKind
	if prev == nil || !sameJSON(prev.tools, next.tools) {
		kinds |= mcp.ToolsListChanged
	}
	if prev == nil || !sameJSON(prev.resources, next.resources) || !sameJSON(prev.templates, next.templates) {
		kinds |= mcp.ResourcesListChanged
	}
	if prev == nil || !sameJSON(prev.prompts, next.prompts) {
		kinds |= mcp.PromptsListChanged
	}
	return kinds
}

func sameJSON(a, b any) bool { return string(mustJSON(a)) == string(mustJSON(b)) }
