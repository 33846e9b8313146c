package apptest

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	_ "modernc.org/sqlite"
)

const (
	appURI       = "ui://orders/dashboard"
	appMIME      = "text/html;profile=mcp-app"
	screenshotAt = "docs/images/apps-orders.png"
)

// driverInput is what web/drive.mjs reads from $APPTEST.
type driverInput struct {
	Modules    string   `json:"modules"`
	HostURL    string   `json:"hostUrl"`
	Scenario   string   `json:"scenario"` // "orders" or "probe"
	Cancel     int64    `json:"cancel,omitempty"`
	ProbeURL   string   `json:"probeUrl,omitempty"`
	Probes     []string `json:"probes,omitempty"`
	Screenshot string   `json:"screenshot,omitempty"`
}

// shown is what the app page shows (drive.mjs readApp).
type shown struct {
	Totals []struct {
		Customer, Total, Label string
		Orders                 int
	}
	Orders []int64
	Status string
}

type probe struct {
	Fetched   bool
	Type      string
	Error     string
	Violation *struct{ Directive, Blocked, Disposition string }
}

// driverOutput is what web/drive.mjs prints.
type driverOutput struct {
	Error      string
	Dialogs    []struct{ Type, Message string }
	Console    []string
	PageErrors []string
	AppOrigin  string
	Policy     struct {
		Host   string   // the policy the sandbox proxy built from _meta.ui.csp
		Others []string // any the page holds itself
	}
	Probes []probe
	Before shown
	After  shown
	Probe  struct{ Host, App probe }
	Host   struct {
		ProtocolVersion string
		Capabilities    map[string]any
		Tools           []map[string]any
		Resources       []map[string]any
		Read            struct{ Contents []map[string]any }
		Result          map[string]any
		Calls           []struct {
			Name      string
			Arguments map[string]any
			Confirmed *bool
			IsError   *bool
		}
		AppMessages []map[string]any // what the page sent, in order
		Errors      []string
		Initialized bool
	}
}

// TestOrdersAppInBrowser serves examples/orders_app.hcl over Streamable
// HTTP, opens it in a test host built from the official ext-apps bridge and
// MCP client in headless Chromium, and checks the whole path: the host
// finds the tool linking the app, reads the ui:// page and renders it in a
// sandboxed frame on another origin under the resource's CSP; the app
// shows the totals SQLite holds; its Cancel button calls cancel_order
// through the host, which asks the user first; the order is cancelled in
// SQLite and the app shows the new totals. The app messages the host
// received are checked against the ext-apps schema.
func TestOrdersAppInBrowser(t *testing.T) {
	bt := needBrowserTools(t)
	bin := buildMcpdecl(t)
	tmp := t.TempDir()

	hostURL, sandboxURL := buildHost(t, bt)
	dbPath := filepath.Join(tmp, "orders.db")
	mcpURL := serveHTTP(t, bin, "--cors", "--var", "orders_db="+dbPath, filepath.Join(bt.root, "examples", "orders_app.hcl"))
	db, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	wantBefore := openTotals(t, db)
	cancel := lastOpenOrder(t, db)

	probeURL := strings.TrimSuffix(mcpURL, "/mcp") + "/healthz"
	in := driverInput{
		Modules:    bt.modules,
		HostURL:    hostURL + "?server=" + mcpURL + "&sandbox=" + sandboxURL,
		Scenario:   "orders",
		Cancel:     cancel,
		ProbeURL:   probeURL,
		Screenshot: filepath.Join(tmp, "apps-orders.png"),
	}
	out := drive(t, bt, in)

	t.Run("app shows the totals in SQLite", func(t *testing.T) {
		checkShown(t, out.Before, wantBefore)
		if want := openOrders(t, db, cancel); !slices.Equal(out.Before.Orders, want) {
			t.Errorf("the app lists the open orders %v, SQLite had %v", out.Before.Orders, want)
		}
	})
	t.Run("cancel goes through the host's confirmation", func(t *testing.T) {
		checkCancelled(t, db, out, cancel)
	})
	t.Run("sandbox and CSP", func(t *testing.T) {
		checkSandbox(t, out, probeURL)
	})
	t.Logf("the host spoke %s; server capabilities %v", out.Host.ProtocolVersion, out.Host.Capabilities)
	t.Run("app messages match the ext-apps schema", func(t *testing.T) {
		checkAppMessages(t, bt, out)
	})
	t.Run("the page speaks the MCP Apps protocol", func(t *testing.T) {
		checkPageMessages(t, bt, out)
	})
	keepScreenshot(t, bt, in.Screenshot)
}

