package dispatch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/table"
)

// stepRun holds the answers of one call's steps as they come in: by step
// name, the adapter's fields (what expr-lang programs read as
// steps.<name>) and the step's value (what HCL expressions read).
type stepRun struct {
	steps  []*table.Step
	fields map[string]any
	// auth is auth.* of the call, nil when it reads none.
	auth   map[string]cty.Value
	values map[string]cty.Value
	// cached is vars() as of the last step that ran, built when asked.
	cached map[string]cty.Value
	// answered names the steps that answered, in the order they were read.
	answered []string
}

// vars are the further variables of the call's HCL expressions: steps.
func (r *stepRun) vars() map[string]cty.Value {
	if r == nil {
		return nil
	}
	if r.cached == nil {
		r.cached = map[string]cty.Value{"steps": table.StepsValue(r.steps, r.values)}
		if v, ok := r.auth["auth"]; ok {
			r.cached["auth"] = v
		}
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

// runSteps runs an owner's steps under ctx, which carries the call's one
// deadline (timeout, also passed to each adapter as its Request.Timeout
// when positive). Steps run in source order, except that a step that only
// reads runs together with the read-only steps right after it that read
// none of their answers (see wave). A step whose when does not hold is
// skipped. The first step (in source order) that fails, or whose error
// rule holds, stops the call: nothing after it runs. err is a failure of
// the configuration (a program that cannot run), written for the log.
func runSteps(ctx context.Context, t *table.Table, in *CallInput, owner string, steps []*table.Step, args *callArgs, timeout time.Duration) (*stepRun, *stopped, error) {
	run := &stepRun{steps: steps, fields: make(map[string]any, len(steps)), values: make(map[string]cty.Value, len(steps)), auth: in.authVars()}
	for i := 0; i < len(steps); {
		n := wave(steps, i)
		if stop, err := runWave(ctx, t, in, owner, steps[i:i+n], run, args, timeout); stop != nil || err != nil {
			return nil, stop, err
		}
		i += n
	}
	return run, nil, nil
}

// wave is how many steps from steps[i] on run at the same time: a step
// that changes nothing is joined by the steps right after it that change
// nothing and read none of the wave's answers. Any other step runs alone,
// so writes keep their written order with everything around them.
func wave(steps []*table.Step, i int) int {
	if !changesNothing(steps[i]) {
		return 1
	}
	n := 1
	for i+n < len(steps) && changesNothing(steps[i+n]) && !usesAny(steps[i+n], steps[i:i+n]) {
		n++
	}
	return n
}

func changesNothing(s *table.Step) bool {
	ro, ok := s.Action.(adapter.ReadOnlyAction)
	return ok && ro.ChangesNothing()
}

func usesAny(s *table.Step, others []*table.Step) bool {
	for _, o := range others {
		if slices.Contains(s.Uses, o.Name) {
			return true
		}
	}
	return false
}

// stepCall is one step of a wave: its request, and what its call gave
// (what each item's call gave, for a step with for_each).
type stepCall struct {
	step    *table.Step
	req     *adapter.Request
	res     *adapter.Result
	failure string
	each    *eachCall
	// late: the call's deadline had passed when the step's call returned.
	late bool
}

// runWave runs steps that may run at the same time (one, most often),
// then reads their answers in source order. The list of a step with
// for_each is computed before any step of the wave is called, so a list
// that stops the call (too long) leaves the whole wave uncalled.
func runWave(ctx context.Context, t *table.Table, in *CallInput, owner string, steps []*table.Step, run *stepRun, args *callArgs, timeout time.Duration) (*stopped, error) {
	calls := make([]*stepCall, 0, len(steps))
	for _, s := range steps {
		if s.When != nil {
			hit, err := runProgram(s.When.Program, buildEnv(s.WhenEnv, map[string]any{"steps": run.fields}, args.JSON))
			if err != nil {
				return nil, fmt.Errorf("step %q: when %q: %w", s.Name, s.When.Source, err)
			}
			if hit != true {
				continue
			}
		}
		req := adapterRequest(ctx, t, in, args)
		if len(s.Uses) > 0 {
			req.Vars = run.vars() // nothing to build for a step that reads no other
		}
		if timeout > 0 {
			req.Timeout = timeout
		}
		c := &stepCall{step: s, req: req}
		if s.ForEach != nil {
			var stop *stopped
			if c.each, stop = eachItems(s, req); stop != nil {
				return stop, nil
			}
		}
		calls = append(calls, c)
	}
	log := in.logger()
	call := func(c *stepCall) {
		if c.each != nil {
			runEach(ctx, t, log, owner, c, run, args)
		} else {
			c.res, c.failure = invoke(ctx, log, owner+" step "+c.step.Name, c.step.Name, c.step.Action, c.req)
		}
		c.late = errors.Is(ctx.Err(), context.DeadlineExceeded)
	}
	if len(calls) == 1 {
		call(calls[0])
	} else {
		var wg sync.WaitGroup
		for _, c := range calls {
			wg.Go(func() { call(c) })
		}
		wg.Wait()
	}
	for _, c := range calls {
		stop, err := run.take(c, args)
		if stop != nil && stop.failed && timeout > 0 && c.late {
			// The call's one deadline ran out during this step: the
			// backend's own message ("gave no answer within…") would blame
			// it for the time the earlier steps took.
			stop.text = deadlineDuring(timeout, "step "+strconv.Quote(c.step.Name), run.answered)
		}
		if stop != nil || err != nil {
			return stop, err
		}
	}
	return nil, nil
}

// deadlineDuring is the message of a call whose one deadline (timeout)
// ran out while what was running (`step "x"`, the tool's own call), after
// the steps answered had answered.
func deadlineDuring(timeout time.Duration, what string, answered []string) string {
	after := ""
	switch len(answered) {
	case 0:
	case 1:
		after = fmt.Sprintf(", after step %q had answered", answered[0])
	default:
		quoted := make([]string, len(answered))
		for i, n := range answered {
			quoted[i] = strconv.Quote(n)
		}
		after = fmt.Sprintf(", after steps %s and %s had answered", strings.Join(quoted[:len(quoted)-1], ", "), quoted[len(quoted)-1])
	}
	return fmt.Sprintf("The call did not finish within its time limit of %s: %s was still waiting for its answer when the time ran out%s. The steps together may need more time than the limit allows; retrying later may help.",
		adapter.RoundLimit(timeout), what, after)
}

// take reads a step's answer: its call's failure, its error rules, its
// backend's failure, in that order, stop the call; otherwise the answer
// becomes steps.<name> for what comes after.
func (r *stepRun) take(c *stepCall, args *callArgs) (*stopped, error) {
	if c.each != nil {
		return r.takeEach(c)
	}
	s, res := c.step, c.res
	if stop, err := verdict(s, res, c.failure, r, args, nil); stop != nil || err != nil {
		return stop, err
	}
	v, err := s.Value(res.Fields)
	if err != nil {
		return nil, err
	}
	r.fields[s.Name], r.values[s.Name], r.cached = res.Fields, v, nil
	r.answered = append(r.answered, s.Name)
	return nil, nil
}

// verdict reads one answer of a step (of one item, for a step with
// for_each, whose each is then given): the call's failure, the step's
// error rules, the backend's failure, in that order, stop the call.
func verdict(s *table.Step, res *adapter.Result, failure string, run *stepRun, args *callArgs, each map[string]any) (*stopped, error) {
	if failure != "" {
		return &stopped{failed: true, text: failure}, nil
	}
	if stop, err := stepErrors(s, res, run, args, each); stop != nil || err != nil {
		return stop, err
	}
	if res.Failure != "" {
		return &stopped{failed: true, text: res.Failure}, nil
	}
	return nil, nil
}

// stepErrors applies a step's error rules to its answer: the first that
// holds stops the call with its message.
func stepErrors(s *table.Step, res *adapter.Result, run *stepRun, args *callArgs, each map[string]any) (*stopped, error) {
	if len(s.Errors) == 0 {
		return nil, nil
	}
	fields := make(map[string]any, len(res.Fields)+2)
	for k, v := range res.Fields {
		fields[k] = v
	}
	fields["steps"] = run.fields
	if each != nil {
		fields["each"] = each
	}
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
