package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// compileStatic evaluates server.allow_env, variables and locals, in that
// order: each may use the ones before it.
func (c *compiler) compileStatic() {
	env := &eval.Env{Allowed: c.allowedEnv(), Lookup: c.opts.LookupEnv, Unset: c.opts.UnsetEnv}
	c.static = &eval.Static{Env: env, Vars: map[string]cty.Value{}, Locals: map[string]cty.Value{}}
	c.table.Static = c.static
	for _, v := range c.cfg.Variables {
		c.names.Vars = append(c.names.Vars, v.Name)
	}
	for _, l := range c.cfg.Locals {
		c.names.Locals = append(c.names.Locals, l.Name)
	}
	for name := range c.opts.Vars {
		if !contains(c.names.Vars, name) {
			c.add(hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("A value was given for the variable %q, which the configuration does not declare.%s", name, rule.DidYouMean(name, validIdentifiers(c.names.Vars))),
			}})
		}
	}
	for _, v := range c.cfg.Variables {
		sensitive, _ := c.staticBool(v.Sensitive)
		c.static.Vars[v.Name] = c.variableValue(v, sensitive)
		if sensitive {
			c.table.Secrets = append(c.table.Secrets, SecretTexts(c.static.Vars[v.Name])...)
		}
	}
	c.compileLocals()
	c.static.Seal()
}

// validIdentifiers keeps the names a configuration accepts for variables,
// so that a suggestion never offers one refused where it is declared.
func validIdentifiers(names []string) []string {
	var out []string
	for _, n := range names {
		if hclsyntax.ValidIdentifier(n) {
			out = append(out, n)
		}
	}
	return out
}

// SecretTexts lists the texts of a sensitive value as they may appear in a
// message: each string, number or bool in it, written out.
func SecretTexts(v cty.Value) []string {
	if v == cty.NilVal || !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	v, _ = v.UnmarkDeep()
	ty := v.Type()
	if ty.IsPrimitiveType() {
		s, err := convert.Convert(v, cty.String)
		if err != nil || len(s.AsString()) < rule.MinSecretLen {
			return nil
		}
		return []string{s.AsString()}
	}
	if !ty.IsCollectionType() && !ty.IsObjectType() && !ty.IsTupleType() {
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, SecretTexts(e)...)
	}
	return out
}

// allowedEnv reads server.allow_env, which must be a literal list: it
// decides what env() may read, so it cannot itself depend on anything.
func (c *compiler) allowedEnv() []string {
	if c.cfg.Server == nil || c.cfg.Server.AllowEnv == nil {
		return nil
	}
	attr := c.cfg.Server.AllowEnv
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid allow_env", "allow_env must be a literal list of variable names, as in [\"API_TOKEN\"].")})
		return nil
	}
	list, err := convert.Convert(v, cty.List(cty.String))
	if err != nil || list.IsNull() {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid allow_env", "allow_env must be a list of variable names, as in [\"API_TOKEN\"].")})
		return nil
	}
	var out []string
	for _, e := range list.AsValueSlice() {
		out = append(out, e.AsString())
	}
	return out
}

// variableValue is the variable's value; a sensitive one is never quoted
// in diagnostics.
func (c *compiler) variableValue(v *lang.Variable, sensitive bool) cty.Value {
	ty := cty.DynamicPseudoType
	integer := false
	if v.Type != nil {
		t, d := lang.ParseType(v.Type.Expr)
		c.add(d)
		if t != nil {
			ty, integer = t.CtyType(), t.Kind == lang.KindInteger
		}
	}
	var val cty.Value
	if raw, ok := c.opts.Vars[v.Name]; ok {
		val = c.parseVarValue(v, raw, ty, sensitive)
	} else if raw, ok := c.lookupEnv("MCPDECL_VAR_" + v.Name); ok {
		val = c.parseVarValue(v, raw, ty, sensitive)
	} else if v.Default != nil {
		val = c.variableDefault(v, ty)
	}
	if val != cty.NilVal {
		if integer && val.IsKnown() && !val.IsNull() && !val.AsBigFloat().IsInt() {
			shown := val.AsBigFloat().Text('f', -1)
			if sensitive {
				shown = "(not shown: the variable is sensitive)"
			}
			c.add(hcl.Diagnostics{errorf(v.NameRange, "Invalid value for variable", "The variable %q is an integer, but its value %s is not a whole number.", v.Name, shown)})
		}
		return val
	}
	if c.opts.LookupEnv == nil {
		return cty.UnknownVal(ty) // validation: any value will do
	}
	c.add(hcl.Diagnostics{errorf(v.NameRange, "No value for required variable",
		"The variable %q has no default and no value was given. Pass --var %s=<value> or set MCPDECL_VAR_%s.", v.Name, v.Name, v.Name)})
	return cty.UnknownVal(ty)
}

func (c *compiler) lookupEnv(name string) (string, bool) {
	if c.opts.LookupEnv == nil {
		return "", false
	}
	return c.opts.LookupEnv(name)
}

