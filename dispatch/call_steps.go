package dispatch

import (
	"context"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// stepRun holds the answers of one call's steps as they come in: by step
// name, the adapter's fields (what expr-lang programs read as
// steps.<name>) and the step's value (what HCL expressions read).
type stepRun struct {
	steps  []*Step
	fields map[string]any
	values map[string]cty.Value
	// cached is vars() as of the last step that ran, built when asked.
	cached map[string]cty.Value
}

// vars are the further variables of the call's HCL expressions: steps.
func (r *stepRun) vars() map[string]cty.Value {
	if r == nil {
		return nil
	}
	if r.cached == nil {
		r.cached = map[string]cty.Value{"steps": StepsValue(r.steps, r.values)}
	}
	return r.cached
}

// withSteps adds steps to an answer's fields, for the owner's error rules
// and result block (res nil: the owner makes no call of its own).
func (r *stepRun) withSteps(res *adapter.Result) *adapter.Result {
	if r == nil {
		return res
	}
	return withFields(res, map[string]any{"steps": r.fields})
}

// stopped is why a step ended the call: its call failed (failed), or one of
// its error rules held, with the message written for the model.
type stopped struct {
	failed bool
	text   string
}

// runSteps runs an owner's steps in order, under ctx, which carries the
// call's one deadline (timeout, also passed to each adapter as its
// Request.Timeout when positive). A step whose when does not hold is
// skipped. The first step that fails, or whose error rule holds, stops
// the call: nothing after it runs. err is a failure of the configuration
// (a program that cannot run), written for the log.
func (t *Table) runSteps(ctx context.Context, in *CallInput, owner string, steps []*Step, args *callArgs, timeout time.Duration) (*stepRun, *stopped, error) {
	run := &stepRun{steps: steps, fields: make(map[string]any, len(steps)), values: make(map[string]cty.Value, len(steps))}
	for _, s := range steps {
		if s.When != nil {
			hit, err := runProgram(s.When.Program, buildEnv(s.WhenEnv, map[string]any{"steps": run.fields}, args.JSON))
			if err != nil {
				return nil, nil, fmt.Errorf("step %q: when %q: %w", s.Name, s.When.Source, err)
			}
			if hit != true {
				continue
			}
		}
		req := t.adapterRequest(ctx, in, args)
		if len(s.Uses) > 0 {
			req.Vars = run.vars() // nothing to build for a step that reads no other
		}
		if timeout > 0 {
			req.Timeout = timeout
		}
		res, failure := invoke(ctx, in.logger(), owner+" step "+s.Name, s.Action, req)
		if failure != "" {
			return nil, &stopped{failed: true, text: failure}, nil
		}
		if stop, err := stepErrors(s, res, run, args); stop != nil || err != nil {
			return nil, stop, err
		}
		if res.Failure != "" {
			return nil, &stopped{failed: true, text: res.Failure}, nil
		}
		v, err := s.Value(res.Fields)
		if err != nil {
			return nil, nil, err
		}
		run.fields[s.Name], run.values[s.Name], run.cached = res.Fields, v, nil
	}
	return run, nil, nil
}

// stepErrors applies a step's error rules to its answer: the first that
// holds stops the call with its message.
func stepErrors(s *Step, res *adapter.Result, run *stepRun, args *callArgs) (*stopped, error) {
	if len(s.Errors) == 0 {
		return nil, nil
	}
	fields := make(map[string]any, len(res.Fields)+1)
	for k, v := range res.Fields {
		fields[k] = v
	}
	fields["steps"] = run.fields
	env := buildEnv(s.Env, fields, args.JSON)
	for _, rule := range s.Errors {
		hit, err := runProgram(rule.When.Program, env)
		if err != nil {
			return nil, fmt.Errorf("step %q: error rule %q: %w", s.Name, rule.When.Source, err)
		}
		if hit == true {
			msg, err := renderTemplate(rule.Message, env, "error message")
			if err != nil {
				return nil, fmt.Errorf("step %q: %w", s.Name, err)
			}
			return &stopped{text: msg}, nil
		}
	}
	return nil, nil
}
