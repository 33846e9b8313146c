package lang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/parallel"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

func (cfg *Config) addVariables(vs []*Variable) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range vs {
		diags = append(diags, checkIdentifier(v.Name, v.NameRange, "variable")...)
		cfg.Variables = append(cfg.Variables, v)
	}
	return diags
}

func (cfg *Config) addBackends(bs []*Backend) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range bs {
		diags = append(diags, checkIdentifier(b.Name, b.NameRange, "backend")...)
		diags = append(diags, splitBackendLint(b)...)
		cfg.Backends = append(cfg.Backends, b)
	}
	return diags
}

func (cfg *Config) addTools(ts []*Tool, found []hcl.Diagnostics) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i, t := range ts {
		diags = append(diags, found[i]...)
		cfg.Tools = append(cfg.Tools, t)
	}
	return diags
}

// checkTools checks each tool alone (its arguments decoded, its blocks
// counted), on every core for an imported API's thousands; the findings
// keep the tools' order.
func checkTools(ts []*Tool) []hcl.Diagnostics {
	found := make([]hcl.Diagnostics, len(ts))
	parallel.For(len(ts), func(i int) { found[i] = checkTool(ts[i]) })
	return found
}

// checkTool decodes what Load decodes of a tool beyond its blocks (its
// arguments, its one call) and checks how many of each block it holds.
func checkTool(t *Tool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	diags = append(diags, checkMCPName(t.Name, t.NameRange, "tool")...)
	diags = append(diags, decodeArgs(t.Args)...)
	what := fmt.Sprintf("The tool %q", t.Name)
	var d hcl.Diagnostics
	t.Call, d = oneCall(allCalls(t.HTTP, t.SQL, t.Shell, t.MCP), what, t.DeclRange, len(t.Result) == 0 && len(t.Content) == 0,
		" A tool without a call needs a result block or content blocks that build its answer from the arguments (and its steps).", splitTool)
	diags = append(diags, d...)
	diags = append(diags, checkSteps(t.Steps, what)...)
	_, d = single(t.Annotations, func(a *Annotations) hcl.Range { return a.DeclRange }, "annotations", what)
	diags = append(diags, d...)
	_, d = single(t.Result, func(r *Result) hcl.Range { return r.DeclRange }, "result", what)
	diags = append(diags, d...)
	_, d = single(t.Task, func(b *TaskBlock) hcl.Range { return b.DeclRange }, "task", what)
	diags = append(diags, d...)
	diags = append(diags, checkContent(t)...)
	diags = append(diags, checkToolUI(t)...)
	diags = append(diags, checkLint(t.Lint, what, false)...)
	return diags
}

func (cfg *Config) addResources(rs []*Resource) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range rs {
		diags = append(diags, checkIdentifierLike(r.Name, r.NameRange, "resource")...)
		what := fmt.Sprintf("The resource %q", r.Name)
		var d hcl.Diagnostics
		r.Call, d = oneCall(allCalls(r.HTTP, r.SQL, r.Shell, r.MCP), what, r.DeclRange, false, "", splitTool)
		diags = append(diags, d...)
		diags = append(diags, checkSteps(r.Steps, what)...)
		if r.Call == nil {
			diags = append(diags, stepsWithoutUse(r.Steps, what,
				"A resource's text, blob or file is fixed; steps run before a call. Add a call block that uses them, or remove the steps.")...)
		}
		diags = append(diags, checkOneSource(what, r.DeclRange, r.Call, r.Text, r.Blob, r.File)...)
		_, d = single(r.Result, func(x *Result) hcl.Range { return x.DeclRange }, "result", what)
		diags = append(diags, d...)
		diags = append(diags, checkLint(r.Lint, what, false)...)
		cfg.Resources = append(cfg.Resources, r)
	}
	return diags
}

func (cfg *Config) addTemplates(ts []*ResourceTemplate) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range ts {
		diags = append(diags, checkIdentifierLike(t.Name, t.NameRange, "resource template")...)
		diags = append(diags, decodeArgs(t.Args)...)
		what := fmt.Sprintf("The resource template %q", t.Name)
		var d hcl.Diagnostics
		t.Call, d = oneCall(allCalls(t.HTTP, t.SQL, t.Shell, t.MCP), what, t.DeclRange, false, "", splitTool)
		diags = append(diags, d...)
		diags = append(diags, checkSteps(t.Steps, what)...)
		var fromSteps []hcl.Range // after steps and without a call, a result block builds the content
		if t.Call == nil && len(t.Steps) > 0 && len(t.Result) > 0 {
			fromSteps = append(fromSteps, t.Result[0].DeclRange)
		}
		diags = append(diags, checkSources(what, t.DeclRange, t.Call, len(t.Steps) > 0, fromSteps, t.Text, t.Blob)...)
		_, d = single(t.Result, func(x *Result) hcl.Range { return x.DeclRange }, "result", what)
		diags = append(diags, d...)
		diags = append(diags, checkLint(t.Lint, what, false)...)
		cfg.Templates = append(cfg.Templates, t)
	}
	return diags
}

