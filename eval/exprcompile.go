package eval

import (
	"errors"
	"reflect"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/vm"
)

// compileExpr is expr.Compile with this package's options (the
// environment env, no now(), exact numbers, a bool result when asBool),
// on a compile configuration kept per environment and result. expr.Compile
// builds its configuration anew each time (the table of every builtin,
// the environment's fields), which was a quarter of compiling a tool with
// a few programs; the checker and compiler only read a configuration but
// for its cache of the environment's types, so one serves one compile at
// a time and is then put back.
func compileExpr(text string, env reflect.Type, asBool bool) (*vm.Program, error) {
	key := compileKey{env, asBool}
	p, ok := compileConfigs.Load(key)
	if !ok {
		p, _ = compileConfigs.LoadOrStore(key, &sync.Pool{New: func() any { return newCompileConfig(env, asBool) }})
	}
	pool := p.(*sync.Pool)
	config := pool.Get().(*conf.Config)
	defer pool.Put(config)

	// The steps of expr.Compile after its options are applied.
	tree, err := checker.ParseCheck(text, config)
	if err != nil {
		return nil, err
	}
	if config.Optimize {
		if err := optimizer.Optimize(&tree.Node, config); err != nil {
			var fileError *file.Error
			if errors.As(err, &fileError) {
				return nil, fileError.Bind(tree.Source)
			}
			return nil, err
		}
	}
	return compiler.Compile(tree, config)
}

type compileKey struct {
	env    reflect.Type
	asBool bool
}

// compileConfigs holds a pool of compile configurations per compileKey.
var compileConfigs sync.Map

// newCompileConfig is the configuration expr.Compile makes from the
// options compileExpr stands for.
func newCompileConfig(env reflect.Type, asBool bool) *conf.Config {
	opts := []expr.Option{expr.Env(reflect.New(env).Elem().Interface()), expr.DisableBuiltin("now")}
	opts = append(opts, numberOptions...)
	if asBool {
		opts = append(opts, expr.AsBool())
	}
	config := conf.CreateNew()
	for _, op := range opts {
		op(config)
	}
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()
	return config
}
