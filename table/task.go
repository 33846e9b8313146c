package table

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// Task modes of a tool's task block.
const (
	TaskOptional = "optional" // a client that can poll gets a task, others the result
	TaskRequired = "required" // only clients that can poll may call the tool
)

// Defaults of a task block.
const (
	DefaultTaskTTL            = time.Hour
	DefaultTaskPollInterval   = time.Second
	DefaultTaskMaxResultBytes = 1 << 20
	minTaskTTL                = time.Second
	maxTaskTTL                = 7 * 24 * time.Hour
)

// TaskSpec is a compiled task block: how a tool runs as a task.
type TaskSpec struct {
	Mode         string
	TTL          time.Duration
	PollInterval time.Duration
	// AskFirst asks the tool's questions with the call, before the task
	// is created; otherwise the running task asks them.
	AskFirst bool
	// MaxResultBytes bounds the encoded result a task keeps; a larger
	// one fails the task.
	MaxResultBytes int
}

func (c *compiler) compileTask(blocks []*lang.TaskBlock, where string) *TaskSpec {
	if len(blocks) == 0 {
		return nil
	}
	b := blocks[0]
	spec := &TaskSpec{Mode: TaskOptional, TTL: DefaultTaskTTL, PollInterval: DefaultTaskPollInterval, MaxResultBytes: DefaultTaskMaxResultBytes}
	if m := c.staticString(b.Mode); b.Mode != nil && m != "" {
		if m != TaskOptional && m != TaskRequired {
			c.add(hcl.Diagnostics{errorf(b.Mode.Expr.Range(), "Unknown task mode",
				"%s has task mode %q; write \"optional\" (clients that cannot poll get the result directly) or \"required\" (only clients that can poll may call it).%s",
				where, m, rule.DidYouMean(m, []string{TaskOptional, TaskRequired}))})
		}
		spec.Mode = m
	}
	if d := c.duration(b.TTL); d > 0 {
		if d < minTaskTTL || d > maxTaskTTL {
			c.add(hcl.Diagnostics{errorf(b.TTL.Expr.Range(), "Task TTL out of range",
				"A task's ttl is how long its result is kept; it must be between %s and %s (168h). Write for example \"1h\".", minTaskTTL, "7 days")})
		}
		spec.TTL = d
	}
	if d := c.duration(b.PollInterval); d > 0 {
		if d > spec.TTL {
			c.add(hcl.Diagnostics{errorf(b.PollInterval.Expr.Range(), "Poll interval longer than the TTL",
				"poll_interval (%s) is longer than the task's ttl (%s): a client waiting that long would find the task gone. Make it shorter.", d, spec.TTL)})
		}
		spec.PollInterval = d
	}
	spec.AskFirst, _ = c.staticBool(b.AskFirst)
	if n := c.positiveInt(b.MaxResultBytes, "max_result_bytes must be a positive number of bytes, for example 1048576 (1 MiB)."); n > 0 {
		spec.MaxResultBytes = n
	}
	return spec
}

// checkTask warns about ask_first on a tool that asks nothing.
func (c *compiler) checkTask(t *lang.Tool, tool *Tool) {
	if tool.Task == nil || !tool.Task.AskFirst || len(tool.Questions) > 0 {
		return
	}
	c.add(hcl.Diagnostics{warnf(t.Task[0].AskFirst.NameRange, "ask_first without questions",
		"%s", fmt.Sprintf("The tool %q asks no questions (elicit, sample, roots), so ask_first changes nothing. Remove it.", t.Name))})
}
