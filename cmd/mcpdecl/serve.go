package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/serving"
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
	Toolsets       []string `name:"toolset" sep:"none" placeholder:"NAME" help:"Serve only the tools of this toolset block (repeatable: the tools of every one given), over stdio or at the --http endpoint. Over HTTP each toolset is also served at <path>/toolsets/NAME."`
	Dynamic        bool     `name:"dynamic" help:"Show the model three meta-tools instead of the tools: search_tools, describe_tool and call_tool (for APIs whose listing is bigger than a model's context)."`
	loadFlags
	httpLimits
	stateKeyFlags
	taskFlags
	metricsFlags
	traceFlags
	watchFlags
}

func (c *serveCmd) Run(s streams) error {
	*s.later = func() error { return c.run(s) }
	return nil
}

func (c *serveCmd) run(s streams) error {
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
	var ce *serving.ConfigError
	if errors.As(err, &ce) {
		return exitCode(1) // the diagnostics said it
	}
	return err
}

// serve runs the serving lifecycle: SIGHUP reloads, SIGINT and SIGTERM
// drain and stop.
func (c *serveCmd) serve(s streams, log *slog.Logger) error {
	// Catch SIGHUP before the (possibly slow) first load and backend open:
	// its default action would kill the server instead of reloading it.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	if c.Watch && c.WatchInterval <= 0 {
		return fmt.Errorf("--watch-interval %s: give a positive duration such as 500ms", c.WatchInterval)
	}
	opts, err := c.options(s, log)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	inst, err := serving.Start(ctx, opts)
	if err != nil {
		return err
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				_ = inst.Reload()
			}
		}
	}()
	if c.Watch {
		watchCtx, stopWatching := context.WithCancel(ctx)
		defer stopWatching()
		go watchConfig(watchCtx, c.Paths, inst, c.WatchInterval, log)
	}
	select {
	case <-inst.Done():
	case <-ctx.Done():
	}
	return inst.Stop()
}

// options are the flags as serving takes them.
func (c *serveCmd) options(s streams, log *slog.Logger) (serving.Options, error) {
	vars, err := c.varMap()
	if err != nil {
		return serving.Options{}, err
	}
	limits, err := c.taskLimits()
	if err != nil {
		return serving.Options{}, err
	}
	if c.Audit == "-" && c.HTTP == "" {
		return serving.Options{}, errors.New("--audit - writes to stdout, which carries the protocol over stdio: give a file, or serve with --http")
	}
	opts := serving.Options{
		Paths: c.Paths, Vars: vars, Logger: log,
		HTTP: c.HTTP, Path: c.Path, LegacySessions: c.LegacySessions, AllowedOrigins: c.AllowedOrigins, CORS: c.CORS,
		HTTPLimits:   serving.HTTPLimits(c.httpLimits),
		StateKeyFile: c.StateKeyFile, StateKeys: c.StateKeys,
		TaskStore: c.TaskStore, TaskLease: c.TaskLease, MaxTasks: c.MaxTasks, MaxTasksPerCaller: c.MaxTasksPerCaller,
		DrainTimeout: c.DrainTimeout, TaskLimits: limits, LimitStore: c.LimitStore, Audit: c.Audit,
		Metrics: c.Metrics, MetricsAddr: c.MetricsAddr, Traces: c.Traces, Version: buildVersion(),
		Toolsets: c.Toolsets, Dynamic: c.Dynamic,
	}
	if c.LogFormat != "json" {
		opts.Diagnostics = func(diags hcl.Diagnostics, files map[string]*hcl.File) { _ = diagtext.WriteText(s.err, diags, files) }
	}
	return opts, nil
}

