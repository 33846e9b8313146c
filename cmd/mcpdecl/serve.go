package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

type serveCmd struct {
	HTTP           string   `name:"http" placeholder:"ADDR" help:"Serve Streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio."`
	Path           string   `default:"/mcp" help:"The MCP endpoint path for --http."`
	LegacySessions bool     `help:"Keep stateful sessions for 2025 clients over HTTP, in this process: logging/setLevel is remembered, and a GET stream carries list_changed and resources/updated. Without it 2025 clients get a signed session id and every call feature, with no state on the server."`
	AllowedOrigins []string `name:"allowed-origin" sep:"none" placeholder:"ORIGIN" help:"An exact Origin (https://app.example) allowed besides same-host and loopback origins (repeatable)."`
	CORS           bool     `name:"cors" help:"Answer CORS preflights and expose the MCP headers to allowed origins."`
	LogLevel       string   `default:"info" enum:"debug,info,warn,error" help:"Server log level (logs go to stderr): debug, info, warn or error."`
	LogFormat      string   `default:"text" enum:"text,json" help:"Server log format: text (key=value lines) or json (one JSON object per line). Every line of a call carries its request_id, and trace_id when the request had a W3C traceparent header (with traces on: the trace_id and span_id of the call's span)."`
	Paths          []string `arg:"" name:"path" help:"Files or directories of the configuration."`
	loadFlags
	httpLimits
	stateKeyFlags
	taskFlags
	metricsFlags
	traceFlags
}

func (c *serveCmd) Run(s streams) error {
	log := logs.New(s.err, c.LogLevel, c.LogFormat)
	defer logs.RouteLibraryLogs(log)()
	err := c.serve(s, log)
	var code exitCode
	if err == nil || errors.As(err, &code) {
		return err
	}
	if c.LogFormat == "json" {
		// Every line stays one JSON object, the last one included.
		log.Error("serve failed", "error", err.Error())
		return exitCode(1)
	}
	var ce *configError
	if errors.As(err, &ce) {
		return exitCode(1) // the diagnostics said it
	}
	return err
}

func (c *serveCmd) serve(s streams, log *slog.Logger) error {
	// Catch SIGHUP before the (possibly slow) first load and backend open:
	// its default action would kill the server instead of reloading it.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	log.Debug("loading the configuration; SIGHUP from now on reloads it", "paths", c.Paths)
	keys, err := c.openKeys()
	if err != nil {
		return err
	}
	tbl, err := c.load(s, log)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	guard := func(h http.Handler, addr net.Addr) http.Handler { return c.guardHosts(h, addr, log) }
	if err := c.startMetrics(ctx, log, c.HTTP, guard); err != nil {
		return err
	}
	if err := c.startTraces(ctx, log); err != nil {
		return err
	}
	defer c.stopTraces(log) // after the server's close: every span has ended
	store, err := c.openTaskStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	srv, err := server.Open(ctx, tbl, &server.Options{Logger: log, StateKeys: keys, TaskStore: store, TaskLease: c.TaskLease, MaxTasks: offIfZero(c.MaxTasks), MaxTasksPerOwner: offIfZero(c.MaxTasksPerCaller),
		HTTPAuth: c.HTTP != "", Observer: c.observer(), Tracer: c.tracer(), OnBackendCall: c.onBackendCall()})
	if err != nil {
		return err
	}
	defer srv.Close()
	c.watchPools(srv)
	proto := mcp.NewServer(srv, &mcp.Options{Logger: log, OnRequest: c.onRequest(), OnOpen: c.onOpen()})
	go c.reloadOnHangup(ctx, hup, s, log, srv, proto, keys)
	if c.HTTP == "" {
		if tbl.Auth != nil {
			log.Warn("the auth block is not used over stdio: no token is checked, scopes do not apply, and what reads auth.* is refused; serve with --http to check tokens")
		}
		log.Info(fmt.Sprintf("serving %s over stdio (%s)", tbl.Server.Name, counts(tbl)), "server", tbl.Server.Name, "transport", "stdio")
		err := proto.ServeStdio(ctx, os.Stdin, os.Stdout)
		if c.sharedTasks() { // tasks in memory end with the process anyway
			drainCtx, cancel := context.WithTimeout(context.Background(), c.DrainTimeout)
			defer cancel()
			drain(drainCtx, srv, log)
		}
		return err
	}
	return c.serveHTTP(ctx, s, log, tbl, srv, proto, keys, store)
}

