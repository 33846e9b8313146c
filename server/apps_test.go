package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

const appsConfig = "testdata/apps.hcl"

// appView is what a client saw of the apps configuration: the listing
// entry and the read contents of the dashboard app, and each tool's _meta.
type appView struct {
	listedMime string
	listedMeta map[string]any
	readMime   string
	readText   string
	readMeta   map[string]any
	toolMeta   map[string]map[string]any
}

type appsClient interface {
	view(ctx context.Context, t *testing.T) appView
	close()
}

type sdkApps struct{ cs *sdkmcp.ClientSession }

func (c sdkApps) close() { c.cs.Close() }

func (c sdkApps) view(ctx context.Context, t *testing.T) appView {
	var v appView
	for r, err := range c.cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatalf("resources/list: %v", err)
		}
		if r.URI == "ui://orders/dashboard" {
			v.listedMime, v.listedMeta = r.MIMEType, r.Meta
		}
	}
	res, err := c.cs.ReadResource(ctx, &sdkmcp.ReadResourceParams{URI: "ui://orders/dashboard"})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read: %v (%d contents)", err, len(res.Contents))
	}
	v.readMime, v.readText, v.readMeta = res.Contents[0].MIMEType, res.Contents[0].Text, res.Contents[0].Meta
	v.toolMeta = map[string]map[string]any{}
	for tool, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		v.toolMeta[tool.Name] = tool.Meta
	}
	return v
}

type mcpgoApps struct{ c *mcpgoClient }

func (c mcpgoApps) close() { c.c.close() }

func metaFields(m *mcpgo.Meta) map[string]any {
	if m == nil {
		return nil
	}
	return m.AdditionalFields
}

func (c mcpgoApps) view(ctx context.Context, t *testing.T) appView {
	var v appView
	list, err := c.c.c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	for _, r := range list.Resources {
		if r.URI == "ui://orders/dashboard" {
			v.listedMime, v.listedMeta = r.MIMEType, metaFields(r.Meta)
		}
	}
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = "ui://orders/dashboard"
	res, err := c.c.c.ReadResource(ctx, req)
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read: %v", err)
	}
	text, ok := res.Contents[0].(mcpgo.TextResourceContents)
	if !ok {
		t.Fatalf("resources/read: %T, want text contents", res.Contents[0])
	}
	v.readMime, v.readText, v.readMeta = text.MIMEType, text.Text, text.Meta
	tools, err := c.c.c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	v.toolMeta = map[string]map[string]any{}
	for _, tool := range tools.Tools {
		v.toolMeta[tool.Name] = metaFields(tool.Meta)
	}
	return v
}

// wantDashboardUI is the dashboard's _meta.ui as apps.hcl declares it.
var wantDashboardUI = map[string]any{
	"csp": map[string]any{
		"connectDomains":  []any{"https://api.example.com"},
		"resourceDomains": []any{"https://*.cdn.example.com", "http://localhost:8080"},
	},
	"permissions":   map[string]any{"clipboardWrite": map[string]any{}, "camera": map[string]any{}},
	"domain":        "orders.example.com",
	"prefersBorder": true,
}

// wantDashboardPolicy is the policy put in the dashboard's head.
const wantDashboardPolicy = "default-src 'none'; " +
	"script-src 'unsafe-inline' https://*.cdn.example.com http://localhost:8080; " +
	"style-src 'unsafe-inline' https://*.cdn.example.com http://localhost:8080; " +
	"img-src data: blob: https://*.cdn.example.com http://localhost:8080; " +
	"font-src data: https://*.cdn.example.com http://localhost:8080; " +
	"media-src data: blob: https://*.cdn.example.com http://localhost:8080; " +
	"connect-src https://api.example.com; frame-src 'none'; base-uri 'none'; form-action 'none'"