// httpLimits are the serve flags that bound what one HTTP client can hold:
// time, connections, requests, sessions, and the Host names accepted.
type httpLimits struct {
	AllowedHosts       []string      `name:"allowed-host" sep:"none" placeholder:"HOST" help:"A Host name the server answers to besides its own address (mcp.example.com, or mcp.example.com:8443 for that port only; repeatable). By default a loopback bind answers to localhost, 127.0.0.1 and [::1], any other bind only to the literal IP a client connected to; every other Host gets 403 (DNS rebinding protection)."`
	HeaderTimeout      time.Duration `default:"10s" help:"Time a client has to send the request headers."`
	BodyTimeout        time.Duration `default:"30s" help:"Time a client has to send a request body; a slower one gets 408 (0: no limit)."`
	WriteTimeout       time.Duration `default:"60s" help:"Time each write of an answer may take; renewed per event on streams, so only a client that stops reading is cut off (0: no limit)."`
	IdleTimeout        time.Duration `default:"30s" help:"How long an idle keep-alive connection stays open."`
	MaxInFlight        int           `default:"64" help:"Requests doing work at once (a call streaming its progress included, open listen and GET streams not); beyond it a request gets 503 with Retry-After (0: no limit)."`
	MaxStreams         int           `default:"4096" help:"Open streams that wait to push (subscriptions/listen, a session's GET stream, tasks/result waiting for its task); beyond it a new one gets 503 with Retry-After (0: no limit)."`
	MaxSessions        int           `default:"1000" help:"With --legacy-sessions: live sessions at most; at the cap initialize ends the least recently used idle session, and gets 503 only when every session is busy (0: no limit)."`
	SessionIdleTimeout time.Duration `default:"30m" help:"With --legacy-sessions: a session unused this long ends; its id then gets 404 and the client initializes again (0: never)."`
}

// stateKeyFlags say where the signing keys come from: they sign a
// 2026-07-28 requestState and a 2025 session id. Replicas behind one load
// balancer must share them, or a multi-round call whose next round lands
// on another replica is refused, and so is a 2025 session id minted by
// another replica.
type stateKeyFlags struct {
	StateKeyFile string `name:"state-key-file" env:"MCPDECL_STATE_KEY_FILE" placeholder:"PATH" help:"File of signing keys shared by replicas (for 2026-07-28 requestState and 2025 session ids): one base64 key (32 bytes or more, e.g. from 'head -c 32 /dev/urandom | base64') per line; the first signs, every one is accepted, so a rotation puts the new key first and drops the old one once its states expired (15 minutes). Re-read on SIGHUP. Without it or MCPDECL_STATE_KEYS, each process has a random key."`
	// Only from the environment in practice (a flag's value shows in ps).
	StateKeys string `name:"state-keys" hidden:"" env:"MCPDECL_STATE_KEYS" help:"Request-state keys, comma-separated base64; prefer the environment variable."`
}

