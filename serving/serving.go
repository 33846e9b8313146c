package serving

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/limits"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// Options are everything that decides how a configuration is served; the
// serve command sets one field per flag. Durations and bounds mean what
// the flags of the same names say, 0 included ("no limit" where a flag
// says so).
type Options struct {
	// Paths are the files or directories of the configuration; Vars its
	// variables (--var). LookupEnv reads env() and MCPDECL_VAR_<name>;
	// nil is os.LookupEnv.
	Paths     []string
	Vars      map[string]string
	LookupEnv func(string) (string, bool)

	// Logger gets the server's log lines; nil discards them.
	Logger *slog.Logger
	// Diagnostics gets the problems of a configuration that does not
	// compile (at Start and at each Reload), sorted, with the files they
	// point into; nil logs each as one line.
	Diagnostics func(hcl.Diagnostics, map[string]*hcl.File)

	// HTTP is the address to serve Streamable HTTP on (127.0.0.1:0 picks
	// a port; see Addr); "" serves stdio on Stdin and Stdout.
	HTTP           string
	Path           string // the MCP endpoint path; "" is /mcp
	Stdin          io.Reader
	Stdout         io.Writer
	LegacySessions bool
	AllowedOrigins []string
	CORS           bool
	HTTPLimits

	// StateKeyFile and StateKeys name the signing keys (a file re-read by
	// Reload, or comma-separated base64); neither: one random key.
	StateKeyFile string
	StateKeys    string

	TaskStore         string // "memory" (or "") or a Redis URL
	TaskLease         time.Duration
	MaxTasks          int
	MaxTasksPerCaller int
	DrainTimeout      time.Duration // how long Stop waits for calls and tasks
	TaskLimits        tasks.Limits
	// LimitStore keeps the buckets of limit blocks: "memory" (or "") or a
	// Redis URL shared by replicas.
	LimitStore string
	// Audit is where the audit trail is appended: a file, "-" for
	// stdout, "" for none.
	Audit string

	// Metrics serves /metrics on the HTTP listener, MetricsAddr on a
	// listener of its own.
	Metrics     bool
	MetricsAddr string
	// Traces exports spans even without an OTLP endpoint variable; Getenv
	// reads the OTEL_* variables (nil: os.Getenv); Version is the
	// service.version of the spans.
	Traces  bool
	Getenv  func(string) string
	Version string

	// Toolsets limits the MCP endpoint (and stdio) to the tools of these
	// toolsets; none: every tool. Over HTTP each toolset is also served at
	// its own endpoint (ToolsetPath) whatever this says.
	Toolsets []string
	// Dynamic serves every endpoint in the dynamic mode: three meta-tools
	// (search, describe, call) instead of the tools.
	Dynamic bool
}

// Instance is a configuration being served, from Start to Stop.
type Instance struct {
	opts Options
	log  *slog.Logger
	keys *mcp.Keys
	// loadPeak is the memory the process held at the end of the last
	// load, the ceiling a reload keeps to (see capReloadMemory).
	loadPeak uint64
	// releasing is the hand-back of the last load's garbage to the system,
	// which runs beside the serving (see load).
	releasing sync.WaitGroup
	store     tasks.Store
	// limitStore and audit are the limit buckets and the audit trail,
	// nil when unused.
	limitStore limits.Store
	audit      *audit.Log
	srv        *server.Server
	proto      *mcp.Server
	// view is the MCP endpoint's view of srv; toolsets the endpoints of
	// the toolsets (HTTP only).
	view     *server.View
	toolsets *toolsetEndpoints
	ready    *readiness

	metricsState
	traceState

	// life ends when Stop begins: the stdio transport, the metrics
	// listener and a reload in progress end with it.
	life   context.Context
	cancel context.CancelFunc

	ln   net.Listener
	hs   *http.Server
	mux  *routeMux
	done chan struct{} // closed when the transport has ended
	err  error         // the transport's error, once done

	reloadMu sync.Mutex
	stopOnce sync.Once
	stopErr  error
}

// Start loads the configuration, opens its backends, the task store, the
// metrics and traces, and serves: on Options.HTTP, or over stdio. ctx
// bounds the start only. A configuration that does not compile is a
// *ConfigError, its diagnostics given to Options.Diagnostics.
func Start(ctx context.Context, opts Options) (*Instance, error) {
	inst := &Instance{opts: opts, log: opts.Logger, done: make(chan struct{})}
	if inst.log == nil {
		inst.log = slog.New(slog.DiscardHandler)
	}
	if inst.opts.Path == "" {
		inst.opts.Path = "/mcp"
	}
	inst.life, inst.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if err := inst.start(ctx); err != nil {
		inst.cancel()
		inst.close()
		return nil, err
	}
	return inst, nil
}

