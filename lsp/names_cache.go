package lsp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpdecl/mcpdecl/langindex"
)

// nameCache keeps one langindex.Index per configuration and brings it up
// to date before each request: a file whose text changed since is
// indexed again through With, the others are shared, so a keystroke in
// one file of a large folder costs the parse of that file.
type nameCache struct {
	mu      sync.Mutex
	configs map[string]*configNameIndex // by configuration (its paths)
}

// configNameIndex is the index of one configuration and the texts it was
// built from.
type configNameIndex struct {
	idx   *langindex.Index
	texts map[string][]byte    // by path, as indexed
	disk  map[string]diskStamp // of the files read from disk, not open
}

// diskStamp tells a file on disk changed without reading it.
type diskStamp struct {
	size int64
	mod  int64 // nanoseconds since 1970
}

// snapshot is the index of one configuration at the time of a request,
// with the texts it was built from: ranges convert to the protocol's
// units through them, open or not.
type snapshot struct {
	idx   *langindex.Index
	texts map[string][]byte
	lines map[string]*text // converted on demand
}

// textOf is the text of path as indexed, its line offsets computed once.
func (s *snapshot) textOf(path string) *text {
	if t, ok := s.lines[path]; ok {
		return t
	}
	t := newText(string(s.texts[path]))
	s.lines[path] = t
	return t
}

// indexOf returns the index of the configuration path belongs to, as the
// editor has it now.
func (c *nameCache) indexOf(src Source, path string) *snapshot {
	paths := src.ConfigPaths(path)
	key := strings.Join(paths, "\x00")
	overlay := src.Overlay()
	files := configFiles(path, paths, overlay)

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.configs == nil {
		c.configs = map[string]*configNameIndex{}
	}
	old := c.configs[key]
	cur := &configNameIndex{texts: make(map[string][]byte, len(files)), disk: map[string]diskStamp{}}
	for _, f := range files {
		if b, ok := overlay[f]; ok {
			cur.texts[f] = b
			continue
		}
		b, stamp, ok := readDisk(f, old)
		if ok {
			cur.texts[f], cur.disk[f] = b, stamp
		}
	}
	cur.idx = updated(old, cur.texts)
	c.configs[key] = cur
	c.forgetClosed(key, overlay)
	return &snapshot{idx: cur.idx, texts: cur.texts, lines: map[string]*text{}}
}

// forgetClosed drops the index of every configuration but keep none of
// whose files is open any more: a session that visits many folders
// keeps only those the editor shows. The next request of a dropped one
// builds it again.
func (c *nameCache) forgetClosed(keep string, overlay map[string][]byte) {
	for key, ci := range c.configs {
		if key != keep && !anyOpen(ci.texts, overlay) {
			delete(c.configs, key)
		}
	}
}

func anyOpen(texts, overlay map[string][]byte) bool {
	for path := range texts {
		if _, ok := overlay[path]; ok {
			return true
		}
	}
	return false
}

// updated is old's index brought to texts: built afresh the first time,
// then changed file by file.
func updated(old *configNameIndex, texts map[string][]byte) *langindex.Index {
	if old == nil {
		return langindex.Build(texts)
	}
	idx := old.idx
	for f, b := range texts {
		if prev, ok := old.texts[f]; !ok || !bytes.Equal(prev, b) {
			idx = idx.With(f, b)
		}
	}
	for f := range old.texts {
		if _, ok := texts[f]; !ok {
			idx = idx.With(f, nil)
		}
	}
	return idx
}

// readDisk reads a file that is not open, or takes old's copy when the
// file's size and time are what they were.
func readDisk(path string, old *configNameIndex) ([]byte, diskStamp, bool) {
	info, err := os.Stat(path)
	if err != nil || info.IsDir() {
		return nil, diskStamp{}, false
	}
	stamp := diskStamp{size: info.Size(), mod: info.ModTime().UnixNano()}
	if old != nil {
		if prev, ok := old.disk[path]; ok && prev == stamp {
			return old.texts[path], stamp, true
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, diskStamp{}, false
	}
	return b, stamp, true
}

// configFiles are the files of the configuration of path: its folder's
// configuration files (open or on disk), or the paths as given when the
// file stands alone (with its test file).
func configFiles(path string, paths []string, overlay map[string][]byte) []string {
	if len(paths) == 1 && paths[0] == filepath.Dir(path) {
		return folderFiles(paths[0], overlay)
	}
	return paths
}
