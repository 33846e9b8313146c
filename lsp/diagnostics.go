package lsp

import (
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testrun"
)

// diagnoser checks configurations after their files change, off the
// request goroutines: each change restarts its configuration's debounce
// timer, one worker checks the configurations whose timers fired, and a
// result is dropped when its configuration changed while it was checked
// (a newer check is on its way).
type diagnoser struct {
	docs     *documents
	out      *writer
	debounce time.Duration

	mu    sync.Mutex
	units map[string]*unitState
	queue chan string
	quit  chan struct{}
	done  chan struct{}
}

type unitState struct {
	unit  unit
	gen   int // bumped by each change
	timer *time.Timer
	// shown are the files we published diagnostics for last time, to
	// clear those that became clean.
	shown map[string]bool
	// queued is set while the unit waits in the queue.
	queued bool
}

func newDiagnoser(docs *documents, out *writer, debounce time.Duration) *diagnoser {
	d := &diagnoser{docs: docs, out: out, debounce: debounce, units: map[string]*unitState{},
		queue: make(chan string, 64), quit: make(chan struct{}), done: make(chan struct{})}
	go d.work()
	return d
}

func (d *diagnoser) stop() {
	close(d.quit)
	<-d.done
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, u := range d.units {
		if u.timer != nil {
			u.timer.Stop()
		}
	}
}

// changed schedules the check of path's configuration.
func (d *diagnoser) changed(path string, closed bool) {
	u := unitOf(path, d.docs.overlay())
	d.mu.Lock()
	defer d.mu.Unlock()
	st, ok := d.units[u.key]
	if !ok {
		st = &unitState{shown: map[string]bool{}}
		d.units[u.key] = st
	}
	st.unit = u
	st.gen++
	if st.timer != nil {
		st.timer.Stop()
	}
	key := u.key
	st.timer = time.AfterFunc(d.debounce, func() { d.enqueue(key) })
}

func (d *diagnoser) enqueue(key string) {
	d.mu.Lock()
	st := d.units[key]
	if st == nil || st.queued {
		d.mu.Unlock()
		return
	}
	st.queued = true
	d.mu.Unlock()
	select {
	case d.queue <- key:
	case <-d.quit:
	}
}

func (d *diagnoser) work() {
	defer close(d.done)
	for {
		select {
		case <-d.quit:
			return
		case key := <-d.queue:
			d.run(key)
		}
	}
}

// run checks one configuration and publishes what it found, unless it
// changed meanwhile.
func (d *diagnoser) run(key string) {
	d.mu.Lock()
	st := d.units[key]
	st.queued = false
	gen, u := st.gen, st.unit
	d.mu.Unlock()
	overlay, versions := d.docs.snapshot()
	files, diags := check(u, overlay)
	byFile := d.convert(files, diags, overlay, u)
	d.mu.Lock()
	if st.gen != gen {
		d.mu.Unlock()
		return // stale: the change that bumped gen has queued a new run
	}
	previous := st.shown
	st.shown = map[string]bool{}
	for path := range byFile {
		st.shown[path] = true
	}
	d.mu.Unlock()
	for _, path := range slices.Sorted(maps.Keys(byFile)) {
		d.publish(path, versions, byFile[path])
	}
	for path := range previous {
		if _, still := byFile[path]; !still {
			d.publish(path, versions, []Diagnostic{})
		}
	}
}

// publish sends the diagnostics of a file, with the version of its
// text that was checked when it is open.
func (d *diagnoser) publish(path string, versions map[string]int, diags []Diagnostic) {
	uri := d.docs.uriOf(path)
	p := map[string]any{"uri": uri, "diagnostics": diags}
	if v, open := versions[path]; open {
		p["version"] = v
	}
	_ = d.out.notify("textDocument/publishDiagnostics", p)
}

// check is `mcpdecl validate` on the unit, with the editor's buffers:
// load (tests included), compile, the test blocks, then lint when the
// rest holds no error. It returns the files read and what was found.
func check(u unit, overlay map[string][]byte) (map[string]*hcl.File, hcl.Diagnostics) {
	cfg, diags := lang.LoadWith(lang.LoadOptions{Tests: true, Overlay: overlay}, u.paths...)
	if cfg.Incomplete {
		return cfg.Files, diags
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	diags = diagtext.Dedupe(append(diags, d...))
	if diags.HasErrors() || tbl == nil {
		return cfg.Files, diags
	}
	_, d = testrun.Check(cfg, tbl)
	diags = append(diags, d...)
	if !diags.HasErrors() {
		diags = append(diags, lint.Check(cfg, tbl)...)
	}
	return cfg.Files, diags
}

// convert turns diagnostics into the protocol's, by file. Every file of
// the unit has an entry, empty when clean, so that fixed files clear.
func (d *diagnoser) convert(files map[string]*hcl.File, diags hcl.Diagnostics, overlay map[string][]byte, u unit) map[string][]Diagnostic {
	out := map[string][]Diagnostic{}
	texts := map[string]*text{}
	textOf := func(path string) *text {
		if t, ok := texts[path]; ok {
			return t
		}
		var t *text
		switch {
		case overlay[path] != nil:
			t = newText(string(overlay[path]))
		case files[path] != nil:
			t = newText(string(files[path].Bytes))
		default:
			t = newText("")
		}
		texts[path] = t
		return t
	}
	for path := range files {
		out[path] = []Diagnostic{}
	}
	for _, p := range u.paths {
		if _, isFile := files[p]; isFile || lang.IsConfigFile(p) && overlay[p] != nil {
			out[p] = []Diagnostic{}
		}
	}
	for _, diag := range diags {
		if diag.Subject == nil && !onDiskOrOpen(u.paths[0], overlay) {
			// A file closed without ever being saved is gone: its
			// diagnostics clear (run clears what it showed), rather
			// than say it cannot be read.
			continue
		}
		path := u.paths[0]
		if diag.Subject != nil {
			path = diag.Subject.Filename
		} else if len(out) > 0 {
			path = slices.Sorted(maps.Keys(out))[0] // a diagnostic of no file: shown on the first
		}
		out[path] = append(out[path], toDiagnostic(diag, textOf(path), textOf))
	}
	return out
}

func onDisk(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func onDiskOrOpen(path string, overlay map[string][]byte) bool {
	_, open := overlay[path]
	return open || onDisk(path)
}