// TestAppsOverTheWire lists and reads an app and lists the tools that
// link to it with go-sdk's and mcp-go's clients, in both eras, over HTTP
// and (built binary) stdio. Every server message is checked against the
// core schema of its revision, and every _meta.ui against the MCP Apps
// schema.
func TestAppsOverTheWire(t *testing.T) {
	requireSchemas(t)
	versions := []string{mcp.Version20260728, mcp.Version20251125, mcp.Version20250618}
	clients := map[string]func(t *testing.T, u, version string) appsClient{
		"go-sdk": func(t *testing.T, u, version string) appsClient {
			return sdkApps{connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, version).(*sdkClient).cs}
		},
		"mcp-go": func(t *testing.T, u, version string) appsClient {
			tr, err := mcpgotransport.NewStreamableHTTP(u)
			if err != nil {
				t.Fatal(err)
			}
			return mcpgoApps{connectMCPGo(t, tr, version).(*mcpgoClient)}
		},
	}
	for name, connect := range clients {
		for _, version := range versions {
			t.Run(name+"/"+version, func(t *testing.T) {
				log := &wireLog{}
				u, _ := startHTTPInProcess(t, log, server.New(compileFile(t, appsConfig), nil))
				c := connect(t, u, version)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				checkAppView(t, c.view(ctx, t))
				c.close()
				log.verify(t, version+" resources/list", version+" resources/read", version+" tools/list")
				checkUIMeta(t, &log.Log)
				checkUICapability(t, &log.Log, version)
			})
		}
	}
	t.Run("stdio/go-sdk", func(t *testing.T) {
		log := &wireLog{}
		p := startStdio(t, log, appsConfig)
		c := sdkApps{connectSDK(t, &sdkmcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, mcp.Version20260728).(*sdkClient).cs}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		checkAppView(t, c.view(ctx, t))
		c.close()
		v := mcp.Version20260728
		log.verify(t, v+" resources/list", v+" resources/read", v+" tools/list")
		checkUIMeta(t, &log.Log)
	})
}

