package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/serving"
	"github.com/mcpdecl/mcpdecl/table"
)

// cli is the command line: one struct per subcommand, each with a Run.
type cli struct {
	Serve    serveCmd    `cmd:"" help:"Serve the configuration as an MCP server over stdio (default) or Streamable HTTP. Send SIGHUP to reload it: a valid change is swapped in atomically, a broken one is logged and the old one keeps serving."`
	Validate validateCmd `cmd:"" aliases:"lint" help:"Check configuration files without contacting any backend."`
	Check    checkCmd    `cmd:"" help:"Validate and, if that finds no errors, connect to each backend and check every call against it without running it (SQL statements are prepared)."`
	Fmt      fmtCmd      `cmd:"" help:"Rewrite configuration files in the canonical format; with --check or --diff, only report what would change."`
	Call     callCmd     `cmd:"" help:"Make one call (a tool, --resource or --prompt) on the configuration, without the MCP protocol, and print what a client would receive."`
	Test     testCmd     `cmd:"" help:"Run the test blocks of configurations (and of their *_test.hcl files) without the network: HTTP backends answered by mocks or recordings, SQLite from fixtures."`
	Import   importCmd   `cmd:"" help:"Generate a configuration from another description of an API (an OpenAPI document)."`
	Inspect  inspectCmd  `cmd:"" help:"Print the tools, resources, templates and prompts as the server lists them, with the steps each runs, as JSON."`
	Install  installCmd  `cmd:"" help:"Add the configuration to an MCP host's file (claude-desktop, claude-code, vscode, cursor) as a stdio server started by this binary; shows the diff first."`
	Registry registryCmd `cmd:"" help:"Print a server.json for the official MCP Registry describing the configuration (name, description, version, the container package, its environment variables)."`
	Audit    auditCmd    `cmd:"" help:"Work with audit trails (serve --audit)."`
	Lsp      lspCmd      `cmd:"" help:"Run the language server (the Language Server Protocol over stdio) that editors start for diagnostics, formatting, outline, hover, completion and quick fixes."`
	Schema   schemaCmd   `cmd:"" help:"Print the JSON Schema of configuration files in HCL's JSON syntax (*.hcl.json), with every block's and attribute's reference text, for editors."`
	Version  versionCmd  `cmd:"" help:"Print the mcpdecl version and the MCP revisions it speaks."`
}

// io is what subcommands write to.
type streams struct {
	out, err io.Writer
	// later is where a command that runs until it is stopped (serve) puts
	// its work, which run does once kong has returned: kong's model of the
	// command line (every command, flag and help text, some 200 kB) is then
	// garbage, instead of live memory that every collection scans for as
	// long as the server runs.
	later *func() error
}

// exitCode carries a subcommand's exit status through kong's Run.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

const description = `mcpdecl serves MCP (Model Context Protocol) tools, resources, resource
templates and prompts described in HCL: each maps to an HTTP call, a SQL
query or a command. See README.md and docs/language.md.

PATH arguments are .hcl or .hcl.json files, or directories holding them.`

// run parses args, runs the subcommand and returns the exit status:
// 0 success, 1 problems found (or files to reformat with --check), 2 usage.
func run(args []string, stdout, stderr io.Writer) (code int) {
	// kong calls its exit function after printing help; turn that into a
	// return instead of ending the process, so tests can run commands
	// in-process.
	type helpExit struct{ code int }
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(helpExit)
			if !ok {
				panic(r)
			}
			code = e.code
		}
	}()
	var c cli
	var later func() error
	parser, err := kong.New(&c,
		kong.Name("mcpdecl"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(helpExit{code}) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.BindTo(streams{out: stdout, err: stderr, later: &later}, (*streams)(nil)),
	)
	if err != nil {
		fmt.Fprintln(stderr, "mcpdecl:", err)
		return 2
	}
	if len(args) == 0 {
		args = []string{"--help"}
	}
	ctx, err := parser.Parse(args)
	if err != nil && wantsJSONLog(args) {
		startFailedJSON(stderr, err, "usage", "mcpdecl serve --help")
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcpdecl: %s\nRun \"mcpdecl --help\" for usage.\n", err)
		return 2
	}
	if ctx == nil || ctx.Command() == "" {
		return 0
	}
	err = ctx.Run()
	if err == nil && later != nil {
		err = later() // parser and ctx are no longer used: see streams.later
	}
	if err != nil {
		var code exitCode
		if errors.As(err, &code) {
			return int(code)
		}
		fmt.Fprintln(stderr, "mcpdecl:", err)
		return 1
	}
	return 0
}

// wantsJSONLog reports a serve command line asking for JSON logs, so that
// even an error in the command line itself is written as a JSON line.
func wantsJSONLog(args []string) bool {
	if len(args) == 0 || args[0] != "serve" {
		return false
	}
	for i, a := range args {
		if a == "--log-format=json" || a == "--log-format" && i+1 < len(args) && args[i+1] == "json" {
			return true
		}
	}
	return false
}

// startFailedJSON writes an error that ended serve before it served as
// one JSON log line.
func startFailedJSON(w io.Writer, err error, attrs ...any) {
	logs.New(w, "info", "json").Error("serve failed", append([]any{"error", err.Error()}, attrs...)...)
}

// loadFlags are the flags shared by commands that compile a configuration.
type loadFlags struct {
	Vars []string `name:"var" sep:"none" placeholder:"NAME=VALUE" help:"Set a variable (repeatable). Strings as written; other types as HCL values, e.g. --var limit=5."`
}

func (f loadFlags) varMap() (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range f.Vars {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--var %q: write it as NAME=VALUE", kv)
		}
		out[name] = value
	}
	return out, nil
}

// compile is serving.Compile of paths with the --var flags.
func (f loadFlags) compile(paths []string, lookupEnv func(string) (string, bool)) (*lang.Config, *table.Table, hcl.Diagnostics, error) {
	vars, err := f.varMap()
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, tbl, diags := serving.Compile(paths, vars, lookupEnv)
	return cfg, tbl, diags, nil
}
