package testrun

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	httpadapter "github.com/mcpdecl/mcpdecl/adapters/http"
	sqladapter "github.com/mcpdecl/mcpdecl/adapters/sql"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// Status is how a test ended.
type Status string

// The statuses of a test.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// Result is the outcome of one test.
type Result struct {
	Suite *Suite
	Case  *Case
	// Status, and for a failure each problem found.
	Status   Status
	Problems []string
	// Seen is what the client received, as text, when the test failed.
	Seen     string
	Duration time.Duration
}

// Prepared is a loaded suite whose tests passed their checks.
type Prepared struct {
	Suite  *Suite
	Config *lang.Config
	Cases  []*Case
}

// Options are how tests are run.
type Options struct {
	// Compile holds the variables and the environment, as serve reads them.
	Compile table.Options
	// Record sends the requests of HTTP backends without mocks to the real
	// API and writes what they answer to each test's fixture file.
	Record bool
	// Parallel bounds the tests running at once (at least 1).
	Parallel int
	// Timeout bounds each test.
	Timeout time.Duration
	// Log receives the detail of failures; nil discards it.
	Log *slog.Logger
}

// Prepare loads a suite and checks its tests against the compiled table.
// Diagnostics hold every problem, of the configuration or of a test.
func Prepare(s *Suite, opts table.Options) (*Prepared, hcl.Diagnostics) {
	cfg, diags := s.Load()
	p := &Prepared{Suite: s, Config: cfg}
	if cfg.Incomplete {
		return p, diags
	}
	// Compile even when a block could not be decoded, so that one run
	// reports every problem; the tests are checked when the rest compiles.
	unset := &unsetNames{}
	tbl, d := table.Compile(cfg, all.Registry(), testCompile(opts, unset))
	diags = append(diags, d...)
	if tbl == nil {
		if d.HasErrors() {
			diags = append(diags, unsetNotes(cfg, d, unset.list())...)
		}
		return p, diags
	}
	cases, d := Check(cfg, tbl)
	for _, c := range cases {
		c.suite = s
	}
	p.Cases = cases
	return p, append(diags, d...)
}

// RunAll runs the cases keep accepts, at most opts.Parallel at a time,
// and returns their results in the order of the cases.
func RunAll(ctx context.Context, preps []*Prepared, keep func(*Case) bool, opts Options) []*Result {
	type job struct {
		p *Prepared
		c *Case
		i int
	}
	var jobs []job
	for _, p := range preps {
		for _, c := range p.Cases {
			if keep == nil || keep(c) {
				jobs = append(jobs, job{p, c, len(jobs)})
			}
		}
	}
	results := make([]*Result, len(jobs))
	sem := make(chan struct{}, max(opts.Parallel, 1))
	var wg sync.WaitGroup
	r := &runner{opts: opts}
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[j.i] = r.run(ctx, j.p, j.c)
		}()
	}
	wg.Wait()
	return results
}

type runner struct {
	opts Options
	// compileMu keeps compiles of one configuration apart: each test gets
	// a table (and so backends) of its own.
	compileMu sync.Mutex
}

func (r *runner) run(ctx context.Context, p *Prepared, c *Case) *Result {
	start := time.Now()
	res := &Result{Suite: p.Suite, Case: c, Status: Passed}
	if c.Skip != "" {
		res.Status = Skipped
		res.Problems = []string{c.Skip}
		return res
	}
	res.Problems, res.Seen = r.runCase(ctx, p, c)
	if len(res.Problems) > 0 {
		res.Status = Failed
	}
	res.Duration = time.Since(start)
	return res
}

func (r *runner) runCase(ctx context.Context, p *Prepared, c *Case) ([]string, string) {
	r.compileMu.Lock()
	unset := &unsetNames{}
	tbl, diags := table.Compile(p.Config, all.Registry(), testCompile(r.opts.Compile, unset))
	r.compileMu.Unlock()
	if diags.HasErrors() {
		msg := "the configuration did not compile: " + diags.Error()
		if names := unset.list(); len(names) > 0 {
			msg += fmt.Sprintf(" (%s not set: tests give env() a placeholder for it; set it if the error comes from that value)", strings.Join(names, ", "))
		}
		return []string{msg}, ""
	}
	dir, err := os.MkdirTemp("", "mcpdecl-test-")
	if err != nil {
		return []string{err.Error()}, ""
	}
	defer os.RemoveAll(dir)
	d, err := r.doubles(tbl, c, dir)
	if err != nil {
		return []string{err.Error()}, ""
	}
	if r.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.Timeout)
		defer cancel()
	}
	if failed := tbl.OpenBackends(ctx); len(failed) > 0 {
		var out []string
		for _, f := range failed {
			out = append(out, "opening the backends failed: "+f.Err.Error())
		}
		return out, ""
	}
	out, err := Run(ctx, tbl, c.Target, r.opts.Log)
	tbl.CloseBackends(r.opts.Log)
	if err != nil {
		return []string{err.Error()}, ""
	}
	problems := append(d.misses.all(), d.unusedMocks()...)
	if err := d.save(c); err != nil {
		problems = append(problems, "writing the recording failed: "+err.Error())
	}
	if len(problems) == 0 {
		// A request nothing answered explains the result; it is not
		// compared besides.
		problems = c.expect.check(out)
	}
	seen := ""
	if len(problems) > 0 {
		var b strings.Builder
		_ = out.WriteText(&b)
		seen = b.String()
	}
	return problems, seen
}