// load compiles the configuration for serving: env() reads the environment
// and every variable needs a value. Diagnostics are written as a
// compiler's text, or with JSON logs as one log line each; the error then
// is a *configError.
func (c *serveCmd) load(s streams, log *slog.Logger) (*table.Table, error) {
	cfg, tbl, diags, err := compile(c.Paths, c.loadFlags, os.LookupEnv)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		sortDiagnostics(diags)
		if c.LogFormat == "json" {
			logDiagnostics(log, diags)
		} else {
			_ = writeTextDiagnostics(s.err, diags, cfg.Files)
		}
		return nil, &configError{diags}
	}
	return tbl, nil
}

func (c *serveCmd) serveHTTP(ctx context.Context, s streams, log *slog.Logger, tbl *table.Table, srv *server.Server, proto *mcp.Server, keys *mcp.Keys, store tasks.Store) error {
	ln, err := net.Listen("tcp", c.HTTP)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", c.HTTP, err)
	}
	handler, _, ready := c.httpHandler(ln.Addr(), log, srv, proto, keys, store)
	hs := c.server(handler)
	url := fmt.Sprintf("http://%s%s", ln.Addr(), c.Path)
	log.Info(fmt.Sprintf("serving %s on %s (%s)", tbl.Server.Name, url, counts(tbl)), "server", tbl.Server.Name, "url", url)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down; finishing calls and tasks in flight", "drain_timeout", c.DrainTimeout.String())
	ready.draining.Store(true)
	shutCtx, cancel := context.WithTimeout(context.Background(), c.DrainTimeout)
	defer cancel()
	// Running tasks get the whole bound too, and as they end, the 2025
	// tasks/result requests waiting for them are answered.
	drained := make(chan struct{})
	go func() { drain(shutCtx, srv, log); close(drained) }()
	_ = proto.Shutdown(shutCtx)
	<-drained
	if err := hs.Shutdown(shutCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func isLoopbackAddr(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// reloadOnHangup recompiles the configuration on SIGHUP. A valid one
// replaces the served table atomically and every listener is told the
// lists changed; an invalid one is logged and the old table keeps serving.
func (c *serveCmd) reloadOnHangup(ctx context.Context, hup <-chan os.Signal, s streams, log *slog.Logger, srv *server.Server, proto *mcp.Server, keys *mcp.Keys) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		c.reloadKeys(keys, log)
		tbl, err := c.load(s, log)
		if err != nil {
			c.reloadFailed(err)
			log.Error("reload failed; still serving the previous configuration", "error", err.Error())
			continue
		}
		kinds, updated, err := srv.Reload(ctx, tbl)
		if err != nil {
			log.Error("reload failed; still serving the previous configuration", "error", err.Error())
			continue
		}
		proto.NotifyListChanged(kinds)
		for _, uri := range updated {
			proto.NotifyResourceUpdated(uri)
		}
		// The previous table's backends close when its last call ends.
		log.Info("configuration reloaded", "tools", len(tbl.Tools))
	}
}

func counts(t *table.Table) string {
	out := fmt.Sprintf("%s, %s, %s, %s", plural(len(t.Tools), "tool"), plural(len(t.Resources)-appCount(t), "resource"),
		plural(len(t.Templates), "resource template"), plural(len(t.Prompts), "prompt"))
	if apps := appCount(t); apps > 0 {
		out += ", " + plural(apps, "app")
	}
	return out
}
