package server_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

const toolsetsConfig = "testdata/toolsets.hcl"

// toolsetsSecret is the default of the sensitive variable of toolsetsConfig.
const toolsetsSecret = "KEY-7d1c-secret-value"

func compileToolsetsTable(t *testing.T, path string) *table.Table {
	t.Helper()
	cfg, diags := lang.Load(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl
}

// toolsetClients connects both real clients to an endpoint, in one era.
var toolsetClients = []struct {
	name    string
	connect func(t *testing.T, url, version string) interopClient
	stdio   func(t *testing.T, p *stdioProcess, version string) interopClient
}{
	{"go-sdk", func(t *testing.T, url, version string) interopClient {
		return connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: url}, version)
	}, func(t *testing.T, p *stdioProcess, version string) interopClient {
		return connectSDK(t, &sdkmcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, version)
	}},
	{"mcp-go", func(t *testing.T, url, version string) interopClient {
		tr, err := mcpgotransport.NewStreamableHTTP(url)
		if err != nil {
			t.Fatal(err)
		}
		return connectMCPGo(t, tr, version)
	}, func(t *testing.T, p *stdioProcess, version string) interopClient {
		return connectMCPGo(t, mcpgotransport.NewIO(p.stdout, p.stdin, io.NopCloser(strings.NewReader(""))), version)
	}},
}

// reposScenario: an endpoint serving the toolset "repos" lists its two
// tools only, calls them, and refuses a tool of the configuration outside
// it as an unknown tool.
func reposScenario(t *testing.T, c interopClient) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	names, err := c.listTools(ctx)
	if err != nil || !slices.Equal(names, []string{"repo_list", "repo_get"}) {
		t.Errorf("tools/list: %v, %v; want [repo_list repo_get]", names, err)
	}
	text, _, isErr, err := c.callTool(ctx, "repo_list", map[string]any{"owner": "ada"})
	if err != nil || isErr || text != "repos of ada" {
		t.Errorf("repo_list: %q %v %v", text, isErr, err)
	}
	for _, outside := range []string{"issue_create", "admin_purge", "search_tools"} {
		_, _, _, err = c.callTool(ctx, outside, map[string]any{"title": "hello"})
		if err == nil || c.code(err) != mcp.CodeInvalidParams && c.code(err) != -1 || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("%s outside the toolset: %v (code %d); want unknown tool", outside, err, c.code(err))
		}
	}
}

