package lang

import "github.com/hashicorp/hcl/v2"

// TaskBlock is a tool's `task` block: the tool may (mode "optional") or
// must (mode "required") run as a task that the client polls, kept for
// ttl, polled every poll_interval.
type TaskBlock struct {
	Mode         *hcl.Attribute `hcl:"mode,optional"`
	TTL          *hcl.Attribute `hcl:"ttl,optional"`
	PollInterval *hcl.Attribute `hcl:"poll_interval,optional"`
	// AskFirst asks the tool's questions with the call itself, before the
	// task is created, instead of from the running task.
	AskFirst *hcl.Attribute `hcl:"ask_first,optional"`
	// MaxResultBytes bounds the encoded result a task keeps.
	MaxResultBytes *hcl.Attribute `hcl:"max_result_bytes,optional"`
	DeclRange      hcl.Range      `hcl:",def_range"`
}