func (i *Instance) start(ctx context.Context) error {
	log := i.log
	log.Debug("loading the configuration; SIGHUP from now on reloads it", "paths", i.opts.Paths)
	keys, err := i.openKeys()
	if err != nil {
		return err
	}
	i.keys = keys
	tbl, err := i.load()
	if err != nil {
		return err
	}
	if err := checkToolsets(tbl, i.opts.Toolsets); err != nil {
		return err
	}
	guard := func(h http.Handler, addr net.Addr) http.Handler { return i.guardHosts(h, addr) }
	if err := i.startMetrics(i.life, log, i.opts.HTTP, guard); err != nil {
		return err
	}
	if err := i.startTraces(ctx, log); err != nil {
		return err
	}
	store, err := i.openTaskStore(ctx)
	if err != nil {
		return err
	}
	i.store = store
	if err := i.openAudit(ctx); err != nil {
		return err
	}
	srv, err := server.Open(ctx, tbl, &server.Options{LimitStore: i.limitStore, Audit: i.audit, OnLimitRefused: i.onLimitRefused(), Logger: log, StateKeys: keys, TaskStore: store, TaskLease: i.opts.TaskLease, MaxTasks: offIfZero(i.opts.MaxTasks), MaxTasksPerOwner: offIfZero(i.opts.MaxTasksPerCaller),
		HTTPAuth: i.opts.HTTP != "", Observer: i.observer(), Tracer: i.tracer(), OnBackendCall: i.onBackendCall()})
	if err != nil {
		return err
	}
	i.srv = srv
	i.watchPools(srv)
	i.view = srv.View(i.opts.Toolsets, i.opts.Dynamic)
	i.proto = mcp.NewServer(i.view, &mcp.Options{Logger: log, OnRequest: i.onRequest(), OnOpen: i.onOpen()})
	if i.opts.HTTP == "" {
		if tbl.Auth != nil {
			log.Warn("the auth block is not used over stdio: no token is checked, scopes do not apply, and what reads auth.* is refused; serve with --http to check tokens")
		}
		log.Info(fmt.Sprintf("serving %s over stdio (%s)", tbl.Server.Name, counts(tbl)), "server", tbl.Server.Name, "transport", "stdio")
		go func() {
			i.err = i.proto.ServeStdio(i.life, i.stdin(), i.stdout())
			close(i.done)
		}()
		return nil
	}
	return i.serveHTTP()
}

func (i *Instance) stdin() io.Reader {
	if i.opts.Stdin == nil {
		return os.Stdin
	}
	return i.opts.Stdin
}

func (i *Instance) stdout() io.Writer {
	if i.opts.Stdout == nil {
		return os.Stdout
	}
	return i.opts.Stdout
}

func (i *Instance) serveHTTP() error {
	ln, err := net.Listen("tcp", i.opts.HTTP)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", i.opts.HTTP, err)
	}
	i.ln = ln
	var handler http.Handler
	handler, i.mux, i.ready = i.httpHandler(ln.Addr())
	i.hs = i.opts.server(handler)
	url := fmt.Sprintf("http://%s%s", ln.Addr(), i.opts.Path)
	tbl := i.srv.Table()
	i.log.Info(fmt.Sprintf("serving %s on %s (%s)", tbl.Server.Name, url, counts(tbl)), "server", tbl.Server.Name, "url", url)
	for _, ts := range tbl.Toolsets {
		tsURL := fmt.Sprintf("http://%s%s", ln.Addr(), ToolsetPath(i.opts.Path, ts.Name))
		i.log.Info(fmt.Sprintf("serving the toolset %s on %s (%d tools)", ts.Name, tsURL, len(ts.Tools)), "toolset", ts.Name, "url", tsURL)
	}
	go func() {
		i.err = i.hs.Serve(ln)
		close(i.done)
	}()
	return nil
}

// Addr is the address of the HTTP listener; nil over stdio.
func (i *Instance) Addr() net.Addr {
	if i.ln == nil {
		return nil
	}
	return i.ln.Addr()
}

// Done is closed when the transport ends by itself (stdin closed, the
// listener failed) or after Stop.
func (i *Instance) Done() <-chan struct{} { return i.done }

