package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpdecl/mcpdecl/lang"
)

// watchFlags make serve reload by itself when the configuration changes:
// stdio hosts start the server and cannot send it SIGHUP.
type watchFlags struct {
	Watch         bool          `help:"Reload when a file of the configuration changes, as SIGHUP does (a broken change is logged and the old configuration keeps serving): the files and directories given, the .hcl files a directory gains or loses, and the app pages and resource files they name. Test files are not watched."`
	WatchInterval time.Duration `default:"500ms" help:"With --watch: how often the files' sizes and modification times are compared; a change is reloaded once the files stay the same for one more interval."`
}

// reloader is what the watcher needs of a served instance.
type reloader interface {
	Reload() error
	ReferencedFiles() []string
}

// stamp is what a poll sees of one file: changed content shows as another
// size or modification time (or the file appearing or going away).
type stamp struct {
	size    int64
	modTime time.Time
	exists  bool
}

type snapshot map[string]stamp

// watchConfig polls the configuration's files until ctx ends and reloads
// inst after each change that has settled. Polling rather than inotify and
// its kin: a handful of files every half second costs nothing, and it
// sees what event APIs miss (editors that save by renaming a new file
// over the old, bind mounts and network file systems).
func watchConfig(ctx context.Context, paths []string, inst reloader, interval time.Duration, log *slog.Logger) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	refs := inst.ReferencedFiles()
	loaded := take(paths, refs)
	var pending snapshot
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := take(paths, refs)
		switch {
		case now.equal(loaded):
			pending = nil
		case pending == nil || !now.equal(pending):
			pending = now // changed, or still changing: wait for it to settle
		default:
			log.Info("configuration changed; reloading", "files", now.changed(loaded))
			_ = inst.Reload() // it logs a failure, and the old table serves on
			refs = inst.ReferencedFiles()
			loaded, pending = reloaded(now, take(paths, refs)), nil
		}
	}
}

// reloaded is what a reload read: the stamps seen before it (a file
// written while it ran must still count as changed afterwards), and for a
// file that only the new table names, its stamp now.
func reloaded(before, after snapshot) snapshot {
	for k := range after {
		if v, ok := before[k]; ok {
			after[k] = v
		}
	}
	return after
}

// take stamps the files to watch: each file path, the configuration files
// of each directory path (as lang.Load reads it), and the referenced files.
func take(paths, refs []string) snapshot {
	s := snapshot{}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil || !info.IsDir() {
			s.add(p)
			continue
		}
		entries, _ := os.ReadDir(p)
		for _, e := range entries {
			if !e.IsDir() && lang.IsConfigFile(e.Name()) && !lang.IsTestFile(e.Name()) {
				s.add(filepath.Join(p, e.Name()))
			}
		}
	}
	for _, r := range refs {
		s.add(r)
	}
	return s
}

func (s snapshot) add(path string) {
	info, err := os.Stat(path)
	if err != nil {
		s[path] = stamp{}
		return
	}
	s[path] = stamp{size: info.Size(), modTime: info.ModTime(), exists: true}
}

func (s snapshot) equal(o snapshot) bool {
	if len(s) != len(o) {
		return false
	}
	for k, v := range s {
		if w, ok := o[k]; !ok || !v.modTime.Equal(w.modTime) || v.size != w.size || v.exists != w.exists {
			return false
		}
	}
	return true
}

// changed names the files that differ between the two snapshots, sorted.
func (s snapshot) changed(old snapshot) []string {
	var out []string
	for k, v := range s {
		if w, ok := old[k]; !ok || !v.modTime.Equal(w.modTime) || v.size != w.size || v.exists != w.exists {
			out = append(out, k)
		}
	}
	for k := range old {
		if _, ok := s[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
