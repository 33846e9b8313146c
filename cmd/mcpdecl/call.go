package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
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

// usageError is a mistake on the command line: reported with exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

func (c *callCmd) Run(s streams) error {
	err := c.run(s)
	if ue, ok := err.(*usageError); ok {
		fmt.Fprintf(s.err, "mcpdecl call: %s\n", ue.msg)
		return exitCode(2)
	}
	return err
}

func (c *callCmd) run(s streams) error {
	tbl, err := (&serveCmd{Paths: []string{c.Config}, loadFlags: c.loadFlags}).load(s, nil)
	var ce *configError
	if errors.As(err, &ce) {
		return exitCode(1) // the diagnostics said it
	}
	if err != nil {
		return err
	}
	target, err := c.target(tbl, os.Stdin)
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

// target checks what to call against the table and builds its arguments.
func (c *callCmd) target(tbl *table.Table, stdin io.Reader) (*testrun.Target, error) {
	answers, err := c.answers()
	if err != nil {
		return nil, err
	}
	switch {
	case countSet(c.Tool, c.Resource, c.Prompt) != 1:
		return nil, usagef("name one tool, or give --resource URI or --prompt NAME (exactly one of the three)")
	case c.Resource != "":
		if len(c.Args) > 0 || c.JSON != "" {
			return nil, usagef("a resource takes no arguments: a template's values are part of its URI, as in --resource %q", exampleURI(tbl))
		}
		if !tbl.HasResource(c.Resource) {
			return nil, usagef("no resource or resource template serves %q.%s", c.Resource, rule.DidYouMean(c.Resource, testrun.ResourceURIs(tbl)))
		}
		return &testrun.Target{Resource: c.Resource, Answers: answers}, nil
	case c.Prompt != "":
		return c.promptTarget(tbl, stdin, answers)
	}
	return c.toolTarget(tbl, stdin, answers)
}

func (c *callCmd) toolTarget(tbl *table.Table, stdin io.Reader, answers map[string]json.RawMessage) (*testrun.Target, error) {
	tool := tbl.Tool(c.Tool)
	if tool == nil {
		return nil, usagef("there is no tool %q.%s", c.Tool, rule.DidYouMean(c.Tool, testrun.ToolNames(tbl)))
	}
	if len(tool.Questions) > 0 && len(answers) == 0 {
		return nil, usagef("tool %q asks the client %s first; answer with --answer KEY=JSON (see mcpdecl call --help)", tool.Name, questionKeys(tool.Questions))
	}
	base, err := c.jsonArgs(stdin, len(tool.Args.List) > 0)
	if err != nil {
		return nil, err
	}
	args, err := typedArgs(tool.Args.Schema, base, c.Args)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return &testrun.Target{Tool: tool.Name, Arguments: raw, Answers: answers}, nil
}

func (c *callCmd) promptTarget(tbl *table.Table, stdin io.Reader, answers map[string]json.RawMessage) (*testrun.Target, error) {
	prompt := tbl.Prompt(c.Prompt)
	if prompt == nil {
		return nil, usagef("there is no prompt %q.%s", c.Prompt, rule.DidYouMean(c.Prompt, testrun.PromptNames(tbl)))
	}
	base, err := c.jsonArgs(stdin, len(prompt.Args.List) > 0)
	if err != nil {
		return nil, err
	}
	args, err := promptArgs(prompt.Args, base, c.Args)
	if err != nil {
		return nil, err
	}
	return &testrun.Target{Prompt: prompt.Name, PromptArgs: args, Answers: answers}, nil
}

// jsonArgs reads --json into an object: its text, or stdin with --json -.
// A call that takes arguments and is given neither --json nor --arg reads
// them from stdin too when it is a pipe or a file; one without arguments
// never reads stdin, so that it can run in a loop that reads stdin itself.
func (c *callCmd) jsonArgs(stdin io.Reader, takesArgs bool) (map[string]any, error) {
	text := c.JSON
	if text == "-" || text == "" && len(c.Args) == 0 && takesArgs && readableStdin(stdin) {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading the arguments from stdin: %w", err)
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, usagef("the arguments must be one JSON object, such as {\"query\": \"dune\"}: %s", jsonProblem(err))
	}
	if dec.More() {
		return nil, usagef("the arguments must be one JSON object; more follows it")
	}
	return obj, nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "null is not an object"
	}
	return err.Error()
}

// readableStdin reports whether stdin is a pipe or a file that arguments
// may come from (not a terminal, nor /dev/null's character device).
func readableStdin(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin != nil
	}
	info, err := f.Stat()
	return err == nil && (info.Mode()&os.ModeNamedPipe != 0 || info.Mode().IsRegular())
}

func (c *callCmd) answers() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for _, kv := range c.Answers {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return nil, usagef("--answer %q: write it as KEY=JSON", kv)
		}
		if !json.Valid([]byte(value)) {
			return nil, usagef("--answer %s: the answer is not valid JSON; write it as the client sends it, e.g. {\"action\":\"accept\",\"content\":{...}}", key)
		}
		out[key] = json.RawMessage(value)
	}
	return out, nil
}

func countSet(ss ...string) int {
	n := 0
	for _, s := range ss {
		if s != "" {
			n++
		}
	}
	return n
}

func exampleURI(t *table.Table) string {
	if len(t.Templates) > 0 {
		return t.Templates[0].URITemplate
	}
	return "URI"
}

func questionKeys(qs []*table.Question) string {
	keys := make([]string, len(qs))
	for i, q := range qs {
		keys[i] = fmt.Sprintf("%s (%s)", q.Key, q.Kind)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
