package table

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// Options control compilation.
type Options struct {
	// Vars sets variables by name, as written on the command line: strings
	// for string variables, HCL expressions for the others.
	Vars map[string]string
	// LookupEnv reads environment variables for env(). When nil, env()
	// values stay unknown and variables without a value are accepted:
	// that is validation, with no I/O.
	LookupEnv func(string) (string, bool)
	// UnsetEnv gives env() a value for a variable that LookupEnv does not
	// find and that has no default; `mcpdecl test` gives a placeholder.
	// When nil such an env() is an error, as when serving.
	UnsetEnv func(string) (string, bool)
	// Slim makes each tool of the configuration slim once compiled
	// (lang.Tool.Slim), for a caller that compiles it once and afterwards
	// reads of it only what lint reads: a big configuration's compile
	// then holds its decoded form and its table together only in part.
	// The configuration cannot be compiled again.
	Slim bool
}

// compiler holds the state of one Compile run.
type compiler struct {
	cfg    *lang.Config
	reg    *adapter.Registry
	opts   Options
	static *eval.Static
	names  eval.Names // vars and locals; Args nil
	table  *Table
	diags  hcl.Diagnostics

	backends map[string]*lang.Backend
	// auth is what the auth block declares, for the primitives.
	auth *authState
	// uris are the URIs of the resources and apps compiled so far, with
	// where each was declared.
	uris map[string]hcl.Range
	// pendingHeaders holds the x-mcp-header mapping of the tool being
	// compiled, found while reading its input_schema.
	pendingHeaders map[string]string
	// memo is what the items compiled at once share.
	memo *compileMemo
	// constScope is staticScope's, once compileStatic has declared the
	// variables and locals (nil before).
	constScope *adapter.Scope
}

// Compile turns cfg into a table. Every problem is reported; the
// table is nil when there are errors.
func Compile(cfg *lang.Config, reg *adapter.Registry, opts Options) (*Table, hcl.Diagnostics) {
	k := Begin(cfg, reg, opts)
	k.c.compileTools(cfg.Tools)
	return k.End()
}

// Compiler compiles a configuration whose tools come in batches, as
// lang.Stream reads a big file: Begin compiles what the tools need (the
// variables, locals, server, auth and backends), Tools each batch, End the
// rest. Compile is the three at once.
type Compiler struct{ c *compiler }

// Begin starts compiling cfg, whose tools may come later (Tools).
func Begin(cfg *lang.Config, reg *adapter.Registry, opts Options) *Compiler {
	c := &compiler{cfg: cfg, reg: reg, opts: opts, table: &Table{Backends: map[string]adapter.Backend{}}, uris: map[string]hcl.Range{},
		memo: &compileMemo{defaultChecks: map[string]string{}}}
	c.compileStatic()
	c.constScope = c.scope(nil, "")
	c.compileServer()
	c.compileAuth()
	c.compileBackends()
	return &Compiler{c}
}

// Tools compiles tools that the configuration has just had appended to
// its Tools, after those compiled before.
func (k *Compiler) Tools(ts []*lang.Tool) { k.c.compileTools(ts) }

// End compiles the rest of the configuration and returns the table, nil
// when there are errors, and every problem found.
func (k *Compiler) End() (*Table, hcl.Diagnostics) {
	c := k.c
	c.compileResources()
	c.compileApps()
	c.compileToolUIs()
	c.compileTemplates()
	c.compilePrompts()
	c.compileToolsets()
	c.compileLimits()
	c.checkAuthUse()
	c.table.Secrets = rule.LongestFirst(c.table.Secrets)
	c.diags = RedactDiagnostics(c.diags, c.table.Secrets)
	if c.diags.HasErrors() {
		return nil, c.diags
	}
	return c.table, c.diags
}

// RedactDiagnostics replaces the texts of sensitive variables in the
// summary and detail of each diagnostic: whatever produced a message (an
// adapter quoting a DSN, a function quoting its argument), a sensitive
// value is not printed.
func RedactDiagnostics(diags hcl.Diagnostics, secrets []string) hcl.Diagnostics {
	if len(secrets) == 0 {
		return diags
	}
	for _, d := range diags {
		d.Summary, d.Detail = rule.Redact(d.Summary, secrets), rule.Redact(d.Detail, secrets)
	}
	return diags
}

func (c *compiler) add(d hcl.Diagnostics) { c.diags = append(c.diags, d...) }

