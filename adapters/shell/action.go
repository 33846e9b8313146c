package shelladapter

import (
	"regexp"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

// Param is one entry of env written as an object: a static name and a
// value expression evaluated per call.
type Param = check.Item

// Action is a compiled `shell { ... }` block.
type Action struct {
	// Owner names the enclosing block, e.g. `tool "disk_usage"`.
	Owner string
	Range hcl.Range
	// Backend holds the shared settings: the named backend, or the defaults.
	Backend *Backend
	// BackendName is the backend attribute as written ("" for none).
	BackendName string
	// Argv holds one expression per argument, the program first. Each
	// evaluates to exactly one string.
	Argv []hcl.Expression
	// ArgvSource is Argv for listings: known values, or the source text.
	ArgvSource []string
	// Program is the first element as written; ProgramPath its absolute
	// path found at load time ("" when it was not looked up).
	Program, ProgramPath string
	Stdin                hcl.Expression
	// Dir is the working directory ("" for mcpdecl's own).
	Dir string
	// Env is added to PATH (from the backend) and the backend's env.
	Env []Param
	// EnvExpr is env written as one expression, and EnvNames the names
	// it may set, known at load time.
	EnvExpr  hcl.Expression
	EnvNames []string
	Timeout  time.Duration
	// MaxOutputBytes caps stdout and stderr each.
	MaxOutputBytes int64
	// Output is "text", "json" or "lines"; MimeType, when set, returns
	// stdout as binary content of that type.
	Output     string
	MimeType   string
	AllowShell bool
	// AllowOptions lets argument values start with "-" where the program
	// reads options; otherwise OptionGuards lists the argv elements that
	// start with a value of the call there, and a value starting with "-"
	// is refused.
	AllowOptions    bool
	OptionGuards    []int
	Concurrency     int
	ProgressPattern *regexp.Regexp

	semOnce sync.Once
	sem     chan struct{} // Concurrency slots, made on first use
	// summary names the call in traces and metrics (Summary).
	summary *adapter.CallSummary
}

var _ adapter.Action = (*Action)(nil)

// Describe returns the call's static settings; environment values are left
// out.
func (a *Action) Describe() map[string]any {
	argv := make([]any, len(a.ArgvSource))
	for i, s := range a.ArgvSource {
		argv[i] = s
	}
	d := map[string]any{
		"kind":             Kind,
		"command":          argv,
		"output":           a.Output,
		"timeout":          a.Timeout.String(),
		"max_output_bytes": a.MaxOutputBytes,
		"concurrency":      a.Concurrency,
		"allow_shell":      a.AllowShell,
		"allow_options":    a.AllowOptions,
	}
	if a.ProgramPath != "" {
		d["program"] = a.ProgramPath
	}
	if a.BackendName != "" {
		d["backend"] = a.BackendName
	}
	if a.Dir != "" {
		d["dir"] = a.Dir
	}
	if a.MimeType != "" {
		d["mime_type"] = a.MimeType
	}
	if a.ProgressPattern != nil {
		d["progress_pattern"] = a.ProgressPattern.String()
	}
	if len(a.Env) > 0 {
		names := make([]any, len(a.Env))
		for i, p := range a.Env {
			names[i] = p.Name
		}
		d["env"] = names
	} else if len(a.EnvNames) > 0 {
		d["env"] = anyList(a.EnvNames)
	}
	return d
}