// workScenario: the dynamic toolset "work" lists the three meta-tools;
// through them the model finds, describes and calls its tools, and a
// call through call_tool is the direct call: its argument schema refuses,
// a sensitive value comes out redacted, a step runs.
func workScenario(t *testing.T, c interopClient) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	names, err := c.listTools(ctx)
	if err != nil || !slices.Equal(names, []string{"search_tools", "describe_tool", "call_tool"}) {
		t.Errorf("tools/list: %v, %v; want the three meta-tools", names, err)
	}
	text, structured, isErr, err := c.callTool(ctx, "search_tools", map[string]any{"query": "open an issue"})
	var found struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	b, _ := json.Marshal(structured)
	_ = json.Unmarshal(b, &found)
	if err != nil || isErr || len(found.Tools) == 0 || found.Tools[0].Name != "issue_create" {
		t.Errorf("search_tools: %s %s %v %v", text, b, isErr, err)
	}
	text, _, _, _ = c.callTool(ctx, "search_tools", map[string]any{"query": "repositories"})
	if strings.Contains(text, "repo_") {
		t.Errorf("search_tools finds tools outside the toolset: %s", text)
	}
	text, _, isErr, err = c.callTool(ctx, "describe_tool", map[string]any{"name": "issue_create"})
	if err != nil || isErr || !strings.Contains(text, `"minLength":3`) || !strings.Contains(text, `"inputSchema"`) {
		t.Errorf("describe_tool: %s %v %v", text, isErr, err)
	}
	text, _, isErr, err = c.callTool(ctx, "call_tool", map[string]any{"name": "issue_create", "arguments": map[string]any{"title": "x"}})
	if err != nil || !isErr || !strings.Contains(text, "argument title") {
		t.Errorf("call_tool with a title too short: %q %v %v; want the schema's refusal", text, isErr, err)
	}
	text, _, isErr, err = c.callTool(ctx, "call_tool", map[string]any{"name": "issue_create", "arguments": map[string]any{"title": "broken"}})
	if err != nil || isErr || text != "opened: broken" {
		t.Errorf("call_tool issue_create: %q %v %v", text, isErr, err)
	}
	text, _, isErr, err = c.callTool(ctx, "call_tool", map[string]any{"name": "leak", "arguments": map[string]any{}})
	if err != nil || isErr || strings.Contains(text, toolsetsSecret) || !strings.Contains(text, "[redacted]") {
		t.Errorf("call_tool leak: %q %v %v; want the key redacted", text, isErr, err)
	}
	text, _, isErr, err = c.callTool(ctx, "call_tool", map[string]any{"name": "stepped"})
	if err != nil || isErr || text != "step said: from the step" {
		t.Errorf("call_tool stepped: %q %v %v", text, isErr, err)
	}
	text, _, isErr, err = c.callTool(ctx, "call_tool", map[string]any{"name": "repo_list", "arguments": map[string]any{"owner": "x"}})
	if err != nil || !isErr || !strings.Contains(text, `no tool "repo_list"`) {
		t.Errorf("call_tool of a tool outside the toolset: %q %v %v", text, isErr, err)
	}
	_, _, _, err = c.callTool(ctx, "repo_list", map[string]any{"owner": "x"})
	if err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("direct call of a tool outside the toolset: %v; want unknown tool", err)
	}
}

// TestToolsetsRealClients serves the toolsets of toolsetsConfig to go-sdk
// and mcp-go in both eras: over the binary's HTTP listener at
// /mcp/toolsets/NAME, in process through server.View, and over stdio
// with serve --toolset. Every server message is schema-checked.
func TestToolsetsRealClients(t *testing.T) {
	requireSchemas(t)
	tbl := compileToolsetsTable(t, toolsetsConfig)
	for _, e := range eras {
		for _, cl := range toolsetClients {
			want := []string{e.version + " tools/list", e.version + " tools/call"}
			t.Run("http-binary/"+cl.name+"/"+e.name, func(t *testing.T) {
				log := &wireLog{}
				u := startHTTPBinary(t, log, toolsetsConfig)
				c := cl.connect(t, u+"/toolsets/repos", e.version)
				reposScenario(t, c)
				c.close()
				c = cl.connect(t, u+"/toolsets/work", e.version)
				workScenario(t, c)
				c.close()
				log.verify(t, want...)
			})
			t.Run("http/"+cl.name+"/"+e.name, func(t *testing.T) {
				log := &wireLog{}
				srv := server.New(tbl, nil)
				u, _ := startHTTPInProcess(t, log, srv.View([]string{"repos"}, false))
				c := cl.connect(t, u, e.version)
				reposScenario(t, c)
				c.close()
				view := srv.View([]string{"work"}, false)
				if listed, _ := view.ListTools(context.Background(), &mcp.Request{Era: e.era}); len(listed) != 3 || listed[2].TaskSupport != "" {
					t.Errorf("meta-tools of a toolset without task tools: %+v", listed)
				}
				u, _ = startHTTPInProcess(t, log, view)
				c = cl.connect(t, u, e.version)
				workScenario(t, c)
				c.close()
				log.verify(t, want...)
			})
			t.Run("stdio/"+cl.name+"/"+e.name, func(t *testing.T) {
				log := &wireLog{}
				p := startStdio(t, log, "--toolset", "repos", toolsetsConfig)
				c := cl.stdio(t, p, e.version)
				reposScenario(t, c)
				c.close()
				p = startStdio(t, log, "--toolset", "work", toolsetsConfig)
				c = cl.stdio(t, p, e.version)
				workScenario(t, c)
				c.close()
				log.verify(t, want...)
			})
		}
	}
}
