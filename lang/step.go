package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Step is a `step "<name>"` block: a call made before the main call of its
// tool, resource, resource template or prompt, whose answer later steps and
// the owner read as steps.<name>. Steps run in source order.
type Step struct {
	Name      string    `hcl:"name,label"`
	NameRange hcl.Range `hcl:"name,label_range"`
	// When is an expr-lang condition over args and earlier steps; the step
	// is skipped when it does not hold. nil: always run.
	When *hcl.Attribute `hcl:"when,optional"`
	// ForEach, when set, is an HCL expression giving a list: the step
	// makes its call once per item (each.value, each.index), and
	// steps.<name> is the list of their answers. nil: one call.
	ForEach *hcl.Attribute `hcl:"for_each,optional"`
	// MaxItems bounds the items of ForEach; nil: the default bound.
	MaxItems *hcl.Attribute `hcl:"max_items,optional"`
	HTTP     []*labeledCall `hcl:"http,block"`
	SQL      []*labeledCall `hcl:"sql,block"`
	Shell    []*shellCall   `hcl:"shell,block"`
	MCP      []*labeledCall `hcl:"mcp,block"`
	// Call is the step's one call block, set by Load.
	Call *Call
	// Errors inspect the step's own answer; the first that holds stops
	// the whole call with its message.
	Errors    []*ErrorRule `hcl:"error,block"`
	Rest      hcl.Body     `hcl:",remain"`
	DeclRange hcl.Range    `hcl:",def_range"`
}

// stepAttrs are the attributes a step block takes, for messages.
var stepAttrs = []string{"when", "for_each", "max_items"}

// checkSteps checks the steps of one block (what names it): their names,
// that each has exactly one call and nothing else, and that no name is
// used twice. It sets each step's Call.
func checkSteps(steps []*Step, what string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*Step{}
	for _, s := range steps {
		diags = append(diags, checkStepName(s.Name, s.NameRange)...)
		if prev, dup := seen[s.Name]; dup {
			diags = append(diags, duplicateDiag("step", s.Name, prev.DeclRange, s.NameRange, fmt.Sprintf("Step names must be unique within %s.", lowerFirst(what))))
		} else {
			seen[s.Name] = s
		}
		var d hcl.Diagnostics
		stepWhat := fmt.Sprintf("The step %q", s.Name)
		s.Call, d = oneCall(allCalls(s.HTTP, s.SQL, s.Shell, s.MCP), stepWhat, s.DeclRange, true,
			" A step is one call made before the main call, as in step \"item\" { http \"api\" { path = \"/items/${args.id}\" } }.",
			"Make each call a step of its own.")
		diags = append(diags, d...)
		diags = append(diags, checkStepRest(s)...)
		diags = append(diags, checkMaxItems(s)...)
	}
	return diags
}

// checkMaxItems reports a max_items on a step without for_each, which
// makes one call whatever it holds.
func checkMaxItems(s *Step) hcl.Diagnostics {
	if s.MaxItems == nil || s.ForEach != nil {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "max_items without for_each",
		Detail:   fmt.Sprintf("max_items bounds the items of for_each, and the step %q has no for_each: it makes one call. Add for_each = <a list>, or remove max_items.", s.Name),
		Subject:  s.MaxItems.NameRange.Ptr(),
	}}
}

// checkStepRest reports what a step block holds besides when, its call and
// error blocks, such as a call's attribute written outside the call block.
func checkStepRest(s *Step) hcl.Diagnostics {
	if s.Rest == nil {
		return nil
	}
	_, diags := s.Rest.Content(&hcl.BodySchema{})
	for _, d := range diags {
		m := unsupportedArg.FindStringSubmatch(d.Detail)
		if d.Summary != "Unsupported argument" || m == nil {
			continue
		}
		name := m[1]
		d.Detail = fmt.Sprintf("A step takes when, for_each, max_items, one call block (http, sql or shell) and error blocks, not %s.%s", name, rule.DidYouMean(name, stepAttrs))
		if s.Call != nil {
			d.Detail += fmt.Sprintf(" If %s belongs to the call, move it into the %s block at line %d.", name, s.Call.Kind, s.Call.DeclRange.Start.Line)
		}
	}
	return diags
}

// unsupportedArg reads the name out of HCL's message for an argument the
// schema does not have.
var unsupportedArg = lazyregexp.New(`^An argument named "([^"]+)" is not expected here`)

// checkStepName applies the rule of argument names: a step is read as
// steps.<name> in both expression languages.
func checkStepName(name string, rng hcl.Range) hcl.Diagnostics {
	if argName.MatchString(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid step name",
		Detail:   fmt.Sprintf("The step name %q is not allowed: use letters, digits and '_', not starting with a digit, for example \"find_item\" (it is read as steps.<name>, where a '-' would read as a minus).", name),
		Subject:  rng.Ptr(),
	}}
}

// stepsWithoutUse reports the steps of a block whose content cannot
// depend on them (a resource with fixed content), saying what to do.
func stepsWithoutUse(steps []*Step, what, instead string) hcl.Diagnostics {
	if len(steps) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Steps without a call",
		Detail:   fmt.Sprintf("%s has steps but makes no call, so nothing reads their answers. %s", what, instead),
		Subject:  steps[0].DeclRange.Ptr(),
	}}
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