// taskFlags choose where tasks are kept and how a shutdown ends them.
type taskFlags struct {
	LimitStore        string        `name:"limit-store" env:"MCPDECL_LIMIT_STORE" default:"memory" placeholder:"URL" help:"Where the buckets of limit blocks are kept: 'memory' (this process only) or a Redis URL such as redis://127.0.0.1:6379/0, which replicas must share for a limit to hold across them; ?key_prefix=NAME (default mcpdecl-limits) keeps deployments apart."`
	Audit             string        `name:"audit" env:"MCPDECL_AUDIT" placeholder:"FILE" help:"Append the audit trail (one JSON line per tools/call, resources/read, prompts/get, tasks/cancel, task result handed out and completion calling a backend, chained by SHA-256; see docs/operations.md) to FILE, or write it to stdout with '-' (with --http only: over stdio, stdout carries the protocol)."`
	TaskStore         string        `name:"task-store" env:"MCPDECL_TASK_STORE" default:"memory" placeholder:"URL" help:"Where tasks (long calls of tools with a task block) are kept: 'memory' (this process only) or a Redis URL such as redis://127.0.0.1:6379/0, which replicas behind one load balancer must share; ?key_prefix=NAME keeps another deployment on the same database apart."`
	TaskLease         time.Duration `default:"15s" help:"How long a running task counts as alive without its replica renewing it; a task whose replica died is reported failed after this."`
	MaxTasks          int           `default:"256" help:"Tasks running at once on this server at most; a call beyond it is refused until one ends (0: no limit)."`
	MaxTasksPerCaller int           `default:"32" help:"Tasks one caller (token subject, 2025 session, the stdio client) runs at once at most, so that no caller takes every slot; callers with neither share only --max-tasks (0: no limit)."`
	DrainTimeout      time.Duration `default:"30s" help:"On SIGTERM: how long calls and tasks in flight may take to finish; tasks still running then are stopped and recorded as failed."`

	// Finished tasks are kept until their TTL ends, within these bounds:
	// past one, the oldest finished tasks are forgotten.
	TaskResultsPerOwner    int   `default:"100" help:"Finished tasks kept per caller (token subject, 2025 session); past it the caller's oldest are forgotten (0: no limit)."`
	TaskResultsAnonymous   int   `default:"1000" help:"Finished tasks kept of callers with neither a token nor a session, all together (0: no limit)."`
	TaskResultsTotal       int   `default:"10000" help:"Finished tasks kept in all, every caller together (0: no limit)."`
	TaskResultMibPerOwner  int64 `name:"task-result-mib-per-owner" default:"64" help:"MiB of finished tasks' results kept per caller (0: no limit)."`
	TaskResultMibAnonymous int64 `name:"task-result-mib-anonymous" default:"128" help:"MiB of finished tasks' results kept of callers with neither a token nor a session, all together (0: no limit)."`
	TaskResultMibTotal     int64 `name:"task-result-mib-total" default:"1024" help:"MiB of finished tasks' results kept in all (0: no limit)."`
}

// taskLimits are the bounds the flags set, checked.
func (f *taskFlags) taskLimits() (tasks.Limits, error) {
	for name, v := range map[string]int64{"--task-results-per-owner": int64(f.TaskResultsPerOwner), "--task-results-anonymous": int64(f.TaskResultsAnonymous),
		"--task-results-total": int64(f.TaskResultsTotal), "--task-result-mib-per-owner": f.TaskResultMibPerOwner, "--task-result-mib-anonymous": f.TaskResultMibAnonymous, "--task-result-mib-total": f.TaskResultMibTotal} {
		if v < 0 {
			return tasks.Limits{}, fmt.Errorf("%s is %d: use 0 for no limit, or a positive number", name, v)
		}
		if v > 1<<40 {
			return tasks.Limits{}, fmt.Errorf("%s is %d: too large", name, v)
		}
	}
	return tasks.Limits{PerOwner: f.TaskResultsPerOwner, Anonymous: f.TaskResultsAnonymous, Total: f.TaskResultsTotal,
		PerOwnerBytes: f.TaskResultMibPerOwner << 20, AnonymousBytes: f.TaskResultMibAnonymous << 20, TotalBytes: f.TaskResultMibTotal << 20}, nil
}

// metricsFlags turn on Prometheus metrics. Off, nothing is counted and
// there is no /metrics.
type metricsFlags struct {
	Metrics     bool   `help:"Serve Prometheus metrics at /metrics on the --http listener (with an auth block, only to a valid token, e.g. a static token of the scraper)."`
	MetricsAddr string `name:"metrics-addr" placeholder:"ADDR" help:"Serve Prometheus metrics at /metrics on a listener of their own (e.g. 127.0.0.1:9090); works with stdio too."`
}

// traceFlags turn on OpenTelemetry traces. Off (no flag, no OTLP endpoint
// variable), no span is made and a call costs nothing more.
type traceFlags struct {
	Traces bool `help:"Export OpenTelemetry traces over OTLP/HTTP even without OTEL_EXPORTER_OTLP_ENDPOINT (then to http://localhost:4318). Setting OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT turns traces on too; OTEL_SDK_DISABLED=true turns them off."`
}
