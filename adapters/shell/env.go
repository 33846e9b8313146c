package shelladapter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

// compileEnv reads a call's env. The environment is an allow-list by
// construction: every variable name is known at load time, from the
// config, and only values are computed per call. A map whose names are
// only known when called (env = args.vars) could set GIT_CONFIG_*,
// LD_PRELOAD or TAR_OPTIONS from a caller's value and run other code, so it
// is refused here rather than filtered by a list of bad names when called.
//
// Written as an object, each entry is an Item. Written as another
// expression, its names must follow from its type (an object type, as
// merge({ A = ... }, { B = args.b }) has) or from its value at load time
// (a map of the config's variables); the names are returned with the
// expression, evaluated whole per call.
func compileEnv(s *adapter.Scope, attr *hcl.Attribute, allowShell bool) (items []Param, whole hcl.Expression, names []string, diags hcl.Diagnostics) {
	if attr == nil {
		return nil, nil, nil, nil
	}
	if _, ok := attr.Expr.(*hclsyntax.ObjectConsExpr); ok {
		items, _, diags = check.DynamicMap(s, attr, func(it check.Item, v cty.Value) hcl.Diagnostics {
			var diags hcl.Diagnostics
			if d := checkEnvName(it.Name, it.NameRange); d != nil {
				diags = append(diags, d)
			}
			if !check.IsPrimitive(v.Type()) {
				diags = append(diags, check.Error("Invalid value type",
					fmt.Sprintf("The environment variable %s must be a string, number or bool; this value is %s.", it.Name, v.Type().FriendlyName()),
					it.Expr.Range()))
			}
			if d := riskyFromRuntime(s, it.Name, it.Expr, it.NameRange, allowShell); d != nil {
				diags = append(diags, d)
			}
			return diags
		})
		return items, nil, nil, diags
	}

	v, diags := s.CheckDynamic(attr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, nil, nil, diags
	}
	names, ok := check.FixedNames(v)
	if !ok {
		return nil, nil, nil, append(diags, check.Error("Computed environment names",
			fmt.Sprintf("The names of env must be written in the config, so that a call can only set the variables listed; this map's names are only known when called, so a caller could set any variable (GIT_CONFIG_*, LD_PRELOAD, TAR_OPTIONS ...) and make the command run other code. Write each variable out, with its value taken from the arguments: env = { NAME = args.x }. The value here is %s.", v.Type().FriendlyName()),
			attr.Expr.Range()))
	}
	for _, name := range names {
		if d := checkEnvName(name, attr.Expr.Range()); d != nil {
			diags = append(diags, d)
		}
		if d := riskyFromRuntime(s, name, attr.Expr, attr.Expr.Range(), allowShell); d != nil {
			diags = append(diags, d)
		}
	}
	return nil, attr.Expr, names, diags
}

// riskyEnv lists variables that change which code a program loads or
// runs: the dynamic loader's, shells' startup files, interpreters' options
// and module paths, and the options programs such as git and tar read from
// their environment.
var riskyEnv = []string{
	"PATH", "IFS", "ENV", "BASH_ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "CDPATH", "ZDOTDIR",
	"GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES", "RESOLV_HOST_CONF", "GLIBC_TUNABLES",
	"HOME", "XDG_CONFIG_HOME", "TMPDIR",
	"PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS", "NODE_PATH",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
	"TAR_OPTIONS", "GZIP", "XZ_OPT", "ZSTD_CLEVEL", "GREP_OPTIONS", "LESSOPEN", "LESSCLOSE",
	"PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS", "SUDO_ASKPASS", "BROWSER", "CURL_HOME", "WGETRC",
}

var riskyPrefixes = []string{"LD_", "DYLD_", "MALLOC_", "BASH_FUNC_", "PYTHON", "GIT_"}

func riskyEnvName(name string) bool {
	u := strings.ToUpper(name)
	return slices.Contains(riskyEnv, u) || slices.ContainsFunc(riskyPrefixes, func(p string) bool { return strings.HasPrefix(u, p) })
}

// riskyFromRuntime refuses a variable that decides what code runs taking
// its value from a call: the name is the config's, but the value would
// still let a caller choose a library to preload or a command to run.
// With allow_shell = true the author has accepted that a caller runs
// code, and it stays a warning.
func riskyFromRuntime(s *adapter.Scope, name string, e hcl.Expression, r hcl.Range, allowShell bool) *hcl.Diagnostic {
	if !riskyEnvName(name) || !refersToRuntime(s, e) {
		return nil
	}
	const summary = "Environment variable that runs code set from a call"
	if allowShell {
		return check.Warning(summary,
			fmt.Sprintf("%s changes which code the command loads or runs, and its value here comes from the arguments; with allow_shell = true a caller may make the command run other code.", name),
			r)
	}
	return check.Error(summary,
		fmt.Sprintf("%s changes which code the command loads or runs, and its value here comes from the arguments, so a caller could make the command run other code. Give it a fixed value in the config; if callers are trusted to run code, set allow_shell = true.", name),
		r)
}
