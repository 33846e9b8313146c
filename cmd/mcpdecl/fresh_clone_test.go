package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExamplesOnFreshClone: the examples work on a fresh clone with Go
// alone. The repository's tracked files (git ls-files) are copied into an
// empty folder, as a clone has them: nothing built, no node_modules, no
// .tools. There every examples/*.hcl validates, `mcpdecl test examples`
// (the first example of `mcpdecl test --help`) passes, and so does each
// command of `make examples`, which may depend on no other target.
func TestExamplesOnFreshClone(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	clone := t.TempDir()
	copyTracked(t, root, clone)
	makeExamples := makeExamplesCommands(t, filepath.Join(clone, "Makefile"))
	t.Chdir(clone)

	configs, err := filepath.Glob("examples/*.hcl")
	if err != nil || len(configs) < 5 {
		t.Fatalf("examples/*.hcl: %v (%d files)", err, len(configs))
	}
	runs := [][]string{append([]string{"validate"}, configs...), {"test", "examples"}}
	runs = append(runs, makeExamples...)
	for _, args := range runs {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Errorf("on a fresh clone, mcpdecl %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errOut.String())
		}
	}
}

// copyTracked copies the files git tracks in root into dst. A tracked file
// deleted in the working tree (its deletion not yet committed) is left out.
func copyTracked(t *testing.T, root, dst string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is needed to list the repository's files")
		}
		t.Skip("git is not installed: the repository's tracked files cannot be listed")
	}
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", root, err)
	}
	copied := 0
	for _, name := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, to); err != nil {
				t.Fatal(err)
			}
			continue
		}
		copyFile(t, src, to, info.Mode().Perm())
		copied++
	}
	if copied < 100 {
		t.Fatalf("git ls-files listed %d files in %s; want the whole repository", copied, root)
	}
}

func copyFile(t *testing.T, src, dst string, perm os.FileMode) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// makeExamplesCommands reads the examples target of the Makefile: it must
// have no prerequisite (none that needs more than Go), and its recipe is a
// chain of `$(GO) run ./cmd/mcpdecl ...` commands, returned as the
// arguments of each.
func makeExamplesCommands(t *testing.T, makefile string) [][]string {
	t.Helper()
	text, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^examples:([^;\n]*);(.*)$`).FindStringSubmatch(string(text))
	if m == nil {
		t.Fatal("the Makefile has no one-line examples target")
	}
	if prereq := strings.TrimSpace(m[1]); prereq != "" {
		t.Errorf("make examples first makes %q; on a fresh clone it must need Go alone", prereq)
	}
	var cmds [][]string
	for _, part := range strings.Split(m[2], "&&") {
		fields := strings.Fields(part)
		if len(fields) < 4 || fields[0] != "$(GO)" || fields[1] != "run" || fields[2] != "./cmd/mcpdecl" {
			t.Fatalf("make examples runs %q; this test runs `$(GO) run ./cmd/mcpdecl ...` commands only", strings.TrimSpace(part))
		}
		cmds = append(cmds, fields[3:])
	}
	return cmds
}