// doubles is what stands in for a test's backends.
type doubles struct {
	misses    *misses
	recorders map[string]*recorder
	offline   map[string]*offlineTransport
	mocks     []*mockTransport
}

// unusedMocks lists the mocks of the test that answered nothing.
func (d *doubles) unusedMocks() []string {
	var out []string
	for _, mt := range d.mocks {
		out = append(out, mt.unused()...)
	}
	return out
}

// doubles gives each HTTP backend its mocks, recording or recorder, and
// each SQLite backend a fresh database in dir. It changes the backends of
// the table, which is safe only because the table was compiled for this
// test alone and is not open yet: a served table is never changed.
func (r *runner) doubles(tbl *table.Table, c *Case, dir string) (*doubles, error) {
	d := &doubles{misses: &misses{}, recorders: map[string]*recorder{}, offline: map[string]*offlineTransport{}}
	scrub := &scrubber{secrets: tbl.Secrets}
	var replay *recording
	if !r.opts.Record {
		replay, _ = readRecording(c.fixture)
	}
	for _, name := range sortedKeys(tbl.Backends) {
		switch b := tbl.Backends[name].(type) {
		case *httpadapter.Backend:
			base := ""
			if b.BaseURL != nil {
				base = b.BaseURL.Path
			}
			b.WrapTransport = func(network http.RoundTripper) http.RoundTripper {
				return r.transport(name, base, c, replay, scrub, d, network)
			}
			creds, err := b.Credentials()
			if err != nil {
				return nil, err
			}
			scrub.secrets = append(scrub.secrets, creds...)
			if rec := d.recorders[name]; rec != nil {
				rec.creds = creds
			}
			if off := d.offline[name]; off != nil {
				off.creds = creds
			}
		case *sqladapter.Backend:
			if b.Driver != sqladapter.SQLite {
				if names := unsetIn(b.DSN); len(names) > 0 {
					return nil, fmt.Errorf("%s", needsEnv(fmt.Sprintf("backend %q (a %s database, which tests use as configured)", name, b.Driver), names, "test with an SQLite backend"))
				}
			}
			if err := freshSQLite(b, c.sqlite[name], dir); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// transport is what carries a backend's requests in a test: its mocks,
// a recorder over the network transport, its recording, or nothing.
func (r *runner) transport(name, base string, c *Case, replay *recording, scrub *scrubber, d *doubles, network http.RoundTripper) http.RoundTripper {
	switch {
	case len(c.mocks[name]) > 0:
		mt := &mockTransport{backend: name, basePath: base, mocks: c.mocks[name], misses: d.misses, used: map[*mock]bool{}}
		d.mocks = append(d.mocks, mt)
		return mt
	case r.opts.Record:
		rec := &recorder{backend: name, basePath: base, next: network, scrub: scrub, misses: d.misses}
		d.recorders[name] = rec
		return rec
	case replay != nil && replay.Backends[name] != nil:
		return &replayer{backend: name, basePath: base, scrub: scrub, exchanges: replay.Backends[name], misses: d.misses}
	}
	off := &offlineTransport{backend: name, basePath: base, misses: d.misses}
	d.offline[name] = off
	return off
}

// save writes what the recorders kept to the test's fixture file: the
// backends that were sent requests, and no file at all for a test that
// sent none (a file it already has is left as it is).
func (d *doubles) save(c *Case) error {
	rec := &recording{Test: c.Name, Backends: map[string][]*exchange{}}
	for name, r := range d.recorders {
		if r.refused {
			return nil
		}
		if len(r.exchanges) > 0 {
			rec.Backends[name] = r.exchanges
		}
	}
	if len(rec.Backends) == 0 {
		return nil
	}
	return rec.write(c.fixture)
}

// freshSQLite points an SQLite backend at a new database file in dir,
// built from the test's SQL file, else the backend's init_sql, else
// empty. Other databases are used as configured.
func freshSQLite(b *sqladapter.Backend, initSQL, dir string) error {
	if b.Driver != sqladapter.SQLite {
		return nil
	}
	if initSQL == "" {
		initSQL = b.InitSQL
	}
	if initSQL == "" {
		initSQL = filepath.Join(dir, b.Name+"-empty.sql")
		if err := os.WriteFile(initSQL, nil, 0o644); err != nil {
			return err
		}
	}
	abs, err := filepath.Abs(initSQL)
	if err != nil {
		return err
	}
	b.InitSQL = abs
	b.DSN = "file:" + filepath.Join(dir, b.Name+".db")
	return nil
}

// Describe names a case for people: file:line and name.
func (c *Case) Describe() string {
	return fmt.Sprintf("%s:%d: %s", c.Range.Filename, c.Range.Start.Line, c.Name)
}
