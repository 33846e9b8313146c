package table

// ToolsetInspection is one toolset as mcpdecl inspect prints it.
type ToolsetInspection struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Tools       []string `json:"tools"`
	Scopes      []string `json:"scopes,omitempty"`
	// Dynamic is set when its endpoint lists the meta-tools (the toolset's
	// or the server's dynamic).
	Dynamic bool `json:"dynamic,omitempty"`
	// Tokens estimates what its tools/list result costs a model; the
	// command fills it in (lint.ToolsetTokens).
	Tokens int `json:"tokens,omitempty"`
}

func inspectToolsets(t *Table) []ToolsetInspection {
	var out []ToolsetInspection
	for _, ts := range t.Toolsets {
		tools := ts.Tools
		if tools == nil {
			tools = []string{}
		}
		out = append(out, ToolsetInspection{Name: ts.Name, Description: ts.Description, Tools: tools, Scopes: ts.Scopes, Dynamic: ts.Dynamic || t.Dynamic})
	}
	return out
}
