package shelladapter

import (
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Outputs lists how stdout may be read.
var Outputs = []string{"text", "json", "lines"}

// Shells are programs that parse their -c argument as a shell script.
var Shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"}

func compileCall(c *adapter.CallBlock) (*Action, hcl.Diagnostics) {
	s := c.Scope
	content, diags := c.Body.Content(CallSchema)
	a := content.Attributes
	var d hcl.Diagnostics

	act := &Action{Owner: c.Owner, Range: c.DeclRange, Output: "text"}
	b, ok := c.Backend.(*Backend)
	resolved := ok // whether b holds the settings of the backend the call uses
	if !ok {
		b = DefaultBackend()
	}
	if name, known, d := check.String(s, a["backend"], ""); known {
		diags = append(diags, d...)
		act.BackendName = name
		// The backend is looked up by dispatch; when it did not hand one
		// over, the call's PATH is unknown here.
		resolved = resolved && b.Name == name
	} else {
		diags = append(diags, d...)
	}
	act.Backend = b

	act.Timeout, d = check.Duration(s, a["timeout"], b.Timeout)
	diags = append(diags, d...)
	act.MaxOutputBytes, d = check.Int(s, a["max_output_bytes"], b.MaxOutputBytes, 1)
	diags = append(diags, d...)
	n, d := check.Int(s, a["concurrency"], int64(b.Concurrency), 1)
	diags = append(diags, d...)
	act.Concurrency = int(n)
	act.Dir = b.Dir
	if a["dir"] != nil {
		act.Dir, d = staticDir(s, a["dir"])
		diags = append(diags, d...)
	}
	act.AllowShell, _, d = check.Bool(s, a["allow_shell"], false)
	diags = append(diags, d...)
	act.AllowOptions, _, d = check.Bool(s, a["allow_options"], false)
	diags = append(diags, d...)

	if attr := a["stdin"]; attr != nil {
		act.Stdin = attr.Expr
		diags = append(diags, check.DynamicString(s, attr.Expr, attr, "stdin")...)
	}
	act.Env, act.EnvExpr, act.EnvNames, d = compileEnv(s, a["env"], act.AllowShell)
	diags = append(diags, d...)

	if out, known, d := check.String(s, a["output"], "text"); known {
		diags = append(diags, d...)
		if !slices.Contains(Outputs, out) {
			diags = append(diags, check.Error("Invalid output format",
				fmt.Sprintf("output must be %s, not %q.%s", check.Quoted(Outputs), out, rule.DidYouMean(out, Outputs)),
				a["output"].Expr.Range()))
		} else {
			act.Output = out
		}
	} else {
		diags = append(diags, d...)
	}
	if mt, known, d := check.String(s, a["mime_type"], ""); known {
		diags = append(diags, d...)
		if _, _, err := mime.ParseMediaType(mt); err != nil {
			diags = append(diags, check.Error("Invalid MIME type",
				fmt.Sprintf("%q is not a media type; write one such as \"image/png\" or \"text/csv\".", mt), a["mime_type"].Expr.Range()))
		}
		act.MimeType = mt
		if act.Output != "text" {
			diags = append(diags, check.Error("Conflicting output settings",
				fmt.Sprintf("mime_type returns stdout as it is (for example an image), but output = %q parses it. Keep one of them.", act.Output),
				a["mime_type"].NameRange))
		}
	} else {
		diags = append(diags, d...)
	}
	if pat, known, d := check.String(s, a["progress_pattern"], ""); known {
		diags = append(diags, d...)
		re, err := regexp.Compile(pat)
		switch {
		case err != nil:
			diags = append(diags, check.Error("Invalid progress pattern",
				fmt.Sprintf("progress_pattern is not a valid regular expression: %s.", err), a["progress_pattern"].Expr.Range()))
		case re.NumSubexp() < 1 || re.NumSubexp() > 2:
			diags = append(diags, check.Error("Invalid progress pattern",
				fmt.Sprintf("progress_pattern must have one group (the progress) or two (progress and total), as in \"(\\\\d+)/(\\\\d+)\"; it has %d.", re.NumSubexp()),
				a["progress_pattern"].Expr.Range()))
		default:
			act.ProgressPattern = re
		}
	} else {
		diags = append(diags, d...)
	}

	if attr := a["command"]; attr != nil {
		path := b.Path
		if !resolved && act.BackendName != "" {
			path = "" // the named backend's PATH is not known here: skip the lookup
		}
		diags = append(diags, compileCommand(s, attr, act, path)...)
	}
	act.summary = act.summarize()
	return act, diags
}

// compileCommand checks the argv list and resolves the program.
func compileCommand(s *adapter.Scope, attr *hcl.Attribute, act *Action, path string) hcl.Diagnostics {
	elems, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return hcl.Diagnostics{check.Error("Command is not a list",
			"command must be a list written out, one element per argument, as in [\"du\", \"-sh\", \"/srv/${args.dir}\"]. A computed list, such as split(\" \", args.x), could turn one value into several arguments.",
			attr.Expr.Range())}
	}
	if len(elems) == 0 {
		return hcl.Diagnostics{check.Error("Empty command",
			"command needs at least the program to run, as in [\"du\", \"-sh\", \"/srv\"].", attr.Expr.Range())}
	}
	act.Argv = elems
	// literal[i] is the value of element i when it is known at load time.
	literal := make([]*string, len(elems))
	act.ArgvSource = make([]string, len(elems))
	for i, e := range elems {
		parts, d := eval.Parts(e, s.Files)
		diags = append(diags, d...)
		// Listings show plain text as it is and anything computed as its
		// source, so that a secret read with env() is never shown.
		act.ArgvSource[i] = check.Source(e.Range(), s.Files)
		if len(parts) == 1 && parts[0].Expr == nil {
			act.ArgvSource[i] = parts[0].Literal
		}
		if d.HasErrors() {
			continue
		}
		v, d := s.CheckExpr(e, attr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if !check.IsPrimitive(v.Type()) {
			diags = append(diags, check.Error("Invalid argument value",
				fmt.Sprintf("Each element of command is exactly one argument: a string, number or bool. This one is %s; write one element per argument.", v.Type().FriendlyName()),
				e.Range()))
			continue
		}
		if v.IsKnown() && !v.IsNull() {
			if str, err := eval.PartString(v); err == nil {
				literal[i] = &str
			}
		}
	}

	prog := elems[0]
	switch {
	case refersToRuntime(s, prog):
		diags = append(diags, check.Error("Interpolated program name",
			"The program to run must be fixed in the config, not taken from the arguments. Write its name or path literally and pass values as later elements.",
			prog.Range()))
	case literal[0] != nil:
		act.Program = *literal[0]
		if d := resolveProgram(act, prog.Range(), path); d != nil {
			diags = append(diags, d)
		}
	}

	if !act.AllowShell {
		diags = append(diags, checkInterpreters(s, elems, literal)...)
	}
	if !act.AllowShell {
		diags = append(diags, checkScripts(s, elems, literal, act.Stdin)...)
		diags = append(diags, notReported(diags, checkRunners(s, elems, literal, act.Stdin, act.AllowOptions))...)
	}
	if !diags.HasErrors() && !act.AllowOptions {
		var d hcl.Diagnostics
		act.OptionGuards, d = optionGuards(s, elems, literal)
		diags = append(diags, d...)
		diags = append(diags, xargsOptions(s, literal, act.Stdin)...)
	}
	return diags
}

// notReported drops the errors of more that repeat one of diags about the
// same element: the interpreters' own checks say it with better advice.
func notReported(diags, more hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range more {
		if !slices.ContainsFunc(diags, func(e *hcl.Diagnostic) bool {
			return e.Severity == hcl.DiagError && e.Subject != nil && d.Subject != nil && *e.Subject == *d.Subject
		}) {
			out = append(out, d)
		}
	}
	return out
}

// isCommandFlag reports a shell option cluster holding c: -c, -ec, -xc.
func isCommandFlag(s string) bool {
	return len(s) >= 2 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s[1:], 'c') &&
		strings.Trim(s[1:], "abcefhiklmnprstuvxBCEHPT") == ""
}