func checkAppView(t *testing.T, v appView) {
	t.Helper()
	if v.listedMime != "text/html;profile=mcp-app" || v.readMime != "text/html;profile=mcp-app" {
		t.Errorf("mime types: listed %q, read %q; want text/html;profile=mcp-app", v.listedMime, v.readMime)
	}
	if diff := cmp.Diff(map[string]any{"ui": wantDashboardUI}, v.listedMeta); diff != "" {
		t.Errorf("listed _meta (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"ui": wantDashboardUI}, v.readMeta); diff != "" {
		t.Errorf("read _meta (-want +got):\n%s", diff)
	}
	wantHead := "<head><meta http-equiv=\"Content-Security-Policy\" content=\"" + wantDashboardPolicy + "\">\n  <meta charset=\"utf-8\">"
	if !strings.Contains(v.readText, wantHead) || !strings.HasSuffix(v.readText, "</html>\n") {
		t.Errorf("the page does not start its head with the declared policy:\n%s", v.readText)
	}
	wantTools := map[string]map[string]any{
		"customer_totals": {"ui": map[string]any{"resourceUri": "ui://orders/dashboard"}, "ui/resourceUri": "ui://orders/dashboard"},
		"refresh_totals": {"ui": map[string]any{"resourceUri": "ui://orders/dashboard", "visibility": []any{"app"}},
			"ui/resourceUri": "ui://orders/dashboard"},
		"plain_tool": nil,
	}
	if diff := cmp.Diff(wantTools, v.toolMeta); diff != "" {
		t.Errorf("tools' _meta (-want +got):\n%s", diff)
	}
}

// checkUICapability checks that the MCP Apps extension is advertised where
// the revision has capabilities.extensions (2026-07-28) and nowhere else.
func checkUICapability(t *testing.T, log interface {
	Messages(rev, method string) []json.RawMessage
}, version string) {
	t.Helper()
	method := "initialize"
	if version == mcp.Version20260728 {
		method = "server/discover"
	}
	msgs := log.Messages(version, method)
	if len(msgs) == 0 {
		t.Fatalf("no %s result seen", method)
	}
	var m struct {
		Result struct {
			Capabilities struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"capabilities"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msgs[0], &m); err != nil {
		t.Fatal(err)
	}
	ext, ok := m.Result.Capabilities.Extensions["io.modelcontextprotocol/ui"]
	switch {
	case version == mcp.Version20260728 && (!ok || string(ext) != "{}"):
		t.Errorf("%s does not advertise the MCP Apps extension: %s", method, msgs[0])
	case version != mcp.Version20260728 && m.Result.Capabilities.Extensions != nil:
		t.Errorf("%s (%s) carries capabilities.extensions, which the revision does not define: %s", method, version, msgs[0])
	}
}

// TestAppsOldestRevision checks that 2025-03-26, whose resources and
// contents have no _meta, gets the app without it (mcp-go speaks it).
func TestAppsOldestRevision(t *testing.T) {
	requireSchemas(t)
	log := &wireLog{}
	u, _ := startHTTPInProcess(t, log, server.New(compileFile(t, appsConfig), nil))
	tr, err := mcpgotransport.NewStreamableHTTP(u)
	if err != nil {
		t.Fatal(err)
	}
	c := mcpgoApps{connectMCPGo(t, tr, mcp.Version20250326).(*mcpgoClient)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	v := c.view(ctx, t)
	c.close()
	if v.listedMeta != nil || v.readMeta != nil || v.toolMeta["customer_totals"] != nil {
		t.Errorf("2025-03-26 got _meta: listed %v, read %v, tool %v", v.listedMeta, v.readMeta, v.toolMeta["customer_totals"])
	}
	if !strings.Contains(v.readText, wantDashboardPolicy) {
		t.Errorf("2025-03-26 page lacks its policy:\n%s", v.readText)
	}
	r := mcp.Version20250326
	log.verify(t, r+" resources/list", r+" resources/read", r+" tools/list")
	for _, m := range log.All() {
		if strings.Contains(string(m.Body), `"_meta"`) && m.Method != "initialize" {
			t.Errorf("2025-03-26 %s carries _meta: %s", m.Method, m.Body)
		}
	}
}

// checkUIMeta validates every _meta.ui the server sent against the MCP
// Apps schema, and requires that there were some.
func checkUIMeta(t *testing.T, log *wiretest.Log) {
	t.Helper()
	wiretest.RequireExtApps(t)
	checked := 0
	for _, m := range log.All() {
		n, errs := wiretest.CheckUIMeta(m.Body)
		checked += n
		for _, err := range errs {
			t.Errorf("%s %s: %v", m.Rev, m.Method, err)
		}
	}
	// Two tools link an app, and the dashboard is listed and read: four
	// _meta.ui at least.
	if checked < 4 {
		t.Errorf("only %d _meta.ui objects checked against the MCP Apps schema; want at least 4", checked)
	}
}

// TestAppSubscription subscribes to an app's URI like any resource's,
// while a ui:// URI nothing serves is refused.
func TestAppSubscription(t *testing.T) {
	requireSchemas(t)
	log := &wireLog{}
	u, _ := startHTTPInProcess(t, log, server.New(compileFile(t, appsConfig), nil))
	c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, mcp.Version20251125).(*sdkClient)
	defer c.close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.cs.Subscribe(ctx, &sdkmcp.SubscribeParams{URI: "ui://orders/dashboard"}); err != nil {
		t.Errorf("subscribing to the app: %v", err)
	}
	if err := c.cs.Subscribe(ctx, &sdkmcp.SubscribeParams{URI: "ui://orders/nothing"}); err == nil {
		t.Error("subscribing to a URI nothing serves succeeded")
	}
	log.verify(t, mcp.Version20251125+" resources/subscribe")
}
