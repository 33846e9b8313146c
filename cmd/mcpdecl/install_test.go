package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// installEnv points every location a host file is found from into a new
// temporary directory and returns it (HOME, the configuration directory,
// and a project directory for --dir).
func installEnv(t *testing.T) (home, config, project string) {
	t.Helper()
	root := t.TempDir()
	home, config, project = filepath.Join(root, "home"), filepath.Join(root, "xdg"), filepath.Join(root, "project")
	for _, d := range []string{home, config, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("APPDATA", config)
	if runtime.GOOS == "darwin" {
		config = filepath.Join(home, "Library", "Application Support")
	}
	return home, config, project
}

func ordersConfig(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../examples/orders.hcl")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func thisBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// lookupEntry decodes file and follows keys to the entry name.
func lookupEntry(t *testing.T, file string, keys ...string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the host's file: %v", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", file, err, b)
	}
	for _, k := range keys {
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: no object at %q in\n%s", file, k, b)
		}
		v = obj[k]
	}
	entry, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: no entry at %v in\n%s", file, keys, b)
	}
	return entry
}

// TestInstallEveryHost writes each host's file in each of its scopes, at
// the place and in the shape the host reads, with this binary's absolute
// path and the configuration's absolute path.
func TestInstallEveryHost(t *testing.T) {
	cfg := ordersConfig(t)
	exe := thisBinary(t)
	for _, tc := range []struct {
		host, scope, file string // file: relative to home, config or project
		base              string
		keys              []string
		typ               string
	}{
		{"claude-desktop", "", "Claude/claude_desktop_config.json", "config", []string{"mcpServers"}, ""},
		{"claude-code", "", ".mcp.json", "project", []string{"mcpServers"}, "stdio"},
		{"claude-code", "user", ".claude.json", "home", []string{"mcpServers"}, "stdio"},
		{"claude-code", "local", ".claude.json", "home", []string{"projects", "PROJECT", "mcpServers"}, "stdio"},
		{"vscode", "", ".vscode/mcp.json", "project", []string{"servers"}, "stdio"},
		{"vscode", "user", "Code/User/mcp.json", "config", []string{"servers"}, "stdio"},
		{"cursor", "", ".cursor/mcp.json", "project", []string{"mcpServers"}, ""},
		{"cursor", "user", ".cursor/mcp.json", "home", []string{"mcpServers"}, ""},
	} {
		t.Run(tc.host+"/"+tc.scope, func(t *testing.T) {
			home, config, project := installEnv(t)
			file := filepath.Join(map[string]string{"home": home, "config": config, "project": project}[tc.base], tc.file)
			args := []string{"install", tc.host, cfg, "--dir", project, "--yes"}
			if tc.scope != "" {
				args = append(args, "--scope", tc.scope)
			}
			code, out, errOut := runCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			keys := append([]string(nil), tc.keys...)
			for i, k := range keys {
				if k == "PROJECT" {
					keys[i] = project
				}
			}
			entry := lookupEntry(t, file, append(keys, "orders")...)
			want := map[string]any{"command": exe, "args": []any{"serve", cfg}}
			if tc.typ != "" {
				want["type"] = tc.typ
			}
			if !reflect.DeepEqual(entry, want) {
				t.Errorf("entry %v, want %v", entry, want)
			}
			if !strings.Contains(out, "+++ "+file) || !strings.Contains(out, "Wrote "+file) {
				t.Errorf("stdout does not show the diff and the write of %s:\n%s", file, out)
			}
		})
	}
}

// TestInstallKeepsOtherServers: a file holding other servers and keys of
// its own keeps every byte of them; the new entry is inserted after the
// last server.
func TestInstallKeepsOtherServers(t *testing.T) {
	_, _, project := installEnv(t)
	file := filepath.Join(project, ".cursor", "mcp.json")
	before := "{\n  \"mcpServers\": {\n    \"weather\": {\"command\": \"npx\", \"args\": [\"-y\", \"weather\"]}"
	after := "\n  },\n  \"somethingElse\": {\"keep\": [1, 2]}\n}\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(before+after), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("install", "cursor", ordersConfig(t), "--dir", project, "--yes", "--name", "shop", "--env", "SHOP_TOKEN=abc")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	got, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(got), before) || !strings.HasSuffix(string(got), after) {
		t.Errorf("the other servers and keys were not kept byte for byte:\n%s", got)
	}
	entry := lookupEntry(t, file, "mcpServers", "shop")
	if env, _ := entry["env"].(map[string]any); env["SHOP_TOKEN"] != "abc" {
		t.Errorf("env not written: %v", entry)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600 kept", info.Mode().Perm())
	}
	// Installing the same again changes nothing.
	code, out, _ = runCLI("install", "cursor", ordersConfig(t), "--dir", project, "--yes", "--name", "shop", "--env", "SHOP_TOKEN=abc")
	again, _ := os.ReadFile(file)
	if code != 0 || string(again) != string(got) || !strings.Contains(out, "nothing to do") {
		t.Errorf("a second install changed the file or said otherwise (exit %d): %s", code, out)
	}
}

