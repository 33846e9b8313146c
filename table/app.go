package table

import (
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// AppMimeType is the MIME type of an MCP App's page.
const AppMimeType = "text/html;profile=mcp-app"

// ExtensionUI is the MCP Apps extension's identifier, under which a server
// that serves apps advertises it.
const ExtensionUI = "io.modelcontextprotocol/ui"

// App is what an app block adds to the resource that serves its page.
type App struct {
	// Policy is the Content Security Policy put in the page's head, built
	// from CSP alone.
	Policy string
	CSP    AppCSP
	// Permissions are the MCP Apps names of the sandbox features asked for
	// (clipboardWrite, not clipboard_write).
	Permissions   []string
	Domain        string
	PrefersBorder *bool
	// Page is an inline page as written, without the policy (for lint);
	// "" for a page in a file.
	Page string
	// Meta is the _meta.ui object of the listing entry and of the read
	// contents (McpUiResourceMeta), as JSON-ready values; nil when the app
	// sets none of its fields.
	Meta map[string]any
}

// AppCSP is an app's csp block: the origins each list allows.
type AppCSP struct {
	Connect, Resource, Frame, BaseURI []string
}

// ToolUI is what a tool's ui block says: the URI of the app that shows its
// results, and who may call it.
type ToolUI struct {
	ResourceURI string
	Visibility  []string
}

// Meta is the tool's _meta in tools/list: the ui object (McpUiToolMeta)
// and, for hosts that predate it, the flat "ui/resourceUri" key.
func (u *ToolUI) Meta() map[string]any {
	if u == nil {
		return nil
	}
	ui := map[string]any{}
	if u.ResourceURI != "" {
		ui["resourceUri"] = u.ResourceURI
	}
	if u.Visibility != nil {
		ui["visibility"] = toAnySlice(u.Visibility)
	}
	out := map[string]any{"ui": ui}
	if u.ResourceURI != "" {
		out["ui/resourceUri"] = u.ResourceURI
	}
	return out
}

// HasApps reports whether the table serves an app, so that the server
// advertises the MCP Apps extension.
func (t *Table) HasApps() bool {
	return slices.ContainsFunc(t.Resources, func(r *Resource) bool { return r.App != nil })
}

// appPermissions maps the language's permission names to the extension's.
var appPermissions = map[string]string{
	"camera": "camera", "microphone": "microphone", "geolocation": "geolocation", "clipboard_write": "clipboardWrite",
}

// toolVisibilities are the values of a ui block's visibility.
var toolVisibilities = []string{"model", "app"}

func (c *compiler) compileApps() {
	for _, a := range c.cfg.Apps {
		what := fmt.Sprintf("The app %q", a.Name)
		res := &Resource{DeclRange: a.DeclRange, Name: a.Name, MimeType: AppMimeType}
		res.URI = c.staticString(a.URI)
		if c.checkAppURI(a.URI, res.URI) {
			c.checkURI(a.URI, res.URI, c.uris)
		}
		if n := c.staticString(a.DisplayName); n != "" {
			res.Name = n
		}
		res.Title = c.staticString(a.Title)
		res.Description = c.staticString(a.Description)
		app := &App{Domain: c.staticString(a.Domain)}
		if v, set := c.staticBool(a.PrefersBorder); set {
			app.PrefersBorder = &v
		}
		if csp := first(a.CSP); csp != nil {
			app.CSP = AppCSP{
				Connect:  c.origins(csp.ConnectDomains),
				Resource: c.origins(csp.ResourceDomains),
				Frame:    c.origins(csp.FrameDomains),
				BaseURI:  c.origins(csp.BaseURIDomains),
			}
		}
		app.Permissions = c.permissions(a.Permissions)
		app.Policy = app.CSP.Policy()
		app.Meta = app.meta()
		c.appPage(a, res, app)
		res.Access = c.primitiveAccess(a.Scopes, what)
		res.App = app
		c.table.Resources = append(c.table.Resources, res)
	}
}

// checkAppURI reports an app URI that is not ui://; it returns whether
// the URI is one.
func (c *compiler) checkAppURI(attr *hcl.Attribute, uri string) bool {
	if uri == "" {
		return false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "ui" || !strings.HasPrefix(strings.ToLower(uri), "ui://") || u.Host == "" && u.Path == "" {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid app URI",
			"%q is not a ui:// URI; hosts look for apps under the ui scheme. Write it as \"ui://<server>/<page>\", for example \"ui://orders/dashboard\".", uri)})
		return false
	}
	return true
}

