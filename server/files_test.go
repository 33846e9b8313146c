package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestMissingFilesAreNotFound: a file a resource reads that is not there,
// or that a template's argument may not name, is "resource not found",
// and the error carries no server path.
func TestMissingFilesAreNotFound(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	if err := os.MkdirAll(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"notes/a.md": "note a", "policy.md": "policy", "secret.txt": "secret"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := lang.LoadSource(filepath.Join(dir, "test.hcl"), []byte(`
resource "policy" {
  uri  = "docs://policy"
  file = "policy.md"
}
resource_template "note" {
  uri_template = "notes://{name}"
  text         = file("notes", args.name)
}
resource_template "with_policy" {
  uri_template = "withpolicy://{name}"
  text         = "${file("policy.md")}: ${args.name}"
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s := New(tbl, nil)
	read := func(uri string) (string, error) {
		res, err := s.ReadResource(context.Background(), &mcp.Request{Method: "resources/read"}, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}
	if text, err := read("notes://a.md"); err != nil || text != "note a" {
		t.Fatalf("notes://a.md = %q, %v", text, err)
	}
	if err := os.Remove(filepath.Join(dir, "policy.md")); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"notes://..%2Fsecret.txt", "notes://missing.md", "docs://policy", "withpolicy://x"} {
		text, err := read(uri)
		var me *mcp.Error
		if !errors.As(err, &me) || me.Code != mcp.CodeResourceNotFound {
			t.Errorf("%s = %q, %v; want resource not found", uri, text, err)
			continue
		}
		if strings.Contains(me.Message, dir) {
			t.Errorf("%s: %q names a server path", uri, me.Message)
		}
	}
}

// TestHostileLargeFiles: a resource file or a file a template names that
// has grown past the limit since the configuration was loaded is refused
// with a message naming the limit, never read into memory, and the
// message carries no server path.
func TestHostileLargeFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"log.txt", "notes/big.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("small"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := lang.LoadSource(filepath.Join(dir, "test.hcl"), []byte(`
resource "log" {
  uri  = "docs://log"
  file = "log.txt"
}
resource_template "note" {
  uri_template = "notes://{name}"
  text         = file("notes", args.name)
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, name := range []string{"log.txt", "notes/big.md"} {
		if err := os.Truncate(filepath.Join(dir, name), 3<<30); err != nil { // sparse
			t.Fatal(err)
		}
	}
	s := New(tbl, nil)
	for _, uri := range []string{"docs://log", "notes://big.md"} {
		res, err := s.ReadResource(context.Background(), &mcp.Request{Method: "resources/read"}, &mcp.ReadResourceParams{URI: uri})
		var me *mcp.Error
		if !errors.As(err, &me) || !strings.Contains(me.Message, "larger than 10 MiB") {
			t.Errorf("%s = %v, %v; want an error naming the 10 MiB limit", uri, res != nil, err)
			continue
		}
		if strings.Contains(me.Message, dir) {
			t.Errorf("%s: %q names a server path", uri, me.Message)
		}
	}
}