func TestInstallDryRunPrintsTheDiffOnly(t *testing.T) {
	_, _, project := installEnv(t)
	file := filepath.Join(project, ".vscode", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := "{\n  \"servers\": {\n    \"a\": {\"type\": \"stdio\", \"command\": \"a\"}\n  }\n}\n"
	if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := ordersConfig(t)
	code, out, errOut := runCLI("install", "vscode", cfg, "--dir", project, "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "--- " + file + "\n+++ " + file + "\n@@ -1,5 +1,13 @@\n {\n   \"servers\": {\n-    \"a\": {\"type\": \"stdio\", \"command\": \"a\"}\n+    \"a\": {\"type\": \"stdio\", \"command\": \"a\"},\n" +
		"+    \"orders\": {\n+      \"type\": \"stdio\",\n+      \"command\": \"" + thisBinary(t) + "\",\n+      \"args\": [\n+        \"serve\",\n+        \"" + cfg + "\"\n+      ]\n+    }\n   }\n }\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if got, _ := os.ReadFile(file); string(got) != orig {
		t.Errorf("--dry-run wrote the file:\n%s", got)
	}
}

func TestInstallAsksBeforeWriting(t *testing.T) {
	_, _, project := installEnv(t)
	file := filepath.Join(project, ".mcp.json")
	defer func(r any) { installInput = os.Stdin }(nil)

	installInput = strings.NewReader("n\n")
	code, out, errOut := runCLI("install", "claude-code", ordersConfig(t), "--dir", project)
	if code != 1 || !strings.Contains(errOut, "Write "+file+"? [y/N]") || !strings.Contains(errOut, "Nothing was written") || !strings.Contains(out, "+++ ") {
		t.Errorf("answering n: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("answering n wrote %s", file)
	}
	installInput = strings.NewReader("") // no terminal, no answer
	if code, _, _ = runCLI("install", "claude-code", ordersConfig(t), "--dir", project); code != 1 {
		t.Errorf("no answer: exit %d, want 1", code)
	}
	installInput = strings.NewReader("y\n")
	if code, _, errOut = runCLI("install", "claude-code", ordersConfig(t), "--dir", project); code != 0 {
		t.Fatalf("answering y: exit %d: %s", code, errOut)
	}
	lookupEntry(t, file, "mcpServers", "orders")
}

func TestInstallRefuses(t *testing.T) {
	home, _, project := installEnv(t)
	cursorFile := filepath.Join(home, ".cursor", "mcp.json")
	broken := filepath.Join(t.TempDir(), "broken.hcl")
	if err := os.WriteFile(broken, []byte("tool \"x\" {\n  description = \n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		if err := os.MkdirAll(filepath.Dir(cursorFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cursorFile, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := `{"mcpServers": {"orders": {"command": "node", "args": ["orders.js"]}}}`
	for _, tc := range []struct {
		name, file string
		args       []string
		want       string
	}{
		{"another command", other, nil, `an entry "orders" is already there and runs "node"; nothing was written: give another --name, or --force to replace it`},
		{"not JSON", `{"mcpServers": {`, nil, "is not JSON that mcpdecl can edit (line 1, column 17: expected a quoted key or '}'): fix it, or move it away"},
		{"servers not an object", `{"mcpServers": []}`, nil, `"mcpServers" is not a JSON object; nothing was written`},
		{"a broken configuration", other, []string{"install", "cursor", broken, "--scope", "user", "--yes"}, "does not compile, so nothing was installed: fix the errors above (mcpdecl validate " + broken + ")"},
		{"an unknown scope", other, []string{"install", "cursor", ordersConfig(t), "--scope", "local", "--yes"}, `Cursor has no scope "local": choose project or user`},
		{"a missing configuration", other, []string{"install", "cursor", "/no/such.hcl", "--scope", "user", "--yes"}, "give the path of a .hcl file"},
		{"an unknown host", other, []string{"install", "zed", ordersConfig(t)}, "must be one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write(tc.file)
			args := tc.args
			if args == nil {
				args = []string{"install", "cursor", ordersConfig(t), "--scope", "user", "--dir", project, "--yes"}
			}
			code, _, errOut := runCLI(args...)
			if code == 0 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant it to say %q", code, errOut, tc.want)
			}
			if got, _ := os.ReadFile(cursorFile); string(got) != tc.file {
				t.Errorf("the file changed:\n%s", got)
			}
		})
	}
	// --force replaces the other command's entry.
	write(other)
	if code, _, errOut := runCLI("install", "cursor", ordersConfig(t), "--scope", "user", "--yes", "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, errOut)
	}
	if got := lookupEntry(t, cursorFile, "mcpServers", "orders"); got["command"] != thisBinary(t) {
		t.Errorf("--force did not replace the entry: %v", got)
	}
}

func TestServerName(t *testing.T) {
	for in, want := range map[string]string{
		"/a/orders.hcl": "orders", "/a/my shop.hcl.json": "my-shop", "/srv/config": "config", "/a/.hcl": "mcpdecl",
	} {
		if got := serverName(in); got != want {
			t.Errorf("serverName(%q) = %q, want %q", in, got, want)
		}
	}
}
