package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testrun"
)

type testCmd struct {
	Paths    []string      `arg:"" name:"path" help:"Configuration files, their test files (*_test.hcl) or directories."`
	Format   string        `enum:"text,json,junit,github" default:"text" help:"Output: text, json, junit (JUnit XML) or github (workflow annotations)."`
	Filter   string        `name:"run" placeholder:"REGEX" help:"Run only the tests whose names match this RE2 pattern."`
	Record   bool          `help:"Send the requests of HTTP backends that a test does not mock to the real API and write the answers, secrets removed, to the test's fixture file (testdata/<file>/<test>.json beside the file declaring the test)."`
	Parallel int           `default:"4" help:"How many tests run at once."`
	Timeout  time.Duration `default:"60s" help:"How long one test may take."`
	Verbose  bool          `short:"v" help:"List the tests that passed too."`
	LogLevel string        `default:"error" enum:"debug,info,warn,error" help:"Log level of the detail of failures inside calls, written to stderr."`
	loadFlags
}

// Help is the detail of `mcpdecl test --help`.
func (*testCmd) Help() string {
	return `test runs the test blocks of configurations: each makes one call (a tool, a prompt or a resource read) and checks what the client receives. HTTP backends are answered by the test's mock blocks or by a recording made with --record; nothing else reaches the network. Each SQLite backend gets a fresh database per test, built from the test's sqlite block, else from the backend's init_sql. Commands run for real. An env() of a variable that is not set has the placeholder mcpdecl-test-unset-NAME, so no real credential is needed; a request that would carry it to a real server (unmocked and not recorded, or with --record) fails the test, naming the variable.

A file is tested with its own test blocks and those of its test file (orders.hcl with orders_test.hcl). A directory is one configuration with all its test files, unless several of its files declare a server block: each is then tested on its own.

Examples:
  mcpdecl test examples
  mcpdecl test --run 'search' examples/library.hcl
  mcpdecl test --format junit examples > report.xml
  LIBRARY_TOKEN=... mcpdecl test --record examples/library.hcl

Exit status: 0 when every test passed, 1 when one failed or a configuration or test has errors, 2 on bad usage.`
}

func (c *testCmd) Run(s streams) error {
	vars, err := c.varMap()
	if err != nil {
		return err
	}
	var filter *regexp.Regexp
	if c.Filter != "" {
		if filter, err = regexp.Compile(c.Filter); err != nil {
			fmt.Fprintf(s.err, "mcpdecl test: --run: %s\n", err)
			return exitCode(2)
		}
	}
	suites, err := testrun.Discover(c.Paths)
	if err != nil {
		fmt.Fprintf(s.err, "mcpdecl test: %s\n", err)
		return exitCode(2)
	}
	preps, broken := c.prepare(s, suites, table.Options{Vars: vars, LookupEnv: os.LookupEnv})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	keep := func(tc *testrun.Case) bool { return filter == nil || filter.MatchString(tc.Name) }
	results := testrun.RunAll(ctx, preps, keep, testrun.Options{
		Compile: table.Options{Vars: vars, LookupEnv: os.LookupEnv}, Record: c.Record,
		Parallel: c.Parallel, Timeout: c.Timeout,
		Log: slog.New(slog.NewTextHandler(s.err, &slog.HandlerOptions{Level: logs.Level(c.LogLevel)})),
	})
	if err := c.report(s, results, broken); err != nil {
		return err
	}
	if len(results) == 0 && len(broken) == 0 {
		fmt.Fprintln(s.err, "mcpdecl test: no tests to run: add test blocks (see docs/testing.md), or check --run.")
		return exitCode(1)
	}
	if len(broken) > 0 || countStatus(results, testrun.Failed) > 0 {
		return exitCode(1)
	}
	return nil
}

// notRun is a suite whose tests did not run, with its first error.
type notRun struct {
	suite  *testrun.Suite
	first  *hcl.Diagnostic
	errors int
}

// line says, beside the summary, why the suite's tests did not run: where
// its first error is and what it says (the detail says what to do).
func (n notRun) line() string {
	where := ""
	if r := n.first.Subject; r != nil {
		where = fmt.Sprintf("%s:%d:%d: ", r.Filename, r.Start.Line, r.Start.Column)
	}
	what := n.first.Summary
	if n.first.Detail != "" {
		what += ": " + strings.Join(strings.Fields(n.first.Detail), " ")
	}
	more := ""
	if n.errors > 1 {
		more = fmt.Sprintf(" (and %d more errors, shown above)", n.errors-1)
	}
	return fmt.Sprintf("%snot run: the tests of %s: %s%s", where, n.suite.Name, what, more)
}

// prepare loads and checks each suite; a suite with errors is reported
// and left out. It returns the others and those left out.
func (c *testCmd) prepare(s streams, suites []*testrun.Suite, opts table.Options) ([]*testrun.Prepared, []notRun) {
	var out []*testrun.Prepared
	var broken []notRun
	for _, suite := range suites {
		p, diags := testrun.Prepare(suite, opts)
		if !diags.HasErrors() {
			out = append(out, p)
			continue
		}
		diagtext.Sort(diags)
		n := notRun{suite: suite}
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				if n.first == nil {
					n.first = d
				}
				n.errors++
			}
		}
		broken = append(broken, n)
		if c.Format == "github" {
			diagtext.WriteGitHub(s.out, diags)
		} else {
			_ = diagtext.WriteText(s.err, diags, p.Config.Files)
		}
		fmt.Fprintf(s.err, "mcpdecl test: %s has errors; its tests did not run.\n", suite.Name)
	}
	return out, broken
}

func countStatus(results []*testrun.Result, st testrun.Status) int {
	n := 0
	for _, r := range results {
		if r.Status == st {
			n++
		}
	}
	return n
}

// summary is the last line of every format but JSON and JUnit.
func summary(results []*testrun.Result) string {
	line := fmt.Sprintf("%d passed, %d failed", countStatus(results, testrun.Passed), countStatus(results, testrun.Failed))
	if n := countStatus(results, testrun.Skipped); n > 0 {
		line += fmt.Sprintf(", %d skipped", n)
	}
	return line
}
