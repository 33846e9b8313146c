package eval

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// fileTree builds <dir>/config/notes with a note, a subfolder, a FIFO and
// symbolic links that lead out of the folder, and a secret next to it.
func fileTree(t *testing.T) (configDir string) {
	t.Helper()
	dir := t.TempDir()
	configDir = filepath.Join(dir, "config")
	notes := filepath.Join(configDir, "notes")
	mustWrite(t, filepath.Join(notes, "a.md"), "note a")
	mustWrite(t, filepath.Join(notes, "sub", "b.md"), "note b")
	mustWrite(t, filepath.Join(configDir, "secret.txt"), "config secret")
	mustWrite(t, filepath.Join(dir, "outside.txt"), "outside secret")
	for link, target := range map[string]string{
		"up":       "../secret.txt",
		"abs":      filepath.Join(dir, "outside.txt"),
		"etc":      "/etc",
		"sub/back": "../a.md", // stays inside: allowed
	} {
		if err := os.Symlink(target, filepath.Join(notes, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(notes, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return configDir
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadInFolder: a name reads a regular file inside the folder, in a
// subfolder too; every name that would leave the folder, by "..", an
// absolute path, a backslash, a NUL or a symbolic link, and every file
// that is not a regular file, is missing, and no error text carries a
// server path.
func TestReadInFolder(t *testing.T) {
	configDir := fileTree(t)
	for name, want := range map[string]string{"a.md": "note a", "sub/b.md": "note b", "./a.md": "note a", "sub/back": "note a"} {
		b, err := ReadInFolder(configDir, "notes", name)
		if err != nil || string(b) != want {
			t.Errorf("ReadInFolder(%q) = %q, %v; want %q", name, b, err, want)
		}
	}
	refused := []string{
		"", "..", "../secret.txt", "../../outside.txt", "sub/../../secret.txt", "sub/../a.md",
		"/etc/passwd", filepath.Join(filepath.Dir(configDir), "outside.txt"),
		"..\\secret.txt", "a.md\\", "a.md\x00", "\x00",
		"up", "abs", "etc/passwd", "etc",
		"sub", ".", "fifo", "missing.md", "a.md/", "%2e%2e%2fsecret.txt", "..%2Fsecret.txt",
	}
	for _, name := range refused {
		b, err := ReadInFolder(configDir, "notes", name)
		var fe *FileError
		if !errors.As(err, &fe) || !fe.Missing {
			t.Errorf("ReadInFolder(%q) = %q, %v; want a missing-file error", name, b, err)
			continue
		}
		// The caller's own value may be echoed; nothing else of the server's.
		if msg := strings.Replace(err.Error(), name, "", 1); strings.Contains(msg, configDir) || strings.Contains(msg, "/tmp") {
			t.Errorf("ReadInFolder(%q): the message %q names a server path", name, err)
		}
	}
}

// TestFileFunctionForms: file(path) and file(folder, name), and
// filebase64 alike, through HCL; a refused name is a FileError that
// FileErrorOf finds behind the diagnostics.
func TestFileFunctionForms(t *testing.T) {
	configDir := fileTree(t)
	s := &Static{}
	s.Seal()
	eval := func(src string, args map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
		expr, d := hclsyntax.ParseExpression([]byte(src), filepath.Join(configDir, "c.hcl"), hcl.InitialPos)
		if d.HasErrors() {
			t.Fatal(d)
		}
		return expr.Value(s.WithArgs(expr, cty.ObjectVal(args)))
	}
	name := func(n string) map[string]cty.Value { return map[string]cty.Value{"name": cty.StringVal(n)} }
	for src, want := range map[string]string{
		`file("secret.txt")`:                "config secret",
		`file("notes", args.name)`:          "note a",
		`file("notes", "sub/${args.name}")`: "note b",
		`filebase64("notes", args.name)`:    base64.StdEncoding.EncodeToString([]byte("note a")),
	} {
		arg := "a.md"
		if strings.Contains(src, "sub/") {
			arg = "b.md"
		}
		v, d := eval(src, name(arg))
		if d.HasErrors() || v.AsString() != want {
			t.Errorf("%s = %#v, %v; want %q", src, v, d, want)
		}
	}
	_, d := eval(`file("notes", args.name)`, name("../secret.txt"))
	fe := FileErrorOf(d)
	if fe == nil || !fe.Missing || fe.Name != "../secret.txt" {
		t.Errorf("file(\"notes\", \"../secret.txt\"): %v; want a missing-file error", d)
	}
	_, d = eval(`file("gone.txt")`, nil)
	if fe := FileErrorOf(d); fe == nil || !fe.Missing || strings.Contains(fe.Error(), configDir) {
		t.Errorf("file(\"gone.txt\"): %v; want a missing-file error without the server path", d)
	}
	_, d = eval(`file("notes", "a.md", "b.md")`, nil)
	if !d.HasErrors() {
		t.Error("file() with three arguments: no error")
	}
}

// TestCheckFileCalls: a path built from per-call values must name its
// folder apart; the message says what to write instead, at the path.
func TestCheckFileCalls(t *testing.T) {
	configDir := fileTree(t)
	cfgFile := filepath.Join(configDir, "c.hcl")
	s := &Static{Locals: map[string]cty.Value{"dir": cty.StringVal("notes")}}
	s.Seal()
	cases := []struct {
		src, summary, suggestion string
	}{
		{`file("notes/${args.name}")`, "File path from the arguments", `file("notes", args.name)`},
		{`filebase64("notes/img-${args.name}.png")`, "File path from the arguments", `filebase64("notes", "img-${args.name}.png")`},
		{`"head: ${file("a/b/${args.x}/${args.y}")}"`, "File path from the arguments", `file("a/b", "${args.x}/${args.y}")`},
		{`file(args.path)`, "File path from the arguments", `file("<folder>", <file name from the arguments>)`},
		{`try(file(lower(args.path)), "")`, "File path from the arguments", ""},
		{`[for n in args.names : file("notes/${n}")]`, "File path from the arguments", `file("notes", n)`},
		{`file("notes/${answers.name}")`, "File path from the arguments", ""},
		{`file(args.dir, "a.md")`, "Folder from the arguments", ""},
		{`file("nowhere", args.name)`, "Folder not found", ""},
		{`file("secret.txt")`, "", ""},
		{`file("notes", args.name)`, "", ""},
		{`file(local.dir, args.name)`, "", ""},
		{`file(".", args.name)`, "Folder holds the configuration", `file("files", args.name)`},
		{`file("", args.name)`, "Folder holds the configuration", ""},
		{`filebase64("..", args.name)`, "Folder holds the configuration", ""},
		{`file("notes/..", args.name)`, "Folder holds the configuration", ""},
		{`file("notes/${local.dir}")`, "", ""},
		{`upper(args.name)`, "", ""},
	}
	for _, c := range cases {
		expr, d := hclsyntax.ParseExpression([]byte(c.src), cfgFile, hcl.Pos{Line: 3, Column: 10, Byte: 0})
		if d.HasErrors() {
			t.Fatal(d)
		}
		diags := s.CheckFileCalls(expr, map[string]*hcl.File{cfgFile: {Bytes: []byte(c.src)}})
		if c.summary == "" {
			if len(diags) != 0 {
				t.Errorf("%s: %v; want no diagnostic", c.src, diags)
			}
			continue
		}
		if len(diags) != 1 || diags[0].Summary != c.summary || diags[0].Subject == nil || diags[0].Subject.Start.Line != 3 {
			t.Errorf("%s: %v; want one %q at line 3", c.src, diags, c.summary)
			continue
		}
		if c.suggestion != "" && !strings.Contains(diags[0].Detail, c.suggestion) {
			t.Errorf("%s: %q does not suggest %s", c.src, diags[0].Detail, c.suggestion)
		}
	}
}

// TestCheckFileCallsJSON: the JSON syntax's strings are templates too.
func TestCheckFileCallsJSON(t *testing.T) {
	src := []byte(`{"text": "${file(\"notes/${args.name}\")}", "list": ["x", {"k": "${filebase64(args.p)}"}]}`)
	f, d := json.Parse(src, "c.hcl.json")
	if d.HasErrors() {
		t.Fatal(d)
	}
	attrs, d := f.Body.JustAttributes()
	if d.HasErrors() {
		t.Fatal(d)
	}
	files := map[string]*hcl.File{"c.hcl.json": f}
	s := &Static{}
	var total int
	for _, a := range attrs {
		diags := s.CheckFileCalls(a.Expr, files)
		for _, dg := range diags {
			if dg.Summary != "File path from the arguments" {
				t.Errorf("%s: %v", a.Name, dg)
			}
		}
		total += len(diags)
	}
	if total != 2 {
		t.Errorf("found %d unconfined file() calls in JSON; want 2", total)
	}
}

// TestHostileFileSize: a file larger than MaxFileBytes is refused with a
// message that says so, in both forms, before it is read into memory, and
// a device that never ends (/dev/zero) is refused too, not read forever.
func TestHostileFileSize(t *testing.T) {
	configDir := fileTree(t)
	big := filepath.Join(configDir, "notes", "big.log")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: takes no disk, yet is larger than any file() may read.
	if err := f.Truncate(4 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	check := func(what string, b []byte, err error) {
		t.Helper()
		var fe *FileError
		if !errors.As(err, &fe) || fe.Missing || !strings.Contains(err.Error(), "larger than 10 MiB") {
			t.Errorf("%s = %d bytes, %v; want a too-large error naming the limit", what, len(b), err)
		}
		if err != nil && strings.Contains(err.Error(), configDir) {
			t.Errorf("%s: the message %q names a server path", what, err)
		}
	}
	b, err := ReadInFolder(configDir, "notes", "big.log")
	check("ReadInFolder(big.log)", b, err)
	b, err = readConfigFile(configDir, "notes/big.log")
	check("file(notes/big.log)", b, err)
	if _, err := os.Stat("/dev/zero"); err == nil {
		b, err = readConfigFile(configDir, "/dev/zero")
		check("file(/dev/zero)", b, err)
	}
}

// TestConfigFileRefusesPipes: a file the configuration names that is a
// named pipe (one put where a served file was, say) is refused at once,
// instead of opening it waiting for a writer that never comes.
func TestConfigFileRefusesPipes(t *testing.T) {
	configDir := fileTree(t)
	done := make(chan error, 1)
	go func() {
		_, err := readConfigFile(configDir, "notes/fifo")
		done <- err
	}()
	// No writer ever opens the pipe: a blocking open would never return,
	// and the test would end by its own timeout, not here.
	err := <-done
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("file(notes/fifo): %v; want an error saying it is a named pipe", err)
	}
	if b, err := readConfigFile(configDir, "notes/a.md"); err != nil || string(b) != "note a" {
		t.Fatalf("file(notes/a.md) = %q, %v", b, err)
	}
}