func (c *compiler) variableDefault(v *lang.Variable, ty cty.Type) cty.Value {
	if len(v.Default.Expr.Variables()) > 0 {
		c.add(hcl.Diagnostics{errorf(v.Default.Expr.Range(), "Variables not allowed",
			"A variable's default cannot refer to other values; use a local value for derived values.")})
		return cty.UnknownVal(ty)
	}
	val, d := v.Default.Expr.Value(&hcl.EvalContext{Functions: c.static.Functions(v.Default.Expr.Range().Filename)})
	c.add(d)
	out, err := convert.Convert(val, ty)
	if err != nil {
		c.add(hcl.Diagnostics{errorf(v.Default.Expr.Range(), "Invalid default value for variable",
			"The default of %q does not match its type: %s.", v.Name, err)})
		return cty.UnknownVal(ty)
	}
	return out
}

func (c *compiler) parseVarValue(v *lang.Variable, raw string, ty cty.Type, sensitive bool) cty.Value {
	if ty == cty.String || ty == cty.DynamicPseudoType {
		return cty.StringVal(raw)
	}
	expr, d := hclsyntax.ParseExpression([]byte(raw), "var."+v.Name, hcl.InitialPos)
	if !d.HasErrors() {
		var val cty.Value
		val, d = expr.Value(nil)
		if !d.HasErrors() {
			if out, err := convert.Convert(val, ty); err == nil {
				return out
			}
		}
	}
	shown := strconv.Quote(raw)
	if sensitive {
		shown = "not shown: the variable is sensitive"
	}
	c.add(hcl.Diagnostics{errorf(v.NameRange, "Invalid value for variable",
		"The value given for %q (%s) is not a valid %s.", v.Name, shown, ty.FriendlyName())})
	return cty.UnknownVal(ty)
}

// compileLocals evaluates locals in dependency order and reports cycles.
func (c *compiler) compileLocals() {
	pending := map[string]*hcl.Attribute{}
	for _, l := range c.cfg.Locals {
		pending[l.Name] = l
	}
	for len(pending) > 0 {
		progress := false
		for _, l := range c.cfg.Locals {
			if pending[l.Name] == nil || !c.localReady(l, pending) {
				continue
			}
			delete(pending, l.Name)
			progress = true
			names := c.names
			d := eval.CheckRefs(l.Expr, &names)
			c.add(d)
			if d.HasErrors() {
				c.static.Locals[l.Name] = cty.DynamicVal
				continue
			}
			val, d := l.Expr.Value(c.static.Context(l.Expr))
			c.add(d)
			c.static.Locals[l.Name] = val
		}
		if !progress {
			c.reportCycle(pending)
			return
		}
	}
}

func (c *compiler) localReady(l *hcl.Attribute, pending map[string]*hcl.Attribute) bool {
	return len(pendingRefs(l, pending)) == 0
}

// pendingRefs lists the local values not yet evaluated that l refers to.
func pendingRefs(l *hcl.Attribute, pending map[string]*hcl.Attribute) []string {
	var out []string
	for _, tr := range l.Expr.Variables() {
		if tr.RootName() != "local" || len(tr) < 2 {
			continue
		}
		if step, ok := tr[1].(hcl.TraverseAttr); ok && pending[step.Name] != nil {
			out = append(out, step.Name)
		}
	}
	return out
}

// reportCycle reports each loop among the pending local values once, at
// its first member in file order. A local that only uses a loop is not
// part of it and gets no message of its own.
func (c *compiler) reportCycle(pending map[string]*hcl.Attribute) {
	edges := map[string][]string{}
	for name, l := range pending {
		edges[name] = pendingRefs(l, pending)
	}
	reported := map[string]bool{}
	for _, l := range c.cfg.Locals {
		if pending[l.Name] == nil {
			continue
		}
		c.static.Locals[l.Name] = cty.DynamicVal
		if reported[l.Name] || !reaches(edges, l.Name, l.Name) {
			continue
		}
		var members []string
		for _, m := range c.cfg.Locals {
			if pending[m.Name] != nil && reaches(edges, l.Name, m.Name) && reaches(edges, m.Name, l.Name) {
				members = append(members, "local."+m.Name)
				reported[m.Name] = true
			}
		}
		detail := fmt.Sprintf("These local values refer to each other in a loop: %s. Break the loop by computing one of them without the others.", strings.Join(members, ", "))
		if len(members) == 1 {
			detail = fmt.Sprintf("%s refers to itself. Compute it from other values.", members[0])
		}
		c.add(hcl.Diagnostics{errorf(l.NameRange, "Cycle in local values", "%s", detail)})
	}
}

// reaches reports whether a path of one step or more leads from one local
// to another.
func reaches(edges map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	stack := append([]string(nil), edges[from]...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if !seen[n] {
			seen[n] = true
			stack = append(stack, edges[n]...)
		}
	}
	return false
}

func (c *compiler) compileServer() {
	s := c.cfg.Server
	out := &Server{Name: defaultServerName(), Version: "0.0.0"}
	c.table.Server = out
	out.CacheScope = c.defaultCacheScope()
	if s == nil {
		return
	}
	if scope := c.cacheScopeAttr(s.CacheScope); scope != "" {
		out.CacheScope = scope
	}
	if n := c.staticString(s.Name); n != "" {
		out.Name = n
	}
	if v := c.staticString(s.Version); v != "" {
		out.Version = v
	}
	out.Title = c.staticString(s.Title)
	out.Description = c.staticString(s.Description)
	out.Instructions = c.staticString(s.Instructions)
	out.WebsiteURL = c.staticString(s.WebsiteURL)
	out.Icons = c.compileIcons(s.Icons)
}

func defaultServerName() string {
	return "mcpdecl"
}
