package serving

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// Compile loads and compiles the configuration at paths without any I/O
// to backends. With lookupEnv nil (validate) env() values and variables
// without a value stay unknown; with os.LookupEnv the configuration is
// compiled as serve compiles it: env() and MCPDECL_VAR_<name> are read and
// every variable needs a value.
//
// The configuration is loaded without its syntax tree and each tool is
// made slim once compiled (what lint reads of it stays); a configuration
// with a big file is compiled as its tools are read (compileStream). The
// collector runs at a slower pace meanwhile (compilePace).
func Compile(paths []string, vars map[string]string, lookupEnv func(string) (string, bool)) (*lang.Config, *table.Table, hcl.Diagnostics) {
	defer paceCompile()()
	opts := table.Options{Vars: vars, LookupEnv: lookupEnv, Slim: true}
	if cfg, tbl, diags, ok := compileStream(paths, opts); ok {
		return cfg, tbl, diags
	}
	cfg, diags := lang.LoadWith(lang.LoadOptions{Lean: true}, paths...)
	hintSeparateConfigs(paths, cfg, diags)
	if cfg.Incomplete {
		return cfg, nil, diags
	}
	// Compile even when decoding found problems, so that one run reports
	// everything; the broken blocks are skipped by the compiler.
	tbl, d := table.Compile(cfg, all.Registry(), opts)
	return cfg, tbl, diagtext.Dedupe(append(diags, d...))
}

// compileStream compiles a configuration with a big file batch by batch
// of its tools (lang.Stream, table.Begin): the decoded form of a batch's
// tools is made slim before the next is read, so the load and the compile
// never hold all of it with the table. false: the file needs a whole load
// (Compile then does that).
func compileStream(paths []string, opts table.Options) (*lang.Config, *table.Table, hcl.Diagnostics, bool) {
	s, ok := lang.OpenStream(paths)
	if !ok {
		return nil, nil, nil, false
	}
	k := table.Begin(s.Config(), all.Registry(), opts)
	for more := true; more; {
		var tools []*lang.Tool
		if tools, more, ok = s.Next(); !ok {
			return nil, nil, nil, false
		}
		k.Tools(tools)
	}
	cfg, diags := s.Finish()
	hintSeparateConfigs(paths, cfg, diags)
	tbl, d := k.End()
	return cfg, tbl, diagtext.Dedupe(append(diags, d...)), true
}

// hintSeparateConfigs explains the first duplicate server block that comes
// from another file of a directory: such a directory (examples/, say) most
// likely holds independent configurations, which are checked one by one
// by naming the files.
func hintSeparateConfigs(paths []string, cfg *lang.Config, diags hcl.Diagnostics) {
	if cfg.Server == nil {
		return
	}
	for _, d := range diags {
		if d.Summary != "Duplicate server block" || d.Subject == nil || d.Subject.Filename == cfg.Server.DeclRange.Filename {
			continue
		}
		dir := filepath.Dir(d.Subject.Filename)
		if !slices.ContainsFunc(paths, func(p string) bool { return filepath.Clean(p) == dir }) {
			return // the files were named one by one, as one configuration
		}
		d.Detail += fmt.Sprintf(" A directory is read as one configuration made of all its files, and here several files declare a server: "+
			"if they are separate configurations, name the files instead, as in mcpdecl validate %s, which checks each file on its own "+
			"(serve and check take one of them).", filepath.Join(dir, "*.hcl"))
		return
	}
}

// Load compiles the configuration for serving, as Start and Reload do:
// env() reads lookupEnv (nil: os.LookupEnv) and every variable needs a
// value. When it does not compile, report (when not nil) gets the
// diagnostics, sorted, and the error is a *ConfigError.
func Load(paths []string, vars map[string]string, lookupEnv func(string) (string, bool), report func(hcl.Diagnostics, map[string]*hcl.File)) (*table.Table, error) {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	cfg, tbl, diags := Compile(paths, vars, lookupEnv)
	if diags.HasErrors() {
		diagtext.Sort(diags)
		if report != nil {
			report(diags, cfg.Files)
		}
		return nil, &ConfigError{diags}
	}
	tbl.CompactSyntax()
	return tbl, nil
}

// load compiles the configuration for serving; diagnostics go to
// Options.Diagnostics, else each is logged as one line.
func (i *Instance) load() (*table.Table, error) {
	report := i.opts.Diagnostics
	if report == nil {
		report = func(diags hcl.Diagnostics, _ map[string]*hcl.File) { logDiagnostics(i.log, diags) }
	}
	if i.loadPeak > 0 { // a reload, while the previous table serves
		defer capReloadMemory(i.loadPeak)()
	}
	i.releasing.Wait() // the previous load's memory is back before this one measures its own
	tbl, err := Load(i.opts.Paths, i.opts.Vars, i.opts.LookupEnv, report)
	i.loadPeak = max(i.loadPeak, heldMemory())
	runtime.GC()
	if err == nil {
		setCollectorRoom() // the collection just made saw what the table keeps
	}
	// Handing the load's garbage back takes a call to the kernel per page
	// run: for 10,000 tools about 450 MB, 0.8 s of CPU on a VM, which the
	// first answer need not wait for. It runs beside the serving, on one
	// core; the collection above already made the garbage reusable.
	i.releasing.Go(returnLoadGarbage)
	return tbl, err
}

// returnLoadGarbage hands the memory a load used back to the system. A
// compile allocates several times what the table keeps (the syntax tree,
// the decoded blocks, the lexer's tokens): 10,000 tools keep about 90 MB
// and pass through 650 MB. Left to itself the runtime returns it over
// minutes, so a server that has loaded once would be measured, and
// sized by its orchestrator, at the peak of its load. One collection per
// load is cheap next to the load itself.
func returnLoadGarbage() {
	debug.FreeOSMemory()
}

// reloadCap serializes the reloads that cap the memory limit, which is
// the whole process's: each restores the limit it found.
var reloadCap sync.Mutex

// capReloadMemory holds the process to peak (the memory held at the end of
// the first load) while a reload compiles, and returns the function that
// lifts the cap. A reload compiles while the previous table still serves,
// so left to the collector's default pace (collect when the heap has
// doubled since the last collection) its peak is the old table, the new
// one and the load's garbage at once: well above the first load's. Under
// the cap the collector runs as often as it takes to stay below it. The
// cap is soft: a configuration grown so much that its load alone needs
// more still loads, with the collector running more often, and the next
// reload's cap is the larger peak. A lower limit already set (GOMEMLIMIT)
// is kept.
func capReloadMemory(peak uint64) (lift func()) {
	reloadCap.Lock()
	prev := debug.SetMemoryLimit(-1)
	if peak >= uint64(prev) {
		reloadCap.Unlock()
		return func() {}
	}
	debug.SetMemoryLimit(int64(peak))
	return func() {
		debug.SetMemoryLimit(prev)
		reloadCap.Unlock()
	}
}

// heldMemory is the memory the Go runtime holds from the system, as the
// memory limit counts it: everything mapped minus what was handed back.
// Taken at the end of a load, before its garbage is returned, it is about
// the load's peak.
func heldMemory() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}
