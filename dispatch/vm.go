package dispatch

import (
	"sync"

	"github.com/expr-lang/expr/vm"
)

// vms keeps expr-lang machines for reuse: a fresh one grows its stack and
// scopes again on every run, a reused one keeps them.
var vms = sync.Pool{New: func() any { return new(vm.VM) }}

// runProgram runs a compiled expression on env.
func runProgram(p *vm.Program, env any) (any, error) {
	m := vms.Get().(*vm.VM)
	v, err := m.Run(p, env)
	vms.Put(m)
	return v, err
}
