package wiretest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ExtAppsSchemaPath is where scripts/ext-apps.sh installs the MCP Apps
// extension's schema (MCPDECL_EXT_APPS_SCHEMA names another file).
func ExtAppsSchemaPath() string {
	if p := os.Getenv("MCPDECL_EXT_APPS_SCHEMA"); p != "" {
		return p
	}
	tools := os.Getenv("MCPDECL_TOOLS_DIR")
	if tools == "" {
		_, file, _, _ := runtime.Caller(0)
		tools = filepath.Join(filepath.Dir(file), "..", "..", ".tools")
	}
	return filepath.Join(tools, "ext-apps", "node_modules", "@modelcontextprotocol", "ext-apps", "dist", "src", "generated", "schema.json")
}

var extApps struct {
	once           sync.Once
	err            error
	tool, resource *jsonschema.Schema
}

func loadExtApps() error {
	extApps.once.Do(func() {
		f, err := os.Open(ExtAppsSchemaPath())
		if err != nil {
			extApps.err = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			extApps.err = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("mcp-apps://schema.json", doc); err != nil {
			extApps.err = err
			return
		}
		if extApps.tool, err = c.Compile("mcp-apps://schema.json#/$defs/McpUiToolMeta"); err != nil {
			extApps.err = err
			return
		}
		extApps.resource, extApps.err = c.Compile("mcp-apps://schema.json#/$defs/McpUiResourceMeta")
	})
	return extApps.err
}

// RequireExtApps skips a test when the MCP Apps schema is not installed,
// and fails it under CI, where .ci/run installs it.
func RequireExtApps(t testing.TB) {
	t.Helper()
	if err := loadExtApps(); err != nil {
		msg := fmt.Sprintf("the MCP Apps schema (@modelcontextprotocol/ext-apps) is not installed (%v); run scripts/ext-apps.sh, as .ci/run does", err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// CheckUIMeta validates every _meta.ui in a server message against the
// MCP Apps schema: a tools/list entry's against McpUiToolMeta, a
// resources/list entry's and a resources/read contents' against
// McpUiResourceMeta. It returns how many it checked and the problems.
func CheckUIMeta(msg []byte) (int, []error) {
	if err := loadExtApps(); err != nil {
		return 0, []error{err}
	}
	var m struct {
		Result struct {
			Tools     []metaHolder `json:"tools"`
			Resources []metaHolder `json:"resources"`
			Contents  []metaHolder `json:"contents"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return 0, []error{fmt.Errorf("not JSON: %v", err)}
	}
	n := 0
	var errs []error
	check := func(items []metaHolder, s *jsonschema.Schema, def string) {
		for _, it := range items {
			ui, ok := it.Meta["ui"]
			if !ok {
				continue
			}
			n++
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ui))
			if err == nil {
				err = s.Validate(inst)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("_meta.ui is not a %s: %v\n%s", def, err, ui))
			}
		}
	}
	check(m.Result.Tools, extApps.tool, "McpUiToolMeta")
	check(m.Result.Resources, extApps.resource, "McpUiResourceMeta")
	check(m.Result.Contents, extApps.resource, "McpUiResourceMeta")
	return n, errs
}

type metaHolder struct {
	Meta map[string]json.RawMessage `json:"_meta"`
}
