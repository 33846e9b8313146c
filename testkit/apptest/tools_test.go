package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// chromiumPath is where Debian's chromium package puts the browser; the
// driver launches exactly this one.
const chromiumPath = "/usr/bin/chromium"

// browserTools are the programs and files the browser test needs.
type browserTools struct {
	root    string // the repository
	node    string
	modules string // node_modules of scripts/apps/package.json
}

// needBrowserTools finds the tools scripts/browser.sh installs, or skips
// the test naming what is missing (fails under CI, which runs the script).
func needBrowserTools(t *testing.T) browserTools {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tools := os.Getenv("MCPDECL_TOOLS_DIR")
	if tools == "" {
		tools = filepath.Join(root, ".tools")
	}
	bt := browserTools{root: root, modules: filepath.Join(tools, "apps", "node_modules")}
	var missing []string
	if bt.node, err = exec.LookPath("node"); err != nil {
		missing = append(missing, "node (on PATH)")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		missing = append(missing, chromiumPath)
	}
	for _, pkg := range []string{"playwright-core", "esbuild", "@modelcontextprotocol/ext-apps", "@modelcontextprotocol/client"} {
		if _, err := os.Stat(filepath.Join(bt.modules, pkg, "package.json")); err != nil {
			missing = append(missing, filepath.Join(bt.modules, pkg))
		}
	}
	if len(missing) > 0 {
		testenv.Require(t, "Chromium, node and the browser test's npm packages (missing: "+strings.Join(missing, ", ")+")", "run ./scripts/browser.sh")
	}
	return bt
}
