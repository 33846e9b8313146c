package shelladapter

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// Defaults of a backend "shell" block, also used by calls without one.
const (
	DefaultPath           = "/usr/local/bin:/usr/bin:/bin"
	DefaultTimeout        = 30 * time.Second
	DefaultMaxOutputBytes = 1 << 20
	DefaultConcurrency    = 4
)

// Backend is a compiled `backend "shell"` block: settings shared by the
// calls that name it.
type Backend struct {
	Name string
	// Dir is the working directory ("" for mcpdecl's own), resolved against
	// the config file.
	Dir string
	// Env is the environment besides PATH; values may be secrets.
	Env map[string]string
	// Path is the PATH programs are looked up in and that children get.
	Path           string
	Timeout        time.Duration
	MaxOutputBytes int64
	// Concurrency caps how many processes of one call run at once.
	Concurrency int
}

// DefaultBackend returns the settings of calls that name no backend.
func DefaultBackend() *Backend {
	return &Backend{
		Path:           DefaultPath,
		Timeout:        DefaultTimeout,
		MaxOutputBytes: DefaultMaxOutputBytes,
		Concurrency:    DefaultConcurrency,
	}
}

var _ adapter.Backend = (*Backend)(nil)

// Describe returns the backend's settings; environment values are left out.
func (b *Backend) Describe() map[string]any {
	d := map[string]any{
		"kind":             Kind,
		"name":             b.Name,
		"path":             b.Path,
		"timeout":          b.Timeout.String(),
		"max_output_bytes": b.MaxOutputBytes,
		"concurrency":      b.Concurrency,
	}
	if b.Dir != "" {
		d["dir"] = b.Dir
	}
	if len(b.Env) > 0 {
		d["env"] = anyList(check.SortedKeys(b.Env))
	}
	return d
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func compileBackend(bb *adapter.BackendBlock) (*Backend, hcl.Diagnostics) {
	s := bb.Scope
	b := DefaultBackend()
	b.Name = bb.Name
	content, diags := bb.Body.Content(BackendSchema)
	a := content.Attributes
	var d hcl.Diagnostics

	b.Dir, d = staticDir(s, a["dir"])
	diags = append(diags, d...)
	env, keys, _, d := check.StringMap(s, a["env"])
	diags = append(diags, d...)
	for _, k := range keys {
		if d := checkEnvName(k, check.KeyRange(a["env"], k)); d != nil {
			diags = append(diags, d)
			delete(env, k)
		}
	}
	b.Env = env
	if p, known, d := check.String(s, a["path"], DefaultPath); known {
		diags = append(diags, d...)
		for _, dir := range filepath.SplitList(p) {
			if !filepath.IsAbs(dir) {
				diags = append(diags, check.Error("Relative PATH entry",
					fmt.Sprintf("path lists %q, which is not an absolute directory. Programs would be looked up relative to the working directory; list absolute directories only, separated by \":\".", dir),
					a["path"].Expr.Range()))
				break
			}
		}
		b.Path = p
	} else {
		diags = append(diags, d...)
	}
	b.Timeout, d = check.Duration(s, a["timeout"], DefaultTimeout)
	diags = append(diags, d...)
	b.MaxOutputBytes, d = check.Int(s, a["max_output_bytes"], DefaultMaxOutputBytes, 1)
	diags = append(diags, d...)
	n, d := check.Int(s, a["concurrency"], DefaultConcurrency, 1)
	diags = append(diags, d...)
	b.Concurrency = int(n)
	return b, diags
}

// staticDir reads a working directory, resolved against the config file,
// and checks that it exists.
func staticDir(s *adapter.Scope, attr *hcl.Attribute) (string, hcl.Diagnostics) {
	dir, known, diags := check.String(s, attr, "")
	if !known {
		return "", diags
	}
	dir = check.Path(attr, dir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		diags = append(diags, check.Error("Directory not found",
			fmt.Sprintf("dir names %s, which is not a directory. Relative paths are relative to the config file.", dir),
			attr.Expr.Range()))
	}
	return dir, diags
}

var envName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkEnvName(name string, r hcl.Range) *hcl.Diagnostic {
	if envName.MatchString(name) {
		return nil
	}
	return check.Error("Invalid environment variable name",
		fmt.Sprintf("%q is not a valid environment variable name: use letters, digits and _, not starting with a digit, as in LC_ALL.", name), r)
}
