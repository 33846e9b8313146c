// Package shelladapter compiles `backend "shell"` blocks and `shell { ... }`
// call blocks.
//
// A call runs one program with an argv list: each element of command is one
// argument, never split or parsed by a shell, so an argument value cannot
// become a second command. The environment is explicit (nothing is
// inherited unless listed), output is capped, and a timeout kills the
// process group. An optional backend block holds settings shared by calls.
//
// Compiling (schemas, checks, the [Backend] and [Action] values) does no
// I/O beyond looking programs and directories up; [Action.Invoke] runs the
// command.
package shelladapter

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Kind is the block type this adapter serves.
const Kind = "shell"

// Adapter is the shell adapter. The zero value is ready to use.
type Adapter struct{}

// New returns the shell adapter.
func New() *Adapter { return &Adapter{} }

var _ adapter.Adapter = (*Adapter)(nil)

// Info describes the adapter.
func (*Adapter) Info() adapter.Info {
	return adapter.Info{
		Name:    Kind,
		Summary: "Runs a program with an argument list, without a shell.",
		ResultEnv: []eval.EnvField{
			{Name: "exit_code", Type: reflect.TypeFor[int]()},
			{Name: "stdout", Type: reflect.TypeFor[string]()},
			{Name: "stderr", Type: reflect.TypeFor[string]()},
			{Name: "json", Type: eval.AnyType},
			{Name: "lines", Type: reflect.TypeFor[[]string]()},
		},
	}
}

// BackendSchema is the body schema of a `backend "shell"` block.
var BackendSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "dir"},
		{Name: "env"},
		{Name: "path"},
		{Name: "timeout"},
		{Name: "max_output_bytes"},
		{Name: "concurrency"},
	},
}

// CallSchema is the body schema of a `shell { ... }` block.
var CallSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command", Required: true},
		{Name: "stdin"},
		{Name: "dir"},
		{Name: "env"},
		{Name: "timeout"},
		{Name: "max_output_bytes"},
		{Name: "output"},
		{Name: "mime_type"},
		{Name: "allow_shell"},
		{Name: "allow_options"},
		{Name: "concurrency"},
		{Name: "progress_pattern"},
		{Name: "backend"},
	},
}

// CompileBackend checks a `backend "shell"` block.
func (*Adapter) CompileBackend(b *adapter.BackendBlock) (adapter.Backend, hcl.Diagnostics) {
	return compileBackend(b)
}

// CompileCall checks a `shell { ... }` block.
func (*Adapter) CompileCall(c *adapter.CallBlock) (adapter.Action, hcl.Diagnostics) {
	return compileCall(c)
}
