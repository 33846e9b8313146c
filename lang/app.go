package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// App is an `app` block: an MCP App, a static HTML page a host shows in a
// sandboxed frame and that reaches the server only through tool calls. It
// is served as a resource with a ui:// URI.
type App struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	URI         *hcl.Attribute `hcl:"uri"`
	DisplayName *hcl.Attribute `hcl:"name,optional"`
	Title       *hcl.Attribute `hcl:"title,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	// Exactly one of File (a path relative to the configuration file) and
	// HTML (the page itself).
	File *hcl.Attribute `hcl:"file,optional"`
	HTML *hcl.Attribute `hcl:"html,optional"`
	// PrefersBorder and Domain are hints for the host, passed on as they
	// are in _meta.ui.
	PrefersBorder *hcl.Attribute `hcl:"prefers_border,optional"`
	Domain        *hcl.Attribute `hcl:"domain,optional"`
	// Permissions lists the sandbox features the page asks for.
	Permissions *hcl.Attribute `hcl:"permissions,optional"`
	// Scopes lists the auth scopes a caller's token needs (HTTP with an
	// auth block only).
	Scopes *hcl.Attribute `hcl:"scopes,optional"`
	// CSP lists the origins the page may reach; at most one.
	CSP       []*AppCSP `hcl:"csp,block"`
	Lint      []*Lint   `hcl:"lint,block"`
	DeclRange hcl.Range `hcl:",def_range"`
}

// AppCSP is an app's `csp` block: lists of origins, each of which widens
// one part of the page's Content Security Policy.
type AppCSP struct {
	ConnectDomains  *hcl.Attribute `hcl:"connect_domains,optional"`
	ResourceDomains *hcl.Attribute `hcl:"resource_domains,optional"`
	FrameDomains    *hcl.Attribute `hcl:"frame_domains,optional"`
	BaseURIDomains  *hcl.Attribute `hcl:"base_uri_domains,optional"`
	DeclRange       hcl.Range      `hcl:",def_range"`
}

// ToolUI is a tool's `ui` block: the app that shows the tool's results,
// and who may call the tool (the model, the app, or both).
type ToolUI struct {
	App        *hcl.Attribute `hcl:"app,optional"`
	Visibility *hcl.Attribute `hcl:"visibility,optional"`
	DeclRange  hcl.Range      `hcl:",def_range"`
}

func (cfg *Config) addApps(as []*App) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range as {
		diags = append(diags, checkIdentifierLike(a.Name, a.NameRange, "app")...)
		what := fmt.Sprintf("The app %q", a.Name)
		diags = append(diags, checkAppSource(what, a)...)
		_, d := single(a.CSP, func(x *AppCSP) hcl.Range { return x.DeclRange }, "csp", what)
		diags = append(diags, d...)
		diags = append(diags, checkLint(a.Lint, what, false)...)
		cfg.Apps = append(cfg.Apps, a)
	}
	return diags
}

// checkAppSource reports an app whose page comes from neither or both of
// file and html.
func checkAppSource(what string, a *App) hcl.Diagnostics {
	switch {
	case a.File == nil && a.HTML == nil:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Missing app page",
			Detail:   what + " has no page. Give file = \"<path to an .html file>\" (relative to this configuration file) or html = <<-EOT ... EOT.",
			Subject:  a.DeclRange.Ptr(),
		}}
	case a.File != nil && a.HTML != nil:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Conflicting app page",
			Detail:   what + " has both file and html; keep exactly one of them.",
			Subject:  later(a.File, a.HTML).NameRange.Ptr(),
		}}
	}
	return nil
}

// later returns whichever of two attributes comes second in the source.
func later(a, b *hcl.Attribute) *hcl.Attribute {
	if a.Range.Start.Byte > b.Range.Start.Byte {
		return a
	}
	return b
}

// checkToolUI reports a second ui block of a tool, and one that says
// nothing (no app, no visibility), which has no effect.
func checkToolUI(t *Tool) hcl.Diagnostics {
	what := fmt.Sprintf("The tool %q", t.Name)
	ui, diags := single(t.UI, func(u *ToolUI) hcl.Range { return u.DeclRange }, "ui", what)
	if ui != nil && ui.App == nil && ui.Visibility == nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Empty ui block",
			Detail:   what + " has a ui block with neither app nor visibility, which changes nothing. Link an app (app = \"<app block name>\"), set visibility = [\"app\"] for a tool only the app calls, or remove the block.",
			Subject:  ui.DeclRange.Ptr(),
		})
	}
	return diags
}