// drive runs web/drive.mjs and returns what it saw; a failure in the
// browser ends the test with the browser's errors and console.
func drive(t *testing.T, bt browserTools, in driverInput) driverOutput {
	t.Helper()
	inJSON, _ := json.Marshal(in)
	raw := runNode(t, bt, []string{"APPTEST=" + string(inJSON)}, "testkit/apptest/web/drive.mjs")
	var out driverOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("the driver's output: %v\n%s", err, raw)
	}
	if out.Error != "" || len(out.Host.Errors) > 0 || len(out.PageErrors) > 0 {
		t.Fatalf("the browser run failed: %s\nhost errors: %q\npage errors: %q\nconsole:\n%s",
			out.Error, out.Host.Errors, out.PageErrors, strings.Join(out.Console, "\n"))
	}
	return out
}

// buildHost writes the test host's pages (web/*.src.html) into a
// temporary folder and serves host.html and sandbox.html each on its own
// loopback origin.
func buildHost(t *testing.T, bt browserTools) (hostURL, sandboxURL string) {
	t.Helper()
	web := filepath.Join(t.TempDir(), "web")
	if err := os.Mkdir(web, 0o755); err != nil {
		t.Fatal(err)
	}
	runNode(t, bt, nil, "scripts/apps/build.mjs", bt.modules, "--out", web, "testkit/apptest/web")
	hostURL, sandboxURL = serveFile(t, web, "host.html"), serveFile(t, web, "sandbox.html")
	if origin(hostURL) == origin(sandboxURL) {
		t.Fatalf("the host and the sandbox share the origin %s", origin(hostURL))
	}
	return hostURL, sandboxURL
}

func origin(url string) string {
	rest := strings.SplitN(url, "/", 4)
	return strings.Join(rest[:3], "/")
}

type total struct {
	customer string
	orders   int
	total    float64
}

