// Package serving runs a configuration as an MCP server: the lifecycle
// the serve command drives, usable by any program that embeds mcpdecl.
//
// It owns the steps of that lifecycle and the HTTP listener's routes.
// Start, in order: read the signing keys (Options.StateKeyFile or
// StateKeys, else one random key); load and compile the configuration
// (Load: env() and every variable resolved; diagnostics to
// Options.Diagnostics); make the metrics registry and its own listener
// (Options.MetricsAddr); start the trace exporter; open the task store;
// open the backends (server.Open); serve over HTTP (Options.HTTP: the
// MCP endpoint, the protected-resource metadata, /metrics, /healthz and
// /readyz, every route behind the Host and Origin rule) or over stdio.
// Reload re-reads the key file and swaps in a configuration that
// compiles, keeping the old one otherwise. Stop marks /readyz draining,
// gives calls and tasks in flight Options.DrainTimeout, then closes the
// backends, the task store and the metrics listener and exports the last
// spans.
//
// Signals are the caller's: the serve command maps SIGHUP to Reload and
// SIGINT and SIGTERM to Stop.
//
// It may import everything below it: server, tasks, table, dispatch, lang,
// adapters/all, auth, mcp, lint and diagtext, observe/*, and the leaves
// under internal/. It never imports cmd, and nothing but cmd imports it.
package serving
