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

// ExtAppsSchemaPath is the MCP Apps extension's schema, kept in the
// repository (testdata/ext-apps/README.md says where it comes from).
func ExtAppsSchemaPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "ext-apps", "schema.json")
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

// RequireExtApps fails a test when the MCP Apps schema of
// testdata/ext-apps does not load.
func RequireExtApps(t testing.TB) {
	t.Helper()
	if err := loadExtApps(); err != nil {
		t.Fatalf("the MCP Apps schema of testdata/ext-apps: %v", err)
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
