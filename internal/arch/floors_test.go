package arch_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// floors is the house: every package of the module stands on a floor, and
// its code (tests aside) imports only packages on lower floors. So the
// graph is layered one way, a package can be read knowing only what is
// below it, and a new package must be given a place before it builds.
// docs/architecture.md draws the same floors.
var floors = map[string]int{
	// 0: leaves, which know nothing of mcpdecl.
	"internal/rule":         0,
	"internal/english":      0,
	"internal/jsonenc":      0,
	"internal/memo":         0,
	"internal/lazyregexp":   0,
	"internal/parallel":     0,
	"internal/regularfile":  0,
	"internal/guessable":    0,
	"internal/fastschema":   0,
	"internal/udiff":        0,
	"internal/hostconfig":   0, // MCP hosts' files
	"internal/diagcode":     0,
	"internal/testenv":      0, // what a test needs, said in one line
	"internal/redisurl":     0,
	"internal/largecfg":     0, // generated configs for benchmarks
	"internal/largecfg/gen": 1, // its command
	"internal/loopbench":    0, // the loopback benchmark's peers and load (a command)
	"internal/jsondec":      1, // shares internal/rule's names
	"internal/hclfast":      1, // the fast HCL parser, fuzzed against hclsyntax
	"docs":                  0, // the documentation, embedded
	"langref":               1, // the language reference, read from docs

	// 2: the foundations, each alone: the language, expressions, the
	// protocol, token checks, the OpenAPI importer, logs and metrics.
	"lang":            2,
	"eval":            2,
	"mcp":             2,
	"auth":            2,
	"openapi":         2,
	"observe/logs":    2,
	"observe/metrics": 2,
	"limits":          2,
	"observe/audit":   2,

	// 3-5: backends: the contract, the shared checks, the kinds; and
	// the editor's index of names, which reads the language only.
	"adapter":                     3,
	"langindex":                   3,
	"adapters/internal/check":     4,
	"adapters/internal/checktest": 4,
	// the token endpoint client the http and mcp adapters share
	"adapters/internal/tokenclient": 4,
	"adapters/http":                 5,
	"adapters/sql":                  5,
	"adapters/shell":                5,
	"adapters/mcp":                  5,

	// 6: what a config is (the compiled table), and the set of backends.
	"table":        6,
	"adapters/all": 6,
	"langschema":   6, // the whole language as a tree, and its JSON Schema

	// 7: what a call does, and what lint says of a table.
	"dispatch": 7,
	"lint":     7,

	// 8: tasks, which run calls beyond a request; diagnostics for
	// people and tools.
	"tasks":    8,
	"diagtext": 8,

	// 9: the protocol glue.
	"server": 9,

	// 10: what watches the server, and calls made without the protocol.
	"observe/tracing": 10,
	"testrun":         10,

	// 11: serving's lifecycle; 12: the language server; 13: the
	// command line.
	"serving":     11,
	"lsp":         12,
	"cmd/mcpdecl": 13,

	// 14: test harnesses and test-only packages, over everything.
	"testkit/wiretest": 14,
	"testkit/authtest": 14,
	"testkit/apptest":  14,
	"testkit/e2e":      14,
	"testkit/docs":     14,
	"testkit/vscode":   14, // the VS Code extension's grammar and detection
	"testkit/neovim":   14, // README's Neovim snippet in a real Neovim
	"internal/arch":    14,
}

// layering returns what breaks the floors in graph (a package's
// mcpdecl-relative path to those of its imports): a package without a
// floor, and an import of a package on the same floor or above.
func layering(floors map[string]int, graph map[string][]string) []string {
	var bad []string
	for pkg, imports := range graph {
		floor, ok := floors[pkg]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no floor: give it one in internal/arch/floors_test.go and docs/architecture.md", pkg))
			continue
		}
		for _, imp := range imports {
			to, ok := floors[imp]
			if ok && to < floor {
				continue
			}
			if ok {
				bad = append(bad, fmt.Sprintf("%s (floor %d) imports %s (floor %d): a package may import only packages on lower floors", pkg, floor, imp, to))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// moduleGraph lists each package of the module with its non-test imports
// of the module.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(pkg.ImportPath, module)
		graph[rel] = []string{}
		for _, imp := range pkg.Imports {
			if r, ok := strings.CutPrefix(imp, module); ok {
				graph[rel] = append(graph[rel], r)
			}
		}
	}
	return graph
}

func TestFloors(t *testing.T) {
	graph := moduleGraph(t)
	for _, problem := range layering(floors, graph) {
		t.Error(problem)
	}
	for pkg := range floors {
		if _, ok := graph[pkg]; !ok {
			t.Errorf("floors names %s, which is no package of the module: remove it", pkg)
		}
	}
}

// TestFloorsCatchWrongImports proves the check fails: the real graph with
// one wrong import added, in each direction that matters.
func TestFloorsCatchWrongImports(t *testing.T) {
	wrong := []struct{ from, to string }{
		{"table", "dispatch"},     // the compiled table calling into the interpreter
		{"dispatch", "server"},    // the interpreter reaching the protocol glue
		{"mcp", "lang"},           // the protocol knowing the language
		{"tasks", "server"},       // tasks using the server beyond its interface
		{"internal/rule", "eval"}, // a leaf importing the house
		{"adapters/http", "adapters/all"},
		{"lang", "lang"}, // a floor is not below itself
	}
	real := moduleGraph(t)
	for _, w := range wrong {
		graph := maps.Clone(real)
		graph[w.from] = append(slices.Clone(graph[w.from]), w.to)
		problems := layering(floors, graph)
		want := fmt.Sprintf("%s (floor %d) imports %s (floor %d)", w.from, floors[w.from], w.to, floors[w.to])
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("an import of %s by %s was not caught; problems: %q", w.to, w.from, problems)
		}
	}
	graph := map[string][]string{"newroom": {"mcp"}}
	if problems := layering(floors, graph); len(problems) != 1 || !strings.Contains(problems[0], "newroom has no floor") {
		t.Errorf("a package without a floor was not caught: %q", problems)
	}
}

// TestArchitectureDocDrawsTheFloors keeps the drawing of the house in
// docs/architecture.md equal to floors: every package on its floor.
func TestArchitectureDocDrawsTheFloors(t *testing.T) {
	text, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, drawing, ok := strings.Cut(string(text), "floor  packages\n")
	if !ok {
		t.Fatal(`docs/architecture.md has no drawing of the floors (a code block starting "floor  packages")`)
	}
	drawing, _, _ = strings.Cut(drawing, "```")
	drawn := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(drawing), "\n") {
		fields := strings.Fields(line)
		floor, err := strconv.Atoi(fields[0])
		if err != nil || len(fields) < 2 {
			t.Fatalf("docs/architecture.md: a line of the drawing is not a floor number and packages: %q", line)
		}
		for _, pkg := range fields[1:] {
			drawn[pkg] = floor
		}
	}
	for pkg, floor := range floors {
		if got, ok := drawn[pkg]; !ok || got != floor {
			t.Errorf("docs/architecture.md draws %s on floor %d (0 when absent); internal/arch has it on floor %d", pkg, got, floor)
		}
	}
	for pkg := range drawn {
		if _, ok := floors[pkg]; !ok {
			t.Errorf("docs/architecture.md draws %s, which has no floor in internal/arch", pkg)
		}
	}
}
