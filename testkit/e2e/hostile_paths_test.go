package e2e

import (
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// filesConfig serves files named by the client from a folder "notes" next
// to the configuration, through a template with a simple variable, one
// with a reserved expansion ({+path}), a prompt and a tool.
const filesConfig = `
server {
  name    = "files"
  version = "0.1.0"
}

variable "base_url" {
  type = string
}

backend "http" "api" {
  base_url = var.base_url
  timeout  = "5s"
}

resource_template "note" {
  uri_template = "notes://{name}"
  mime_type    = "text/plain"
  text         = file("notes", args.name)
}

resource_template "tree" {
  uri_template = "tree://{+path}"
  mime_type    = "text/plain"
  text         = file("notes", args.path)
}

prompt "note" {
  description = "Discuss a note."
  arg "name" {
    description = "The note's file name."
  }
  message "user" {
    text = file("notes", args.name)
  }
}

tool "send" {
  description = "Send a stored note to the API."
  arg "name" {
    type = string
  }
  http "api" {
    method       = "POST"
    path         = "/send"
    raw_body     = file("notes", args.name)
    content_type = "text/plain"
  }
}
`

// filesTree writes the configuration with its notes folder, a secret next
// to it and one outside, and symbolic links that lead out of the folder.
func filesTree(t *testing.T) (cfg, dir string) {
	t.Helper()
	dir = t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config/files.hcl", filesConfig)
	write("config/notes/a.md", "note a")
	write("config/notes/sub/b.md", "note b")
	write("config/secret.txt", "SECRET-next-to-config")
	write("outside.txt", "SECRET-outside")
	for link, target := range map[string]string{"up": "../secret.txt", "abs": filepath.Join(dir, "outside.txt"), "etc": "/etc"} {
		if err := os.Symlink(target, filepath.Join(dir, "config", "notes", link)); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "config", "files.hcl"), dir
}

// hostileNames are file names a client may try in order to leave the
// folder, as the template variable's value once decoded.
var hostileNames = []string{
	"../secret.txt", "../../outside.txt", "sub/../../secret.txt", "..", "../", "/etc/passwd",
	"..\\secret.txt", "a.md\x00", "up", "abs", "etc/passwd", "missing.md", "sub", "",
	"%2e%2e%2fsecret.txt", "..%2Fsecret.txt",
}

// TestHostileFilePaths reads files through file("notes", args.x) with
// names and URIs built to leave the folder (encoded, double-encoded,
// reserved expansion, symbolic links, absolute, NUL, backslash): each is
// "resource not found" with the era's code, a failed prompt or a tool
// error, never a file's content, and no answer carries a server path.
func TestHostileFilePaths(t *testing.T) {
	requireSchemas(t)
	cfg, dir := filesTree(t)
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api := echoAPI(t)
			srv := s.connect(t, cfg, map[string]string{"base_url": api.URL}, nil)
			c := srv.c
			ctx := testCtx(t)
			noLeak := func(what, text string) {
				t.Helper()
				if strings.Contains(text, "SECRET") || strings.Contains(text, dir) || strings.Contains(text, "/etc/passwd") && !strings.Contains(what, "/etc/passwd") {
					t.Errorf("%s: the answer leaks: %q", what, text)
				}
			}
			notFound := func(what string, text string, err error) {
				t.Helper()
				if err == nil {
					t.Errorf("%s = %q; want resource not found", what, text)
					return
				}
				noLeak(what, err.Error())
				var we *jsonrpc.Error
				if errors.As(err, &we) && we.Code != int64(notFoundCode(s.era)) {
					t.Errorf("%s: code %d, want %d (%v)", what, we.Code, notFoundCode(s.era), err)
				}
			}

			for uri, want := range map[string]string{
				"notes://a.md": "note a", "notes://sub%2Fb.md": "note b", "tree://a.md": "note a", "tree://sub/b.md": "note b",
			} {
				if text, _, err := c.readResource(ctx, uri); err != nil || text != want {
					t.Errorf("resources/read %q = %q, %v; want %q", uri, text, err, want)
				}
			}
			for _, name := range hostileNames {
				uri := "notes://" + expandSimple(name)
				text, _, err := c.readResource(ctx, uri)
				notFound("resources/read "+uri, text, err)
			}
			for _, uri := range []string{
				"notes://..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd", "notes://..%2Fsecret.txt", "notes://%2e%2e%2fsecret.txt",
				"notes://%2E%2E%2F%2E%2E%2Foutside.txt", "notes://..%5Csecret.txt", "notes://..%252Fsecret.txt",
				"notes://%252e%252e%252fsecret.txt", "notes://up", "notes://abs", "notes://etc%2Fpasswd",
				"tree://../secret.txt", "tree://../../outside.txt", "tree://sub/../../secret.txt", "tree:///etc/passwd",
				"tree://%2e%2e/secret.txt", "tree://..%2Fsecret.txt", "tree://etc/passwd", "tree://up", "tree://missing.md",
			} {
				text, _, err := c.readResource(ctx, uri)
				notFound("resources/read "+uri, text, err)
			}

			if msgs, err := c.getPrompt(ctx, "note", map[string]string{"name": "a.md"}); err != nil || len(msgs) != 1 || !strings.Contains(msgs[0], "note a") {
				t.Errorf("prompts/get note a.md = %q, %v", msgs, err)
			}
			for _, name := range hostileNames {
				msgs, err := c.getPrompt(ctx, "note", map[string]string{"name": name})
				if err == nil {
					t.Errorf("prompts/get note %q = %q; want an error", name, msgs)
					continue
				}
				noLeak("prompts/get note "+name, err.Error())
				var we *jsonrpc.Error
				if errors.As(err, &we) && we.Code != mcp.CodeInvalidParams {
					t.Errorf("prompts/get note %q: code %d, want %d (the caller named no file)", name, we.Code, mcp.CodeInvalidParams)
				}
			}

			if res, err := c.callTool(ctx, "send", map[string]any{"name": "a.md"}); err != nil || res.IsError {
				t.Errorf("send a.md = %+v, %v", res, err)
			}
			checkRequests(t, "send a.md", api, wantRequest{Method: "POST", Path: "/send", Body: "not JSON: note a"})
			for _, name := range hostileNames {
				res, err := c.callTool(ctx, "send", map[string]any{"name": name})
				if err != nil || !res.IsError {
					t.Errorf("send %q = %+v, %v; want a tool error", name, res, err)
					continue
				}
				noLeak("send "+name, res.Text)
				checkRequests(t, "send "+name, api)
			}
			c.close()
			if logs := srv.logs.String(); !strings.Contains(logs, dir) {
				t.Errorf("the server log does not name the paths it refused:\n%s", logs)
			}
		})
	}
}