// scope returns the load-time scope for a block with the given arguments
// (nil: no args available).
func (c *compiler) scope(args *Args, where string) *adapter.Scope {
	names := c.names
	s := &adapter.Scope{Names: &names, Static: c.static, Files: c.cfg.Files, ArgsType: cty.NilType}
	if args != nil {
		names.Args = make([]string, 0, len(args.List))
		s.MayBeNull = map[string]bool{}
		s.NoLeadingDash = map[string]bool{}
		props, _ := args.Schema["properties"].(map[string]any)
		for _, a := range args.List {
			names.Args = append(names.Args, a.Name)
			if !a.Required && a.Default == cty.NilVal {
				s.MayBeNull[a.Name] = true
			}
			if prop, ok := props[a.Name].(map[string]any); ok && noLeadingDash(prop) {
				s.NoLeadingDash[a.Name] = true
			}
		}
		names.ArgsWhere = where
		s.ArgsType = args.Type
		s.ArgsEnv = args.Env
	}
	return s
}

// staticScope is the scope of an attribute that reads no arguments, for
// evaluating it with StaticValue (which changes nothing in it): one for
// the whole compile rather than one per attribute, which was a tenth of a
// big config's compile allocations.
func (c *compiler) staticScope() *adapter.Scope {
	if c.constScope != nil {
		return c.constScope
	}
	return c.scope(nil, "")
}

// leadingClass is a pattern's start that no value beginning with "-" can
// match: an anchored class of letters and digits, or \d / \w.
var leadingClass = lazyregexp.New(`^\^(\\[dw]|\[(?:[A-Za-z0-9_.]|[A-Za-z0-9]-[A-Za-z0-9]|\\[dw])+\])`)

// noLeadingDash reports whether an argument's schema rules out a value
// that starts with "-": every enum value, its pattern's start, or for a
// number a minimum of 0 or more.
func noLeadingDash(prop map[string]any) bool {
	for _, k := range []string{"minimum", "exclusiveMinimum"} {
		if n, ok := prop[k].(json.Number); ok && !strings.HasPrefix(string(n), "-") {
			return true
		}
	}
	if enum, ok := prop["enum"].([]any); ok && len(enum) > 0 {
		for _, v := range enum {
			if s, ok := v.(string); !ok || strings.HasPrefix(s, "-") {
				return false
			}
		}
		return true
	}
	pattern, _ := prop["pattern"].(string)
	return leadingClass.MatchString(pattern)
}

// staticString evaluates an optional static string attribute.
func (c *compiler) staticString(attr *hcl.Attribute) string {
	if attr == nil {
		return ""
	}
	v, d := c.staticScope().StaticValue(attr, cty.String)
	c.add(d)
	if d.HasErrors() || v.IsNull() || !v.IsKnown() {
		return ""
	}
	return v.AsString()
}

// staticValue evaluates an optional static attribute of the given type;
// it returns cty.NilVal when absent or invalid.
func (c *compiler) staticValue(attr *hcl.Attribute, ty cty.Type) cty.Value {
	if attr == nil {
		return cty.NilVal
	}
	v, d := c.staticScope().StaticValue(attr, ty)
	c.add(d)
	if d.HasErrors() {
		return cty.NilVal
	}
	return v
}

func (c *compiler) staticBool(attr *hcl.Attribute) (value, set bool) {
	v := c.staticValue(attr, cty.Bool)
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
		return false, false
	}
	return v.True(), true
}

func errorf(subject hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: subject.Ptr()}
}

// suggestLabel records on d that the name a "Did you mean" of its detail
// offers replaces the label at r, quoted as labels (and JSON keys) are;
// none when name is "". It returns d.
func suggestLabel(d *hcl.Diagnostic, name string, r hcl.Range) *hcl.Diagnostic {
	if name == "" {
		return d
	}
	return diagcode.Suggest(d, strconv.Quote(name), r)
}

// suggestElement records on d that the name a "Did you mean" of its
// detail offers replaces element i of attr's list, when that element is
// a string written as such (no template, no reference); none when name
// is "". It returns d.
func suggestElement(d *hcl.Diagnostic, name string, attr *hcl.Attribute, i int) *hcl.Diagnostic {
	exprs, diags := hcl.ExprList(attr.Expr)
	if name == "" || diags.HasErrors() || i >= len(exprs) || len(eval.Variables(exprs[i])) > 0 {
		return d
	}
	switch e := exprs[i].(type) {
	case *hclsyntax.TemplateExpr:
		if !e.IsStringLiteral() {
			return d
		}
	case hclsyntax.Expression:
		return d // a native expression that is no string
	}
	return diagcode.Suggest(d, strconv.Quote(name), exprs[i].Range())
}

func warnf(subject hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: subject.Ptr()}
}