// Ready is the readiness report /readyz answers with (HTTP only; over
// stdio, the checks of the served configuration).
func (i *Instance) Ready(ctx context.Context) *ReadyReport {
	if i.ready != nil {
		return i.ready.report(ctx)
	}
	return checkReady(ctx, i.srv.Table(), i.store)
}

// Reload re-reads the key file and recompiles the configuration. A valid
// one replaces the served table atomically and every listener is told
// the lists changed; an invalid one is logged, returned, and the old table
// keeps serving.
func (i *Instance) Reload() error {
	i.reloadMu.Lock()
	defer i.reloadMu.Unlock()
	log := i.log
	i.reloadKeys(i.keys, log)
	tbl, err := i.load()
	if err == nil {
		err = checkToolsets(tbl, i.opts.Toolsets)
	}
	if err != nil {
		i.reloadFailed(err)
		log.Error("reload failed; still serving the previous configuration", "error", err.Error())
		return err
	}
	kinds, updated, err := i.srv.Reload(i.life, tbl)
	if err != nil {
		log.Error("reload failed; still serving the previous configuration", "error", err.Error())
		return err
	}
	for _, p := range i.allProtos() {
		p.NotifyListChanged(kinds)
		for _, uri := range updated {
			p.NotifyResourceUpdated(uri)
		}
	}
	// The previous table's backends close when its last call ends; with
	// none in flight it is garbage now, and its memory goes back too.
	returnLoadGarbage()
	log.Info("configuration reloaded", "tools", len(tbl.Tools))
	return nil
}

// Stop ends serving: over HTTP, /readyz says draining while calls and
// tasks in flight get Options.DrainTimeout to finish; over stdio the
// transport ends, and tasks kept outside this process are drained within
// the same bound. Then the backends, the task store and the metrics
// listener close and the last spans are exported. It returns the
// transport's error, as Wait does.
func (i *Instance) Stop() error {
	i.stopOnce.Do(func() { i.stopErr = i.stop() })
	return i.stopErr
}

func (i *Instance) stop() error {
	defer i.releasing.Wait() // nothing of the instance runs once Stop returns
	defer i.close()
	i.cancel()
	if i.hs == nil {
		<-i.done
		if i.sharedTasks() { // tasks in memory end with the process anyway
			drainCtx, cancel := context.WithTimeout(context.Background(), i.opts.DrainTimeout)
			defer cancel()
			drain(drainCtx, i.srv, i.log)
		}
		return i.err
	}
	select {
	case <-i.done:
		return i.err
	default:
	}
	i.log.Info("shutting down; finishing calls and tasks in flight", "drain_timeout", i.opts.DrainTimeout.String())
	i.ready.draining.Store(true)
	shutCtx, cancel := context.WithTimeout(context.Background(), i.opts.DrainTimeout)
	defer cancel()
	// Running tasks get the whole bound too, and as they end, the 2025
	// tasks/result requests waiting for them are answered.
	drained := make(chan struct{})
	go func() { drain(shutCtx, i.srv, i.log); close(drained) }()
	var wg sync.WaitGroup
	for _, p := range i.allProtos() {
		wg.Go(func() { _ = p.Shutdown(shutCtx) })
	}
	wg.Wait()
	<-drained
	err := i.hs.Shutdown(shutCtx)
	// Shutdown closes the listener first, so Serve has returned or is
	// returning; Done must be closed when Stop returns.
	<-i.done
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Wait blocks until the transport has ended by itself, then stops the
// instance; it returns the transport's error.
func (i *Instance) Wait() error {
	<-i.done
	return i.Stop()
}

// close releases what start opened, in the reverse order.
func (i *Instance) close() {
	if i.srv != nil {
		i.srv.Close()
	}
	if i.store != nil {
		i.store.Close()
	}
	i.closeAudit()
	i.stopTraces(i.log) // after the server's close: every span has ended
}

func isLoopbackAddr(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

func counts(t *table.Table) string {
	out := fmt.Sprintf("%s, %s, %s, %s", english.Count(len(t.Tools), "tool"), english.Count(len(t.Resources)-table.AppCount(t), "resource"),
		english.Count(len(t.Templates), "resource template"), english.Count(len(t.Prompts), "prompt"))
	if apps := table.AppCount(t); apps > 0 {
		out += ", " + english.Count(apps, "app")
	}
	return out
}