// notFoundCode is the code of "resource not found" in an era.
func notFoundCode(era mcp.Era) int {
	if era == mcp.EraModern {
		return mcp.CodeInvalidParams
	}
	return mcp.CodeResourceNotFound
}

// TestHostilePathSeparators sends path values that carry a "/" or "\" in
// some encoding (raw, %2F, double-encoded %252F, %5C, overlong %C0%AF) or a
// "." or ".." segment in some encoding, through a tool path and a resource
// template path: each is refused before any request, since a proxy that
// decodes them would address another resource.
func TestHostilePathSeparators(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/paths.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api := echoAPI(t)
			srv := s.connect(t, cfg, map[string]string{"base_url": api.URL}, nil)
			c := srv.c
			ctx := testCtx(t)
			for _, v := range []string{
				"..%2F..", "a%2Fb", "%2F", "%2f", "%252F", "%25252F", "..%252F..", "%5C", "%5c..%5c", "a\\b", "\\",
				"%C0%AF", "%2e%2e", ".%2E", "%252e%252e", "..;", "..;x=1", "%2e%2e;",
			} {
				res, err := c.callTool(ctx, "item", map[string]any{"id": v})
				if err != nil || !res.IsError {
					t.Errorf("item %q = %+v, %v; want the value refused", v, res, err)
				} else if !strings.Contains(res.Text, "path segment") {
					t.Errorf("item %q: the message %q does not say what is wrong", v, res.Text)
				}
				checkRequests(t, "item "+v, api)

				uri := "items://" + expandSimple(v)
				if text, _, err := c.readResource(ctx, uri); err == nil {
					t.Errorf("resources/read %q = %q; want an error", uri, text)
				}
				checkRequests(t, "read "+uri, api)
			}
			// Percent signs, dots and semicolons that decode to no
			// separator are one segment's value, sent escaped.
			for _, v := range []string{"100%", "a%zz", "...", "a..b", "%41", "a;b"} {
				res, err := c.callTool(ctx, "item", map[string]any{"id": v})
				if err != nil || res.IsError {
					t.Errorf("item %q = %+v, %v; want success", v, res, err)
				}
				checkRequests(t, "item "+v, api, wantRequest{Method: "GET", Path: "/items/" + url.PathEscape(v) + "/detail"})
			}
		})
	}
}

// TestHostileHeaderNames: a header, query or form name a caller could
// choose (a map argument) is a load-time error of `mcpdecl validate`, at
// the attribute, saying what to write instead.
func TestHostileHeaderNames(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "names.hcl")
	src := `server {
  name    = "names"
  version = "0.1.0"
}

backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}

tool "call" {
  description = "Call with caller-chosen names."
  arg "h" {
    type = map(string)
  }
  http "api" {
    path    = "/x"
    headers = args.h
    query   = merge({ a = "1" }, args.h)
  }
}
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(binPath, "validate", cfg).CombinedOutput()
	if err == nil {
		t.Fatalf("validate accepted headers = args.h:\n%s", out)
	}
	for _, want := range []string{"names.hcl:17:15: error: Names from the arguments", "names.hcl:18:15: error: Names from the arguments", "Host, Authorization"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
}

// detailsConfig has calls that fail on the server's side: an API on a
// closed port, a command in a working directory and a program that are
// removed after loading.
const detailsConfig = `
server {
  name    = "details"
  version = "0.1.0"
}