// appPage sets the resource's page: an inline page gets its policy now;
// a file is checked now and read (and given its policy) on every read,
// like a resource file, so that editing it needs no reload.
func (c *compiler) appPage(a *lang.App, res *Resource, app *App) {
	if a.HTML != nil {
		app.Page = c.staticString(a.HTML)
		res.Text = InjectCSP(app.Page, app.Policy) // even an empty page gets it
		return
	}
	if a.File == nil {
		return
	}
	res.File = c.configFile(a.File, "App page")
	if res.File == "" {
		return
	}
	info, err := os.Stat(res.File)
	if err != nil || info.IsDir() || info.Size() > eval.MaxFileBytes {
		return // reported by configFile
	}
	if !info.Mode().IsRegular() {
		// A pipe or a device would block or never end, at every read.
		c.add(hcl.Diagnostics{errorf(a.File.Expr.Range(), "App page is not a regular file",
			"%s is a %s; an app's page is an HTML file read whole. Name a regular file.", res.File, fileKind(info.Mode()))})
		return
	}
	b, err := eval.ReadConfigFile("", res.File)
	switch {
	case err != nil:
		c.add(hcl.Diagnostics{errorf(a.File.Expr.Range(), "App page unreadable", "%s.", err)})
	case !utf8.Valid(b):
		c.add(hcl.Diagnostics{errorf(a.File.Expr.Range(), "App page is not text",
			"%s is not UTF-8 text; an app's page is an HTML document sent as text. Save it as UTF-8.", res.File)})
	}
}

// fileKind names a file that is not a regular file, for messages.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

func (a *App) meta() map[string]any {
	m := map[string]any{}
	csp := map[string]any{}
	for key, list := range map[string][]string{"connectDomains": a.CSP.Connect, "resourceDomains": a.CSP.Resource,
		"frameDomains": a.CSP.Frame, "baseUriDomains": a.CSP.BaseURI} {
		if len(list) > 0 {
			csp[key] = toAnySlice(list)
		}
	}
	if len(csp) > 0 {
		m["csp"] = csp
	}
	if len(a.Permissions) > 0 {
		perms := map[string]any{}
		for _, p := range a.Permissions {
			perms[p] = map[string]any{}
		}
		m["permissions"] = perms
	}
	if a.Domain != "" {
		m["domain"] = a.Domain
	}
	if a.PrefersBorder != nil {
		m["prefersBorder"] = *a.PrefersBorder
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

func (c *compiler) permissions(attr *hcl.Attribute) []string {
	var out []string
	names := keysOf(appPermissions)
	for i, p := range c.stringListAttr(attr) {
		name, ok := appPermissions[p]
		if !ok {
			c.add(hcl.Diagnostics{errorf(elemRange(attr, i), "Unknown app permission",
				"%q is not a permission an app can ask for; they are %s.%s", p, listNames(names), rule.DidYouMean(p, names))})
			continue
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// compileToolUIs links each tool's ui block to its app, once the apps are
// compiled. Tools and their blocks are in the same order.
func (c *compiler) compileToolUIs() {
	apps := map[string]*Resource{}
	var names []string
	for i, a := range c.cfg.Apps {
		apps[a.Name] = c.appResource(i)
		names = append(names, a.Name)
	}
	for i, t := range c.cfg.Tools {
		ui := first(t.UI)
		if ui == nil || i >= len(c.table.Tools) {
			continue
		}
		out := &ToolUI{Visibility: c.visibility(ui.Visibility)}
		if name := c.staticString(ui.App); ui.App != nil && name != "" {
			if r, ok := apps[name]; ok {
				out.ResourceURI = r.URI
			} else {
				c.add(hcl.Diagnostics{errorf(ui.App.Expr.Range(), "Unknown app",
					"The tool %q shows its results in the app %q, but no app block has that name. %s%s",
					t.Name, name, declaredApps(names), rule.DidYouMean(name, names))})
			}
		}
		c.table.Tools[i].UI = out
	}
}

// appResource returns the resource compiled from the i-th app block: the
// apps are the last resources, in order.
func (c *compiler) appResource(i int) *Resource {
	return c.table.Resources[len(c.table.Resources)-len(c.cfg.Apps)+i]
}

func declaredApps(names []string) string {
	if len(names) == 0 {
		return "Declare it: app \"<name>\" { uri = \"ui://...\" file = \"page.html\" }."
	}
	return fmt.Sprintf("The apps are %s.", listNames(names))
}

func (c *compiler) visibility(attr *hcl.Attribute) []string {
	if attr == nil {
		return nil
	}
	v := c.staticValue(attr, cty.List(cty.String))
	list := stringList(v)
	if v != cty.NilVal && v.IsKnown() && !v.IsNull() && v.LengthInt() == 0 {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Empty visibility",
			"visibility = [] would hide the tool from both the model and the app. List who may call it: [\"model\"], [\"app\"] or [\"model\", \"app\"] (the default).")})
		return nil
	}
	var out []string
	for i, s := range list {
		if !slices.Contains(toolVisibilities, s) {
			c.add(hcl.Diagnostics{errorf(elemRange(attr, i), "Unknown visibility",
				"%q is not a visibility; a tool is visible to \"model\", \"app\" or both.%s", s, rule.DidYouMean(s, toolVisibilities))})
			continue
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// elemRange is the range of the i-th element of a list attribute written
// as a tuple, else of the whole expression.
func elemRange(attr *hcl.Attribute, i int) hcl.Range {
	if t, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(t.Exprs) {
		return t.Exprs[i].Range()
	}
	return attr.Expr.Range()
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
