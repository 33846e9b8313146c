package eval

import (
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Static is the load-time part of every evaluation context: variables,
// locals and functions. It is immutable once built and shared by all calls.
type Static struct {
	Vars   map[string]cty.Value
	Locals map[string]cty.Value
	Env    *Env

	mu     sync.Mutex
	funcs  map[string]map[string]function.Function // by base directory
	byFile sync.Map                                // filename → the table of its directory, read without the lock

	sealed             bool
	varsObj, localsObj cty.Value
}

// Seal marks Vars and Locals as final, so every later context shares one
// object value of each instead of building it per evaluation.
func (s *Static) Seal() {
	s.varsObj = cty.ObjectVal(orEmpty(s.Vars))
	s.localsObj = cty.ObjectVal(orEmpty(s.Locals))
	s.sealed = true
}

// Functions returns the function table for expressions in the file named
// filename (file() is relative to that file's directory).
func (s *Static) Functions(filename string) map[string]function.Function {
	if fns, ok := s.byFile.Load(filename); ok {
		return fns.(map[string]function.Function)
	}
	fns := s.functionsOfDir(filepath.Dir(filename))
	s.byFile.Store(filename, fns)
	return fns
}

func (s *Static) functionsOfDir(dir string) map[string]function.Function {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.funcs == nil {
		s.funcs = map[string]map[string]function.Function{}
	}
	fns, ok := s.funcs[dir]
	if !ok {
		fns = Functions(dir, s.Env)
		s.funcs[dir] = fns
	}
	return fns
}

// Context returns an evaluation context for expr without args.
func (s *Static) Context(expr hcl.Expression) *hcl.EvalContext {
	return s.WithArgs(expr, cty.NilVal)
}

// WithArgs returns an evaluation context for expr in which args has the
// value args (an object, or an unknown value of the args type for type
// checking). cty.NilVal leaves args undefined.
func (s *Static) WithArgs(expr hcl.Expression, args cty.Value) *hcl.EvalContext {
	vars := make(map[string]cty.Value, 3)
	if s.sealed {
		vars["var"], vars["local"] = s.varsObj, s.localsObj
	} else {
		vars["var"], vars["local"] = cty.ObjectVal(orEmpty(s.Vars)), cty.ObjectVal(orEmpty(s.Locals))
	}
	if args != cty.NilVal {
		vars["args"] = args
	}
	return &hcl.EvalContext{Variables: vars, Functions: s.Functions(expr.Range().Filename)}
}

func orEmpty(m map[string]cty.Value) map[string]cty.Value {
	if m == nil {
		return map[string]cty.Value{}
	}
	return m
}

// borrowed holds evaluation contexts whose maps are kept between calls:
// a context for one expression costs a map and its storage otherwise.
var borrowed = sync.Pool{New: func() any { return &hcl.EvalContext{Variables: make(map[string]cty.Value, 4)} }}

// Borrow is WithArgs plus extra variables, in a context taken from a pool.
// The caller gives it back with Return once the value is computed, and
// keeps nothing that refers to it (a value computed in it does not).
func (s *Static) Borrow(expr hcl.Expression, args cty.Value, extra map[string]cty.Value) *hcl.EvalContext {
	ctx := borrowed.Get().(*hcl.EvalContext)
	vars := ctx.Variables
	if s.sealed {
		vars["var"], vars["local"] = s.varsObj, s.localsObj
	} else {
		vars["var"], vars["local"] = cty.ObjectVal(orEmpty(s.Vars)), cty.ObjectVal(orEmpty(s.Locals))
	}
	if args != cty.NilVal {
		vars["args"] = args
	}
	for k, v := range extra {
		vars[k] = v
	}
	ctx.Functions = s.Functions(expr.Range().Filename)
	return ctx
}

// Return gives back a context from Borrow.
func Return(ctx *hcl.EvalContext) {
	clear(ctx.Variables)
	ctx.Functions = nil
	borrowed.Put(ctx)
}