variable "base_url" {
  type = string
}

variable "work_dir" {
  type = string
}

variable "program" {
  type = string
}

backend "http" "api" {
  base_url = var.base_url
  timeout  = "5s"
}

tool "down" {
  description = "Call an API that is down."
  http "api" {
    path = "/x"
  }
}

tool "in_gone_dir" {
  description = "Run a command in a directory that is gone."
  shell {
    command = ["pwd"]
    dir     = var.work_dir
  }
}

tool "gone_program" {
  description = "Run a program that is gone."
  shell {
    command = [var.program]
  }
}
`

// TestHostileErrorDetails: what the model is told about a failure
// on the server's side names no backend host:port and no server path; the
// server log has them.
func TestHostileErrorDetails(t *testing.T) {
	requireSchemas(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "details.hcl")
	workDir := filepath.Join(dir, "work")
	program := filepath.Join(dir, "bin", "report-tool")
	if err := os.WriteFile(cfg, []byte(detailsConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	down := closedURL(t)
	hostPort := strings.TrimPrefix(down, "http://")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			// Both are there when the configuration is loaded, and removed
			// before the calls.
			for _, p := range []string{workDir, filepath.Dir(program)} {
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(program, []byte("#!/bin/sh\necho ok\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			srv := s.connect(t, cfg, map[string]string{"base_url": down, "work_dir": workDir, "program": program}, nil)
			c := srv.c
			ctx := testCtx(t)
			if err := os.RemoveAll(workDir); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(program); err != nil {
				t.Fatal(err)
			}
			for tool, want := range map[string]string{
				"down":         "refused the connection",
				"in_gone_dir":  "working directory is missing",
				"gone_program": "the program report-tool was not found",
			} {
				res, err := c.callTool(ctx, tool, map[string]any{})
				if err != nil || !res.IsError {
					t.Errorf("%s = %+v, %v; want a tool error", tool, res, err)
					continue
				}
				if !strings.Contains(res.Text, want) {
					t.Errorf("%s: %q does not say %q", tool, res.Text, want)
				}
				for _, leak := range []string{hostPort, "127.0.0.1", dir} {
					if strings.Contains(res.Text, leak) {
						t.Errorf("%s: the message %q holds %q", tool, res.Text, leak)
					}
				}
			}
			c.close()
			logs := srv.logs.String()
			for _, want := range []string{hostPort, workDir} {
				if !strings.Contains(logs, want) {
					t.Errorf("the server log does not name %s:\n%s", want, logs)
				}
			}
		})
	}
}

// reservedConfig reads API files through a template whose variable has
// reserved expansion ({+path}, which may hold "/") and one whose variable
// has simple expansion ({name}, one segment).
const reservedConfig = `
server {
  name    = "reserved"
  version = "0.1.0"
}

variable "base_url" {
  type = string
}

backend "http" "api" {
  base_url = var.base_url
  timeout  = "5s"
}

resource_template "tree" {
  uri_template = "tree://{+path}"
  mime_type    = "application/json"
  http "api" {
    path = "/files/${args.path}"
  }
}

resource_template "flat" {
  uri_template = "flat://{name}"
  mime_type    = "application/json"
  http "api" {
    path = "/files/${args.name}"
  }
}
`

// TestHostileReservedExpansion: a {+path} variable reaches the API as
// several segments, each escaped and checked; a {name} variable stays one
// segment. Neither can climb, hide a separator or leave a segment empty.
func TestHostileReservedExpansion(t *testing.T) {
	requireSchemas(t)
	cfg := filepath.Join(t.TempDir(), "reserved.hcl")
	if err := os.WriteFile(cfg, []byte(reservedConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api := echoAPI(t)
			srv := s.connect(t, cfg, map[string]string{"base_url": api.URL}, nil)
			c := srv.c
			ctx := testCtx(t)
			for uri, path := range map[string]string{
				"tree://docs/2026/june.md": "/files/docs/2026/june.md",
				"tree://a%20b/c":           "/files/a%20b/c",
				"flat://june.md":           "/files/june.md",
			} {
				if _, _, err := c.readResource(ctx, uri); err != nil {
					t.Errorf("resources/read %q: %v", uri, err)
				}
				checkRequests(t, "read "+uri, api, wantRequest{Method: "GET", Path: path})
			}
			for _, uri := range []string{
				"tree://../admin", "tree://docs/../../admin", "tree://docs/%2e%2e/%2e%2e/admin", "tree:///etc/passwd",
				"tree://docs//x", "tree://docs/%252F/x", "tree://docs%5Cx", "tree://docs/..;x/y",
				"flat://a%2Fb", "flat://..%2Fadmin", "flat://%2e%2e",
			} {
				if text, _, err := c.readResource(ctx, uri); err == nil {
					t.Errorf("resources/read %q = %q; want an error", uri, text)
				}
				checkRequests(t, "read "+uri, api)
			}
		})
	}
}
