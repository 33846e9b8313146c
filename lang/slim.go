package lang

// Slim lets go of what only a compile reads of the tool: the bodies of its
// calls (and its steps' calls), and what its arguments say beyond their
// descriptions (types, constraints, defaults, checks). What is read of a
// compiled configuration stays: names, ranges, descriptions, annotations,
// lint, ui and task blocks, and the references Load recorded. A caller
// that compiles a configuration once (serving it, validating it) has
// table.Options.Slim make each tool slim once compiled: for a big
// configuration that is a third of what its decoded form holds, let go
// while the rest compiles.
func (t *Tool) Slim() {
	for _, a := range t.Args {
		a.makeSlim()
	}
	t.Validations = nil
	slimCall(t.Call)
	slimCalls(t.HTTP, t.SQL, t.Shell, t.MCP)
	for _, s := range t.Steps {
		slimCall(s.Call)
		slimCalls(s.HTTP, s.SQL, s.Shell, s.MCP)
		s.Rest = nil
	}
}

func (a *Arg) makeSlim() {
	if a.Spec != nil {
		a.slimDescription, a.Spec, a.slim = a.Spec.Description, nil, true
	}
}

func slimCall(c *Call) {
	if c != nil {
		c.Body = nil
	}
}

func slimCalls(http, sql []*labeledCall, shell []*shellCall, mcp []*labeledCall) {
	for _, list := range [][]*labeledCall{http, sql, mcp} {
		for _, c := range list {
			c.Body = nil
		}
	}
	for _, c := range shell {
		c.Body = nil
	}
}
