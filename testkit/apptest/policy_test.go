package apptest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestAppPolicyFollowsDeclaredDomains: the host builds the app frame's
// policy from the resource's _meta.ui.csp, so the app reaches the origin
// its app block declares (connect_domains) and no other; the request to
// the other never leaves the browser. The host speaks 2026-07-28 here (the
// orders test speaks 2025-11-25), and what it received of the app is
// checked against the ext-apps schema.
func TestAppPolicyFollowsDeclaredDomains(t *testing.T) {
	bt := needBrowserTools(t)
	bin := buildMcpdecl(t)
	declared, declaredHits := countingServer(t)
	other, otherHits := countingServer(t)
	mcpURL := serveHTTP(t, bin, "--cors", "--var", "allowed="+declared, filepath.Join(bt.root, "testkit", "apptest", "testdata", "probe.hcl"))
	hostURL, sandboxURL := buildHost(t, bt)

	out := drive(t, bt, driverInput{
		Modules:  bt.modules,
		HostURL:  hostURL + "?era=modern&server=" + mcpURL + "&sandbox=" + sandboxURL,
		Scenario: "probe",
		Probes:   []string{declared + "/declared", other + "/other"},
	})
	if want := "connect-src " + declared + ";"; !strings.Contains(out.Policy.Host, want) {
		t.Errorf("the host's policy %q lacks %q", out.Policy.Host, want)
	}
	if len(out.Probes) != 2 {
		t.Fatalf("want two probes, got %+v", out.Probes)
	}
	if p := out.Probes[0]; !p.Fetched || p.Violation != nil || declaredHits.Load() != 1 {
		t.Errorf("the app could not fetch the declared origin %s: %+v (%d requests arrived)", declared, p, declaredHits.Load())
	}
	p := out.Probes[1]
	if p.Fetched || p.Violation == nil || p.Violation.Directive != "connect-src" || !strings.HasPrefix(p.Violation.Blocked, other) {
		t.Errorf("the app's fetch of the undeclared origin %s was not blocked by connect-src: %+v", other, p)
	}
	if n := otherHits.Load(); n != 0 {
		t.Errorf("%d requests reached the undeclared origin %s", n, other)
	}
	checkModernApp(t, bt, out, declared)
}

// checkModernApp checks what a 2026-07-28 host received of the probe app.
func checkModernApp(t *testing.T, bt browserTools, out driverOutput, declared string) {
	t.Helper()
	if out.Host.ProtocolVersion != "2026-07-28" {
		t.Errorf("the host spoke %q, want 2026-07-28", out.Host.ProtocolVersion)
	}
	if ext, _ := out.Host.Capabilities["extensions"].(map[string]any); ext == nil || ext["io.modelcontextprotocol/ui"] == nil {
		t.Errorf("server/discover advertised %v, want the extension io.modelcontextprotocol/ui", out.Host.Capabilities)
	}
	var tool map[string]any
	for _, tl := range out.Host.Tools {
		if tl["name"] == "show_probe" {
			tool = tl
		}
	}
	meta, _ := tool["_meta"].(map[string]any)
	validate(t, extAppsSchema(t, bt, "McpUiToolMeta"), "tools/list show_probe _meta.ui", meta["ui"])
	if len(out.Host.Read.Contents) != 1 {
		t.Fatalf("resources/read: want one content, got %d", len(out.Host.Read.Contents))
	}
	cmeta, _ := out.Host.Read.Contents[0]["_meta"].(map[string]any)
	validate(t, extAppsSchema(t, bt, "McpUiResourceMeta"), "resources/read _meta.ui", cmeta["ui"])
	want := fmt.Sprintf("map[csp:map[connectDomains:[%s]]]", declared)
	if got := fmt.Sprint(cmeta["ui"]); got != want {
		t.Errorf("resources/read _meta.ui = %s, want %s", got, want)
	}
}

// countingServer is a loopback origin that answers every request and
// counts them.
func countingServer(t *testing.T) (string, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprintln(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &hits
}
