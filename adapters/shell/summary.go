package shelladapter

import (
	"path/filepath"

	"github.com/mcpdecl/mcpdecl/adapter"
)

var _ adapter.Summarizer = (*Action)(nil)

// Summary implements adapter.Summarizer: the program's file name as the
// configuration fixes it, never its arguments, stdin or environment.
func (a *Action) Summary() *adapter.CallSummary { return a.summary }

func (a *Action) summarize() *adapter.CallSummary {
	name := "command"
	if a.Program != "" {
		name = filepath.Base(a.Program)
	}
	return &adapter.CallSummary{Kind: Kind, Backend: a.BackendName, Operation: name,
		Attributes: []adapter.Attribute{{Key: "process.executable.name", Value: name}}}
}