// refersToRuntime reports whether e uses a value of the call: the
// arguments, or another root the scope adds (such as answers).
func refersToRuntime(s *adapter.Scope, e hcl.Expression) bool {
	for _, tr := range e.Variables() {
		root := tr.RootName()
		if _, extra := s.Extra[root]; root == "args" || extra {
			return true
		}
	}
	return false
}

// resolveProgram checks the program exists and records its absolute path.
// A name without "/" is looked up in path ("" skips the lookup).
func resolveProgram(act *Action, r hcl.Range, path string) *hcl.Diagnostic {
	prog := act.Program
	switch {
	case prog == "":
		return check.Error("Empty program name", "The first element of command names the program to run; it cannot be empty.", r)
	case filepath.IsAbs(prog):
		st, err := os.Stat(prog)
		if err != nil {
			return check.Error("Program not found",
				fmt.Sprintf("%s does not exist. Check the path, or give the program's name alone to look it up in PATH.", prog), r)
		}
		if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
			return check.Error("Program not executable",
				fmt.Sprintf("%s is not an executable file. Check the path, or make it executable (chmod +x).", prog), r)
		}
		act.ProgramPath = prog
	case strings.Contains(prog, "/"):
		return check.Warning("Relative program path",
			fmt.Sprintf("%s is relative, so it is found from the working directory when the call runs, which may not be what you expect. Use an absolute path, or a program name looked up in PATH.", prog), r)
	case path != "":
		p, ok := lookPath(prog, path)
		if !ok {
			return check.Error("Program not found",
				fmt.Sprintf("No executable named %q was found in the PATH searched (%s). Install it, give its absolute path, or set path in a backend \"shell\" block.", prog, path), r)
		}
		act.ProgramPath = p
	}
	return nil
}

// lookPath finds an executable named name in the absolute directories of
// path, as exec.LookPath does with $PATH.
func lookPath(name, path string) (string, bool) {
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}
