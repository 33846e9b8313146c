package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/serving"
	"github.com/mcpdecl/mcpdecl/testrun"
)

type callCmd struct {
	Config   string   `arg:"" name:"config" help:"The configuration: a file or a directory."`
	Tool     string   `arg:"" optional:"" name:"tool" help:"The tool to call (leave out with --resource or --prompt)."`
	Args     []string `name:"arg" short:"a" sep:"none" placeholder:"NAME=VALUE" help:"An argument (repeatable), typed by the tool's input schema: numbers, bools, lists and objects are parsed from the text, strings are taken as written."`
	JSON     string   `name:"json" placeholder:"OBJECT" help:"All arguments as one JSON object, as a client sends them; - reads it from stdin. --arg values are set on top of it."`
	Resource string   `name:"resource" placeholder:"URI" help:"Read this resource (or a URI of a resource template) instead of calling a tool."`
	Prompt   string   `name:"prompt" placeholder:"NAME" help:"Get this prompt instead of calling a tool; --arg gives its arguments."`
	Answers  []string `name:"answer" sep:"none" placeholder:"KEY=JSON" help:"The client's answer to the question KEY (elicit, sample or roots) as the client would send it, e.g. confirm='{\"action\":\"accept\",\"content\":{\"ok\":true}}' (repeatable)."`
	Format   string   `default:"text" enum:"text,json" help:"text: what the model sees, for people; json: the MCP result as the client receives it."`
	LogLevel string   `default:"warn" enum:"debug,info,warn,error" help:"Log level of the detail of failures, written to stderr."`
	loadFlags
}

// Help is the detail of `mcpdecl call --help`.
func (*callCmd) Help() string {
	return `call compiles the configuration as serve does (env() reads the environment, --var and MCPDECL_VAR_<name> set variables), opens its backends, makes one call without the MCP protocol, prints what a client would receive and closes the backends.

Examples:
  mcpdecl call examples/library.hcl search --arg query=dune --arg limit=5
  mcpdecl call examples/orders.hcl order_totals --json '{"since": "2026-10-01"}'
  echo '{"status": "open"}' | mcpdecl call examples/orders.hcl open_orders
  mcpdecl call examples/orders.hcl --resource orders://2
  mcpdecl call examples/orders.hcl --prompt aggregate_question --arg question='Who spent most?'
  mcpdecl call --format json examples/orders.hcl open_orders -a status=open

A tool that asks the client questions (elicit, sample, roots) gets the answers given with --answer; a question without one is treated as a client that cannot answer it. With no --answer at all, such a tool is refused before anything runs.

Exit status: 0 when the call succeeded, 1 when the result is an error (isError), a protocol error, or the configuration or a backend failed, 2 on bad usage (an unknown tool, prompt, resource or argument, or an argument value that does not parse).`
}

func (c *callCmd) Run(s streams) error {
	err := c.run(s)
	if ue, ok := err.(*testrun.UsageError); ok {
		fmt.Fprintf(s.err, "mcpdecl call: %s\n", ue.Error())
		return exitCode(2)
	}
	return err
}

func (c *callCmd) run(s streams) error {
	vars, err := c.varMap()
	if err != nil {
		return err
	}
	tbl, err := serving.Load([]string{c.Config}, vars, os.LookupEnv, func(diags hcl.Diagnostics, files map[string]*hcl.File) {
		_ = diagtext.WriteText(s.err, diags, files)
	})
	var ce *serving.ConfigError
	if errors.As(err, &ce) {
		return exitCode(1) // the diagnostics said it
	}
	if err != nil {
		return err
	}
	req := &testrun.Request{Tool: c.Tool, Resource: c.Resource, Prompt: c.Prompt, Args: c.Args, JSON: c.JSON, Answers: c.Answers, Stdin: os.Stdin}
	target, err := req.Target(tbl)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(s.err, &slog.HandlerOptions{Level: logs.Level(c.LogLevel)}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if failed := tbl.OpenBackends(ctx); len(failed) > 0 {
		for _, f := range failed {
			fmt.Fprintf(s.err, "mcpdecl call: %s\n", f.Err)
		}
		return exitCode(1)
	}
	defer tbl.CloseBackends(log)
	out, err := testrun.Run(ctx, tbl, target, log)
	if err != nil {
		return err
	}
	return c.print(s, out)
}

func (c *callCmd) print(s streams, out *testrun.Outcome) error {
	if c.Format == "json" {
		b, err := out.JSON()
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(s.out, "%s\n", b); err != nil {
			return err
		}
	} else if err := out.WriteText(s.out); err != nil {
		return err
	}
	if out.Failed() {
		return exitCode(1)
	}
	return nil
}
