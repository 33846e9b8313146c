package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// callEnv evaluates env(args) with the environment vars.
func callEnv(t *testing.T, vars map[string]string, args string) (string, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte("env("+args+")"), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	env := &Env{Allowed: []string{"TOKEN"}, Lookup: func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}}
	v, diags := expr.Value(&hcl.EvalContext{Functions: Functions(t.TempDir(), env)})
	if diags.HasErrors() || !v.IsKnown() || v.Type() != cty.String {
		return "", diags
	}
	return v.AsString(), nil
}

// TestEnvFromSecretFile: env("TOKEN") reads the file TOKEN_FILE names
// when TOKEN is unset, without its last line break; both set, or a file
// that cannot be read, is an error that names the variable and the path
// and never the contents; a name outside allow_env stays refused even
// when its _FILE companion is set.
func TestEnvFromSecretFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	secret := write("token", "s3cr3t-from-a-file\n", 0o600)
	crlf := write("crlf", "crlf-secret\r\n", 0o600)
	twoLines := write("two", "line one\nline two\n\n", 0o600)
	binary := write("bin", "\xff\xfe-not-text", 0o600)
	unreadable := write("locked", "locked-secret-value", 0o000)

	for _, c := range []struct {
		name string
		vars map[string]string
		want string
	}{
		{"from the file", map[string]string{"TOKEN_FILE": secret}, "s3cr3t-from-a-file"},
		{"a CRLF ending", map[string]string{"TOKEN_FILE": crlf}, "crlf-secret"},
		{"only the last line break", map[string]string{"TOKEN_FILE": twoLines}, "line one\nline two\n"},
		{"the variable itself", map[string]string{"TOKEN": "plain"}, "plain"},
		{"an empty variable is set", map[string]string{"TOKEN": ""}, ""},
	} {
		got, diags := callEnv(t, c.vars, `"TOKEN"`)
		if diags.HasErrors() || got != c.want {
			t.Errorf("%s: %q %v; want %q", c.name, got, diags, c.want)
		}
	}
	if got, diags := callEnv(t, map[string]string{}, `"TOKEN", "fallback"`); diags.HasErrors() || got != "fallback" {
		t.Errorf("neither set, with a fallback: %q %v", got, diags)
	}

	failures := []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"both set", map[string]string{"TOKEN": "a", "TOKEN_FILE": secret}, []string{"both TOKEN and TOKEN_FILE are set"}},
		{"missing file", map[string]string{"TOKEN_FILE": filepath.Join(dir, "nope")}, []string{"TOKEN_FILE", filepath.Join(dir, "nope"), "does not exist"}},
		{"empty path", map[string]string{"TOKEN_FILE": ""}, []string{"TOKEN_FILE", "is empty"}},
		{"a folder", map[string]string{"TOKEN_FILE": dir}, []string{"TOKEN_FILE", "cannot be read"}},
		{"not text", map[string]string{"TOKEN_FILE": binary}, []string{"is not UTF-8 text"}},
	}
	if os.Geteuid() != 0 { // root reads any file
		failures = append(failures, struct {
			name string
			vars map[string]string
			want []string
		}{"unreadable", map[string]string{"TOKEN_FILE": unreadable}, []string{"permission denied"}})
	}
	for _, c := range failures {
		_, diags := callEnv(t, c.vars, `"TOKEN"`)
		text := diags.Error()
		if !diags.HasErrors() {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %s; want it to say %q", c.name, text, w)
			}
		}
		for _, leaked := range []string{"s3cr3t", "locked-secret", "not-text"} {
			if strings.Contains(text, leaked) {
				t.Errorf("%s: the error quotes the file: %s", c.name, text)
			}
		}
	}
	_, diags := callEnv(t, map[string]string{"OTHER_FILE": secret}, `"OTHER"`)
	if !strings.Contains(diags.Error(), "is not allowed") {
		t.Errorf("a name outside allow_env with its _FILE set: %v; want it refused", diags)
	}
}
