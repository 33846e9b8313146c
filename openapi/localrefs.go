package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pb33f/libopenapi/index"

	"github.com/mcpdecl/mcpdecl/internal/regularfile"
)

// folderFS is the only way the parser reads a file a document refers to:
// it serves files in the document's folder and below, and refuses the
// rest (a "../" path, an absolute path, a symbolic link that leads out)
// before opening anything, so that neither the text of another file nor
// a named pipe elsewhere is reached. What it opens must be a regular file
// (a pipe or device inside the folder is refused too, without waiting),
// no larger than the document's own cap.
type folderFS struct {
	dir      string // absolute, as the parser joins names to it
	realDir  string // dir with its symbolic links resolved
	root     *os.Root
	maxBytes int64

	mu      sync.Mutex
	refused []string // what was refused, for the error Parse returns
}

func newFolderFS(dir string, maxBytes int64) (*folderFS, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	return &folderFS{dir: dir, realDir: real, root: root, maxBytes: maxBytes}, nil
}

func (f *folderFS) Close() error { return f.root.Close() }

// GetFiles makes folderFS an index.RolodexFS, which the parser uses as
// given; any other fs.FS it would walk whole in advance.
func (f *folderFS) GetFiles() map[string]index.RolodexFile { return map[string]index.RolodexFile{} }

// Open is called with a path relative to the folder (slashes) or with the
// reference as written.
func (f *folderFS) Open(name string) (fs.File, error) {
	rel, err := f.inside(name)
	if err != nil {
		f.refuse(err.Error())
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	file, err := regularfile.OpenIn(f.root, rel)
	if err != nil {
		if errors.Is(err, regularfile.ErrNotRegular) {
			f.refuse(fmt.Sprintf("%s %s", rel, regularfile.ErrNotRegular))
		}
		return nil, err
	}
	defer file.Close()
	data, err := readCapped(file, rel, f.maxBytes)
	if err != nil {
		f.refuse(err.Error())
		return nil, err
	}
	return &memFile{name: filepath.Base(rel), r: bytes.NewReader(data), size: int64(len(data))}, nil
}

// inside returns name relative to the folder, or why it is not in it. It
// looks only at the path and at symbolic links (lstat, readlink), never
// opening the file.
func (f *folderFS) inside(name string) (string, error) {
	abs := filepath.FromSlash(name)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(f.dir, abs)
	}
	abs = filepath.Clean(abs)
	outside := fmt.Errorf("the reference %q is outside the document's folder: only files in %s and below are read", name, f.dir)
	rel, err := filepath.Rel(f.dir, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", outside
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err // absent: an ordinary unresolved reference
	}
	realRel, err := filepath.Rel(f.realDir, real)
	if err != nil || !filepath.IsLocal(realRel) {
		return "", fmt.Errorf("the reference %q is a symbolic link leading outside the document's folder: only files in %s and below are read", name, f.dir)
	}
	return realRel, nil
}

func (f *folderFS) refuse(why string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.refused {
		if r == why {
			return
		}
	}
	f.refused = append(f.refused, why)
}

func (f *folderFS) refusals() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.refused...)
}

// memFile is a file already read, as the parser's fs.FS contract wants.
type memFile struct {
	name string
	r    *bytes.Reader
	size int64
}

func (m *memFile) Read(p []byte) (int, error) { return m.r.Read(p) }
func (m *memFile) Close() error               { return nil }
func (m *memFile) Stat() (fs.FileInfo, error) { return m, nil }
func (m *memFile) Name() string               { return m.name }
func (m *memFile) Size() int64                { return m.size }
func (m *memFile) Mode() fs.FileMode          { return 0o444 }
func (m *memFile) ModTime() time.Time         { return time.Time{} }
func (m *memFile) IsDir() bool                { return false }
func (m *memFile) Sys() any                   { return nil }
