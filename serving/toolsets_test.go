package serving

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const toolsetsConfig = reloadConfigA + `
tool "shout" {
  description = "Shout a word."
  arg "word" {
    type = string
  }
  result {
    text = "upper(args.word) + '!'"
  }
}
toolset "loud" {
  tools = ["shout"]
}
`

// TestToolsetEndpoints: over HTTP each toolset has its endpoint, and
// --toolset limits the MCP endpoint to its tools; a reload that adds a
// toolset serves it, one that drops the toolset --toolset names is
// refused and the previous configuration keeps serving.
func TestToolsetEndpoints(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, toolsetsConfig)
	var logs lockedBuffer
	inst, err := Start(context.Background(), Options{
		Paths: []string{config}, HTTP: "127.0.0.1:0", Toolsets: []string{"loud"},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), DrainTimeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	base := "http://" + inst.Addr().String() + "/mcp"
	if got := toolNames(t, base); !slices.Equal(got, []string{"shout"}) {
		t.Errorf("the MCP endpoint with --toolset loud: %v", got)
	}
	if got := toolNames(t, base+"/toolsets/loud"); !slices.Equal(got, []string{"shout"}) {
		t.Errorf("/mcp/toolsets/loud: %v", got)
	}
	if !strings.Contains(logs.String(), "serving the toolset loud on http://") {
		t.Errorf("the toolset's endpoint is not logged:\n%s", logs.String())
	}
	resp, err := http.Post(base+"/toolsets/quiet", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown toolset: %d", resp.StatusCode)
	}

	writeFile(t, config, toolsetsConfig+"toolset \"polite\" {\n  tools = [\"greet\"]\n}\n")
	if err := inst.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, base+"/toolsets/polite"); !slices.Equal(got, []string{"greet"}) {
		t.Errorf("a toolset added by a reload: %v", got)
	}
	writeFile(t, config, strings.Replace(toolsetsConfig, `toolset "loud"`, `toolset "louder"`, 1))
	if err := inst.Reload(); err == nil || !strings.Contains(err.Error(), `--toolset loud`) || !strings.Contains(err.Error(), `"louder"`) {
		t.Errorf("a reload dropping the --toolset: %v", err)
	}
	if got := toolNames(t, base); !slices.Equal(got, []string{"shout"}) {
		t.Errorf("after the refused reload: %v", got)
	}
}

// TestStartUnknownToolset: --toolset of no toolset is refused at start.
func TestStartUnknownToolset(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, toolsetsConfig)
	_, err := Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0", Toolsets: []string{"lod"}})
	if err == nil || !strings.Contains(err.Error(), `Did you mean "loud"?`) {
		t.Errorf("Start: %v", err)
	}
}

// TestServeDynamic: Options.Dynamic (serve --dynamic) shows the
// meta-tools at the MCP endpoint and at each toolset's.
func TestServeDynamic(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, toolsetsConfig)
	inst, err := Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0", Dynamic: true, DrainTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	base := "http://" + inst.Addr().String() + "/mcp"
	for _, url := range []string{base, base + "/toolsets/loud"} {
		if got := toolNames(t, url); !slices.Equal(got, []string{"search_tools", "describe_tool", "call_tool"}) {
			t.Errorf("%s: %v", url, got)
		}
	}
	res := post(t, base+"/toolsets/loud", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"shout","arguments":{"word":"hey"}}}}`)
	if b, _ := json.Marshal(res); !strings.Contains(string(b), "HEY!") {
		t.Errorf("call_tool shout: %s", b)
	}
}
