package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// Extra is the Extra of every diagnostic lint reports: its code. It is
// the Extra by which any diagnostic's maker may give it its code.
type Extra = diagcode.Extra

// CodeOf returns the code of a diagnostic: a lint finding's own, an
// error's class (see [diagcode.Of]), else CodeError or CodeWarning by
// severity, so every diagnostic of `mcpdecl validate` carries one.
func CodeOf(d *hcl.Diagnostic) string {
	if code := diagcode.Of(d); code != "" {
		return code
	}
	if d.Severity == hcl.DiagWarning {
		return CodeWarning
	}
	return CodeError
}

// IsGeneric reports whether code is one of the codes that say only the
// severity of a diagnostic (CodeError, CodeWarning).
func IsGeneric(code string) bool {
	return code == CodeError || code == CodeWarning
}

// Check runs every rule on a configuration and the table it compiled to
// (a table is only returned without errors). Findings are warnings; a
// malformed lint block is an error.
func Check(cfg *lang.Config, t *table.Table) hcl.Diagnostics {
	if cfg == nil || t == nil {
		return nil
	}
	c := newChecker(cfg, t)
	// The token rules encode the whole listing, the larger part of lint's
	// work on a big configuration; they read only what newChecker made,
	// so they run beside the other rules. Findings keep the rules' order.
	budgets := c.fork()
	done := make(chan struct{})
	go func() {
		defer close(done)
		budgets.checkTokenBudget()
		budgets.checkToolsetBudgets()
	}()
	c.checkDescriptions()
	c.checkNames()
	rest := c.fork()
	rest.checkWrites()
	rest.checkUnused()
	rest.checkApps()
	rest.checkAuth()
	<-done
	return append(append(c.diags, budgets.diags...), rest.diags...)
}

// fork is a checker over the same configuration with no findings yet.
func (c *checker) fork() *checker {
	f := *c
	f.diags = nil
	return &f
}

// checker holds what the rules share: the configuration, the table, each
// compiled item by its block, and the parsed lint blocks.
type checker struct {
	cfg   *lang.Config
	table *table.Table
	items *items
	// ignored maps each lint block to the codes it turns off.
	ignored map[*lang.Lint]map[string]bool
	server  []*lang.Lint
	budget  int
	diags   hcl.Diagnostics
}

func newChecker(cfg *lang.Config, t *table.Table) *checker {
	c := &checker{cfg: cfg, table: t, items: indexItems(t), ignored: map[*lang.Lint]map[string]bool{}, budget: DefaultTokenBudget}
	if cfg.Server != nil {
		c.server = cfg.Server.Lint
	}
	for _, l := range allLintBlocks(cfg) {
		c.ignored[l] = c.parseIgnore(l)
	}
	c.budget = c.parseBudget()
	return c
}

func allLintBlocks(cfg *lang.Config) []*lang.Lint {
	var out []*lang.Lint
	if cfg.Server != nil {
		out = append(out, cfg.Server.Lint...)
	}
	for _, b := range cfg.Backends {
		out = append(out, b.Lint...)
	}
	for _, t := range cfg.Tools {
		out = append(out, t.Lint...)
	}
	for _, r := range cfg.Resources {
		out = append(out, r.Lint...)
	}
	for _, t := range cfg.Templates {
		out = append(out, t.Lint...)
	}
	for _, p := range cfg.Prompts {
		out = append(out, p.Lint...)
	}
	for _, a := range cfg.Apps {
		out = append(out, a.Lint...)
	}
	return out
}

// report adds a finding of code at subject, unless the server's lint
// block or one of owners (the lint blocks of the block concerned) ignores
// it.
func (c *checker) report(code string, owners []*lang.Lint, subject hcl.Range, format string, args ...any) {
	for _, set := range [][]*lang.Lint{owners, c.server} {
		for _, l := range set {
			if c.ignored[l][code] {
				return
			}
		}
	}
	r, _ := RuleOf(code)
	c.diags = append(c.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  r.Short,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  subject.Ptr(),
		Extra:    &Extra{Code: code},
	})
}

func (c *checker) errorAt(subject hcl.Range, summary, detail string) {
	c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr()})
}
