package langindex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// readDir reads the configuration files of dir as an editor would hand
// them over: file name -> bytes.
func readDir(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".hcl") || strings.HasSuffix(e.Name(), ".hcl.json")) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = src
	}
	return files
}

// spot names a place in a file: the name, the last one inside the first
// occurrence of context (which holds it), as "file: context|name".
type spot struct {
	file, context, name string
}

// rng returns the range of the spot's name, computed from the bytes and
// counted independently of the package's own position code.
func (s spot) rng(t testing.TB, files map[string][]byte) hcl.Range {
	t.Helper()
	src := string(files[s.file])
	at := strings.Index(src, s.context)
	if at < 0 {
		t.Fatalf("%s holds no %q", s.file, s.context)
	}
	in := strings.LastIndex(s.context, s.name)
	if in < 0 {
		t.Fatalf("the context %q does not hold %q", s.context, s.name)
	}
	from := at + in
	return hcl.Range{Filename: s.file, Start: posOf(src, from), End: posOf(src, from+len(s.name))}
}

// pos returns a position inside the spot's name (its second byte, so that
// finding the name does not depend on its first one).
func (s spot) pos(t testing.TB, files map[string][]byte) hcl.Pos {
	r := s.rng(t, files)
	p := r.Start
	if len(s.name) > 1 {
		p.Byte++
		p.Column++
	}
	return p
}

func posOf(src string, off int) hcl.Pos {
	before := src[:off]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndex(before, "\n")+1:])) + 1
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

// textOf returns the text a range covers.
func textOf(files map[string][]byte, r hcl.Range) string {
	return string(files[r.Filename][r.Start.Byte:r.End.Byte])
}
