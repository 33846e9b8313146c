package mcpadapter

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

var _ adapter.Checker = (*Action)(nil)

// Check checks the call against the tools its backend listed (CheckOpen):
// the tool exists, and arguments written as an object give each property
// the inputSchema requires and no property it forbids. Values are known
// only when called, so their types are not checked here.
func (a *Action) Check(context.Context) hcl.Diagnostics {
	if a.Backend == nil || a.Backend.conn.tools == nil {
		return nil // the backend could not be reached: reported once, there
	}
	tools := a.Backend.conn.tools
	t, ok := tools[a.Tool]
	if !ok {
		names := make([]string, 0, len(tools))
		for n := range tools {
			names = append(names, n)
		}
		slices.Sort(names)
		return hcl.Diagnostics{check.Error("Unknown remote tool",
			fmt.Sprintf("The MCP server of backend %q has no tool %q.%s", a.Backend.Name, a.Tool, rule.DidYouMean(a.Tool, names)), a.ToolRange)}
	}
	return a.checkArguments(t.InputSchema)
}

func (a *Action) checkArguments(schema any) hcl.Diagnostics {
	s, _ := asJSON(schema)
	obj, _ := s.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	closed := obj["additionalProperties"] == false
	keys, known := a.argumentKeys()
	if !known {
		return nil
	}
	var diags hcl.Diagnostics
	rng := a.Range
	if a.Arguments != nil {
		rng = a.Arguments.Range()
	}
	required, _ := obj["required"].([]any)
	for _, r := range required {
		if name, ok := r.(string); ok {
			if _, given := keys[name]; !given {
				diags = append(diags, check.Error("Missing remote argument",
					fmt.Sprintf("The tool %q of backend %q requires the argument %q, which arguments does not give.", a.Tool, a.Backend.Name, name), rng))
			}
		}
	}
	for name, r := range keys {
		if _, ok := props[name]; ok || props == nil {
			continue
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(names)
		detail := fmt.Sprintf("The tool %q of backend %q takes no argument %q.%s", a.Tool, a.Backend.Name, name, rule.DidYouMean(name, names))
		if closed {
			diags = append(diags, check.Error("Unknown remote argument", detail, r))
		} else {
			diags = append(diags, check.Warning("Unknown remote argument", detail+" Its schema lets it pass, and the tool may ignore it.", r))
		}
	}
	return diags
}

// argumentKeys are the names an arguments object written in the
// configuration gives, with their ranges; not known when arguments is
// another expression (a variable, a function call).
func (a *Action) argumentKeys() (map[string]hcl.Range, bool) {
	keys := map[string]hcl.Range{}
	if a.Arguments == nil {
		return keys, true
	}
	e, ok := a.Arguments.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return nil, false
	}
	for _, item := range e.Items {
		name, ok := literalKey(item.KeyExpr)
		if !ok {
			return nil, false
		}
		keys[name] = item.KeyExpr.Range()
	}
	return keys, true
}

func literalKey(e hclsyntax.Expression) (string, bool) {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		if name := hcl.ExprAsKeyword(k.Wrapped); name != "" && !k.ForceNonLiteral {
			return name, true
		}
		e = k.Wrapped
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type().FriendlyName() != "string" {
		return "", false
	}
	return v.AsString(), true
}