func openTotals(t *testing.T, db *sql.DB) []total {
	t.Helper()
	rows, err := db.Query("SELECT customer, count(*), sum(total) FROM orders WHERE status = 'open' GROUP BY customer ORDER BY sum(total) DESC, customer")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []total
	for rows.Next() {
		var r total
		if err := rows.Scan(&r.customer, &r.orders, &r.total); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 2 {
		t.Fatalf("the example database has %d customers with open orders; the test needs two or more", len(out))
	}
	return out
}

// openOrders lists the open order ids, as of now (or, with cancelled, as
// they were before that order was cancelled: the test reads SQLite after
// the browser run).
func openOrders(t *testing.T, db *sql.DB, cancelled ...int64) []int64 {
	t.Helper()
	also := int64(0) // no order has the id 0
	if len(cancelled) > 0 {
		also = cancelled[0]
	}
	rows, err := db.Query("SELECT id FROM orders WHERE status = 'open' OR id = ? ORDER BY id", also)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

func lastOpenOrder(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var id int64
	if err := db.QueryRow("SELECT max(id) FROM orders WHERE status = 'open'").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func checkShown(t *testing.T, got shown, want []total) {
	t.Helper()
	if len(got.Totals) != len(want) {
		t.Fatalf("the chart has %d bars, SQLite has %d customers with open orders: %+v", len(got.Totals), len(want), got.Totals)
	}
	for i, w := range want {
		g := got.Totals[i]
		money := fmt.Sprintf("%.2f", w.total)
		if g.Customer != w.customer || g.Total != money || g.Orders != w.orders {
			t.Errorf("bar %d shows %s %s (%d orders), SQLite has %s %s (%d)", i, g.Customer, g.Total, g.Orders, w.customer, money, w.orders)
		}
		if !strings.Contains(g.Label, w.customer) || !strings.Contains(g.Label, money) {
			t.Errorf("bar %d reads %q, want the customer %s and %s in it", i, g.Label, w.customer, money)
		}
	}
}

func checkCancelled(t *testing.T, db *sql.DB, out driverOutput, cancel int64) {
	var status string
	if err := db.QueryRow("SELECT status FROM orders WHERE id = ?", cancel).Scan(&status); err != nil {
		t.Fatal(err)
	}
	if status != "cancelled" {
		t.Errorf("order %d is %q in SQLite after the click, want cancelled", cancel, status)
	}
	if len(out.Dialogs) != 1 || out.Dialogs[0].Type != "confirm" ||
		!strings.Contains(out.Dialogs[0].Message, "Cancel an order") || !strings.Contains(out.Dialogs[0].Message, fmt.Sprintf(`{"id":%d}`, cancel)) {
		t.Errorf("want one confirmation naming the tool and the order, got %+v", out.Dialogs)
	}
	var cancels int
	for _, c := range out.Host.Calls {
		destructive := c.Name == "cancel_order"
		if destructive != (c.Confirmed != nil) {
			t.Errorf("the host asked about %s: %v; it asks about tools that may change data only", c.Name, c.Confirmed != nil)
		}
		if destructive {
			cancels++
			if c.Confirmed == nil || !*c.Confirmed || c.IsError == nil || *c.IsError || fmt.Sprint(c.Arguments["id"]) != fmt.Sprint(cancel) {
				t.Errorf("the app's cancel_order call: %+v", c)
			}
		}
	}
	if cancels != 1 {
		t.Errorf("the app called cancel_order %d times, want once: %+v", cancels, out.Host.Calls)
	}
	checkShown(t, out.After, openTotals(t, db))
	if want := openOrders(t, db); !slices.Equal(out.After.Orders, want) {
		t.Errorf("after the cancel the app lists %v, SQLite has %v open", out.After.Orders, want)
	}
	if want := fmt.Sprintf("Order %d cancelled.", cancel); out.After.Status != want {
		t.Errorf("the app's status reads %q, want %q", out.After.Status, want)
	}
}

func checkSandbox(t *testing.T, out driverOutput, probeURL string) {
	if out.AppOrigin != "null" {
		t.Errorf("the app runs in the origin %q; its frame must be sandboxed without allow-same-origin (origin null)", out.AppOrigin)
	}
	for _, d := range []string{"default-src 'none'", "connect-src 'none'", "frame-src 'none'", "object-src 'none'"} {
		if !strings.Contains(out.Policy.Host, d) {
			t.Errorf("the host's policy for the app %q lacks %q (the resource declares no domains)", out.Policy.Host, d)
		}
	}
	if !out.Probe.Host.Fetched {
		t.Fatalf("the host page could not fetch %s either (%s): the probe proves nothing", probeURL, out.Probe.Host.Error)
	}
	app := out.Probe.App
	if app.Fetched {
		t.Fatalf("the app fetched %s, an origin its resource does not declare", probeURL)
	}
	if app.Violation == nil || app.Violation.Directive != "connect-src" || !strings.HasPrefix(app.Violation.Blocked, origin(probeURL)) || app.Violation.Disposition != "enforce" {
		t.Errorf("the app's fetch of %s failed (%s) without the CSP violation that should block it: %+v", probeURL, app.Error, app.Violation)
	}
}

// checkAppMessages validates the app metadata the host received against
// the $defs of the ext-apps package's schema.json.
func checkAppMessages(t *testing.T, bt browserTools, out driverOutput) {
	toolMeta := extAppsSchema(t, bt, "McpUiToolMeta")
	resourceMeta := extAppsSchema(t, bt, "McpUiResourceMeta")
	want := map[string][]any{"customer_totals": nil, "open_order_list": {"app"}, "cancel_order": {"app"}}
	for _, tool := range out.Host.Tools {
		name, _ := tool["name"].(string)
		wantVisibility, listed := want[name]
		if !listed {
			continue
		}
		delete(want, name)
		meta, _ := tool["_meta"].(map[string]any)
		ui, ok := meta["ui"]
		if !ok {
			t.Errorf("tools/list: %s has no _meta.ui", name)
			continue
		}
		validate(t, toolMeta, "tools/list "+name+" _meta.ui", ui)
		uiMap, _ := ui.(map[string]any)
		if name == "customer_totals" {
			if uiMap["resourceUri"] != appURI || meta["ui/resourceUri"] != appURI {
				t.Errorf("customer_totals links %v (legacy key %v), want %s in both", uiMap["resourceUri"], meta["ui/resourceUri"], appURI)
			}
		} else if fmt.Sprint(uiMap["visibility"]) != fmt.Sprint(wantVisibility) {
			t.Errorf("%s has the visibility %v, want %v", name, uiMap["visibility"], wantVisibility)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools/list lacks %v", want)
	}

	var listed map[string]any
	for _, r := range out.Host.Resources {
		if r["uri"] == appURI {
			listed = r
		}
	}
	if listed == nil || listed["mimeType"] != appMIME {
		t.Errorf("resources/list: want %s with the type %s, got %v", appURI, appMIME, listed)
	} else if meta, ok := listed["_meta"].(map[string]any); ok {
		validate(t, resourceMeta, "resources/list _meta.ui", meta["ui"])
	}

	if len(out.Host.Read.Contents) != 1 {
		t.Fatalf("resources/read of %s: want one content, got %d", appURI, len(out.Host.Read.Contents))
	}
	c := out.Host.Read.Contents[0]
	if c["uri"] != appURI || c["mimeType"] != appMIME {
		t.Errorf("resources/read: uri %v, mimeType %v", c["uri"], c["mimeType"])
	}
	meta, _ := c["_meta"].(map[string]any)
	validate(t, resourceMeta, "resources/read _meta.ui", meta["ui"])
	if ui, _ := meta["ui"].(map[string]any); ui["prefersBorder"] != true {
		t.Errorf("resources/read _meta.ui = %v, want prefersBorder true (the example sets prefers_border)", meta["ui"])
	}
	page, err := os.ReadFile(filepath.Join(bt.root, "examples", "orders_app.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The server may put a policy of its own at the top of the page.
	text, _ := c["text"].(string)
	if served := cspMeta.ReplaceAllString(text, ""); served != string(page) {
		t.Errorf("resources/read sent %d characters, not examples/orders_app.html (%d bytes)", len(text), len(page))
	}
}

// pageMessages are the $defs of the ext-apps schema for the messages the
// orders page sends; tools/call is MCP's own (the host's client checks it
// again when it sends the call on).
var pageMessages = map[string]string{
	"ui/initialize":                 "McpUiInitializeRequest",
	"ui/notifications/initialized":  "McpUiInitializedNotification",
	"ui/notifications/size-changed": "McpUiSizeChangedNotification",
	"tools/call":                    "",
}

// checkPageMessages checks the JSON-RPC messages the page of
// examples/orders_app.html wrote by hand, as the host received them: the
// ui/initialize request first and ui/notifications/initialized before
// anything else, each one valid under the ext-apps schema, the page's
// height reported, and a tools/call for each call the host handled.
func checkPageMessages(t *testing.T, bt browserTools, out driverOutput) {
	msgs := out.Host.AppMessages
	if len(msgs) < 2 || msgs[0]["method"] != "ui/initialize" || msgs[1]["method"] != "ui/notifications/initialized" {
		t.Fatalf("the page must send ui/initialize, then ui/notifications/initialized; it sent %v", msgs)
	}
	schemas := map[string]*jsonschema.Schema{}
	var calls, heights int
	for i, m := range msgs {
		method, _ := m["method"].(string)
		_, isRequest := m["id"]
		if m["jsonrpc"] != "2.0" {
			t.Errorf("message %d (%s) has jsonrpc %v, want \"2.0\"", i, method, m["jsonrpc"])
		}
		def, known := pageMessages[method]
		if !known {
			t.Errorf("message %d: the page sent %v, which it has no reason to send", i, m)
			continue
		}
		if wantRequest := method == "ui/initialize" || method == "tools/call"; isRequest != wantRequest {
			t.Errorf("message %d: %s sent with id %v: a request needs an id, a notification has none", i, method, m["id"])
		}
		params, _ := m["params"].(map[string]any)
		switch method {
		case "tools/call":
			calls++
			if _, ok := params["name"].(string); !ok {
				t.Errorf("message %d: tools/call without a tool name: %v", i, m)
			}
		case "ui/notifications/size-changed":
			if h, _ := params["height"].(float64); h > 0 {
				heights++
			}
		}
		if def == "" {
			continue
		}
		if schemas[def] == nil {
			schemas[def] = extAppsSchema(t, bt, def)
		}
		body := map[string]any{"method": method}
		if p, ok := m["params"]; ok {
			body["params"] = p
		}
		validate(t, schemas[def], fmt.Sprintf("message %d (%s)", i, method), body)
	}
	if heights == 0 {
		t.Error("the page never reported its height (ui/notifications/size-changed)")
	}
	if calls != len(out.Host.Calls) {
		t.Errorf("the page sent %d tools/call requests, the host handled %d", calls, len(out.Host.Calls))
	}
}

var cspMeta = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="[^"]*">`)

func extAppsSchema(t *testing.T, bt browserTools, def string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(bt.modules, "@modelcontextprotocol", "ext-apps", "dist", "src", "generated", "schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("ext-apps.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("ext-apps.json#/$defs/" + def)
	if err != nil {
		t.Fatalf("%s in %s: %v", def, path, err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, what string, v any) {
	t.Helper()
	if v == nil {
		t.Errorf("%s: missing", what)
		return
	}
	// Round-trip through JSON: the validator wants json.Number-free plain values.
	b, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s = %s does not match the ext-apps schema: %v", what, b, err)
	}
}

// keepScreenshot checks the driver's screenshot, and with
// MCPDECL_UPDATE_SCREENSHOT=1 writes it to docs/images for the README.
func keepScreenshot(t *testing.T, bt browserTools, path string) {
	png, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the screenshot %s is not a PNG", path)
	}
	if os.Getenv("MCPDECL_UPDATE_SCREENSHOT") == "" {
		return
	}
	dst := filepath.Join(bt.root, screenshotAt)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", screenshotAt)
}