func (cfg *Config) addPrompts(ps []*Prompt) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range ps {
		diags = append(diags, checkMCPName(p.Name, p.NameRange, "prompt")...)
		diags = append(diags, decodeArgs(p.Args)...)
		if len(p.Messages) == 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing prompt message",
				Detail:   fmt.Sprintf("The prompt %q has no message block. Add at least one, as in message \"user\" { text = \"...\" }.", p.Name),
				Subject:  p.DeclRange.Ptr(),
			})
		}
		for _, m := range p.Messages {
			diags = append(diags, checkMessage(m)...)
		}
		diags = append(diags, checkSteps(p.Steps, fmt.Sprintf("The prompt %q", p.Name))...)
		diags = append(diags, checkLint(p.Lint, fmt.Sprintf("The prompt %q", p.Name), false)...)
		cfg.Prompts = append(cfg.Prompts, p)
	}
	return diags
}

// splitTool is what to do with a second call block of a tool or resource.
const splitTool = "Split it into separate tools, or make the first call a step (step \"name\" { ... }) whose answer the second reads as steps.name."

// checkOneSource reports a resource whose content comes from none or from
// more than one of: a call, text, blob or file.
func checkOneSource(what string, decl hcl.Range, call *Call, attrs ...*hcl.Attribute) hcl.Diagnostics {
	return checkSources(what, decl, call, false, nil, attrs...)
}

// checkSources is checkOneSource for a block that may have steps, whose
// other sources (a result block that reads them) are in more.
func checkSources(what string, decl hcl.Range, call *Call, steps bool, more []hcl.Range, attrs ...*hcl.Attribute) hcl.Diagnostics {
	var given []hcl.Range
	if call != nil {
		given = append(given, call.TypeRange)
	}
	for _, a := range attrs {
		if a != nil {
			given = append(given, a.NameRange)
		}
	}
	given = append(given, more...)
	sources, fix := "text, blob (base64), file, or a call block (http, sql or shell)", "text, blob, file or a call block"
	if steps {
		sources = "text or blob (base64), either of which may read steps.<name>, a call block (http, sql or shell), or a result block that reads the steps"
		fix = "text, blob, a call block, or a result block after steps"
	}
	switch {
	case len(given) == 0:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Missing resource content",
			Detail:   what + " says nothing about its content. Give one of " + sources + ".",
			Subject:  decl.Ptr(),
		}}
	case len(given) > 1:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Conflicting resource content",
			Detail:   what + " has more than one source of content; keep exactly one of " + fix + ".",
			Subject:  given[1].Ptr(),
		}}
	}
	return nil
}

var messageRoles = []string{"user", "assistant"}

func checkMessage(m *Message) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if m.Role != "user" && m.Role != "assistant" {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid message role",
			Detail:   fmt.Sprintf("A prompt message is from \"user\" or \"assistant\", not %q.%s", m.Role, rule.DidYouMean(m.Role, messageRoles)),
			Subject:  m.RoleRange.Ptr(),
		})
	}
	n := len(m.Image) + len(m.Audio) + len(m.Resource)
	if m.Text != nil {
		n++
	}
	if n != 1 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid message content",
			Detail:   fmt.Sprintf("A message holds exactly one piece of content (text, or one image, audio or resource block); this one has %d.", n),
			Subject:  m.DeclRange.Ptr(),
		})
	}
	return diags
}

// contentAttrs says which attributes each content kind takes; the first
// ones listed are required.
var contentAttrs = map[string]struct{ required, optional []string }{
	"text":          {[]string{"text"}, nil},
	"image":         {[]string{"data", "mime_type"}, nil},
	"audio":         {[]string{"data", "mime_type"}, nil},
	"resource_link": {[]string{"uri", "name"}, []string{"mime_type", "description"}},
	"resource":      {[]string{"uri"}, []string{"mime_type", "text", "blob"}},
}

func checkContent(t *Tool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(t.Content) > 0 && t.Call != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Content blocks with a call",
			Detail:   fmt.Sprintf("The tool %q makes a call, whose answer becomes the content; content blocks give the answer of a tool without a call. Remove them, or map the answer with a result block.", t.Name),
			Subject:  t.Content[0].DeclRange.Ptr(),
		})
	}
	for _, c := range t.Content {
		diags = append(diags, checkContentBlock(c)...)
	}
	return diags
}

func checkContentBlock(c *Content) hcl.Diagnostics {
	spec, ok := contentAttrs[c.Kind]
	if !ok {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unknown content kind",
			Detail:   fmt.Sprintf("%q is not a kind of content; the kinds are text, image, audio, resource_link and resource.%s", c.Kind, rule.DidYouMean(c.Kind, keys(contentAttrs))),
			Subject:  c.KindRange.Ptr(),
		}}
	}
	given := map[string]*hcl.Attribute{"text": c.Text, "data": c.Data, "blob": c.Blob, "mime_type": c.MimeType,
		"uri": c.URI, "name": c.Name, "description": c.Description}
	var diags hcl.Diagnostics
	for _, name := range spec.required {
		if given[name] == nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("%s content block needs %s.", english.CapA(c.Kind), name),
				Subject:  c.DeclRange.Ptr(),
			})
		}
	}
	for name, attr := range given {
		if attr != nil && !slices.Contains(spec.required, name) && !slices.Contains(spec.optional, name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("%s content block does not take %s; it takes %s.", english.CapA(c.Kind), name, strings.Join(append(append([]string{}, spec.required...), spec.optional...), ", ")),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	if c.Text != nil && c.Blob != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Conflicting resource content",
			Detail: "An embedded resource holds text or blob, not both.", Subject: c.Blob.NameRange.Ptr()})
	}
	return diags
}
