package table

// Inspection is what mcpdecl inspect prints: the listing, with the steps each
// tool, resource, resource template and prompt runs before its call,
// which clients never see.
type Inspection struct {
	Server            ServerListing        `json:"server"`
	Tools             []toolInspection     `json:"tools"`
	Resources         []resourceInspection `json:"resources"`
	ResourceTemplates []templateInspection `json:"resourceTemplates"`
	Prompts           []promptInspection   `json:"prompts"`
	// Auth summarises the auth block; absent without one.
	Auth *authInspection `json:"auth,omitempty"`
	// Toolsets are the toolset blocks; absent without any.
	Toolsets []ToolsetInspection `json:"toolsets,omitempty"`
	// Limits are the limit blocks; absent without any.
	Limits []LimitInspection `json:"limits,omitempty"`
}

type toolInspection struct {
	ToolListing
	Steps []stepInspection `json:"steps,omitempty"`
	accessInspection
}

type resourceInspection struct {
	ResourceListing
	Steps []stepInspection `json:"steps,omitempty"`
	accessInspection
}

type templateInspection struct {
	TemplateListing
	Steps []stepInspection `json:"steps,omitempty"`
	accessInspection
}

type promptInspection struct {
	PromptListing
	Steps []stepInspection `json:"steps,omitempty"`
	accessInspection
}

// stepInspection is one step, in the order steps run.
type stepInspection struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Backend string `json:"backend,omitempty"`
	When    string `json:"when,omitempty"`
	// ForEach is the list a step calls for item by item, as written, and
	// MaxItems the longest list it calls for.
	ForEach  string   `json:"for_each,omitempty"`
	MaxItems int      `json:"max_items,omitempty"`
	Errors   []string `json:"errors,omitempty"` // the when of each error rule
	Uses     []string `json:"uses,omitempty"`
}

// Inspect is the listing of t with the steps and the access of each
// primitive, and a summary of the auth block.
func Inspect(t *Table) *Inspection {
	l := t.Listing()
	out := &Inspection{Server: l.Server, Tools: []toolInspection{}, Resources: []resourceInspection{},
		ResourceTemplates: []templateInspection{}, Prompts: []promptInspection{}}
	for i, x := range l.Tools {
		out.Tools = append(out.Tools, toolInspection{x, inspectSteps(t.Tools[i].Steps), accessOf(t.Tools[i].Access)})
	}
	for i, x := range l.Resources {
		out.Resources = append(out.Resources, resourceInspection{x, inspectSteps(t.Resources[i].Steps), accessOf(t.Resources[i].Access)})
	}
	for i, x := range l.ResourceTemplates {
		out.ResourceTemplates = append(out.ResourceTemplates, templateInspection{x, inspectSteps(t.Templates[i].Steps), accessOf(t.Templates[i].Access)})
	}
	for i, x := range l.Prompts {
		out.Prompts = append(out.Prompts, promptInspection{x, inspectSteps(t.Prompts[i].Steps), accessOf(t.Prompts[i].Access)})
	}
	out.Auth = inspectAuth(t)
	out.Toolsets = inspectToolsets(t)
	out.Limits = inspectLimits(t)
	return out
}

func inspectSteps(steps []*Step) []stepInspection {
	var out []stepInspection
	for _, s := range steps {
		si := stepInspection{Name: s.Name, Kind: s.Kind, Backend: s.Backend, Uses: s.Uses}
		if s.When != nil {
			si.When = s.When.Source
		}
		if s.ForEach != nil {
			si.ForEach, si.MaxItems = s.ForEach.Source, s.ForEach.MaxItems
		}
		for _, r := range s.Errors {
			if r.When != nil {
				si.Errors = append(si.Errors, r.When.Source)
			}
		}
		out = append(out, si)
	}
	return out
}

// AppCount is how many of the table's resources are apps.
func AppCount(t *Table) int {
	n := 0
	for _, r := range t.Resources {
		if r.App != nil {
			n++
		}
	}
	return n
}
