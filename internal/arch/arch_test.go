// Package arch_test keeps the import rules of the architecture true:
// cmd → serving → server → {table, dispatch, mcp, auth, tasks}; server is protocol
// glue and imports nothing else of mcpdecl but the token checks, the task
// runner and the shared leaf rules; tasks → {table, dispatch, mcp} and
// never server; dispatch → table (one way); table → adapter ← adapters/*;
// internal/fastschema is a leaf; lang
// imports no adapter; mcp imports no other mcpdecl package but the leaf
// internal/jsonenc; eval depends on hcl, cty and expr only; internal/rule
// imports no mcpdecl package.
package arch_test

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mcpdecl/mcpdecl/"

// forbidden maps a package to the mcpdecl packages it must not depend on,
// directly or indirectly.
var forbidden = map[string][]string{
	"lang":     {"eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd"},
	"eval":     {"lang", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd"},
	"adapter":  {"lang", "adapters", "table", "dispatch", "mcp", "server", "cmd"},
	"adapters": {"lang", "table", "dispatch", "mcp", "server", "cmd"},
	// table is what a configuration is: the compiler and its output. It
	// knows nothing of the calls dispatch runs on it.
	"table": {"adapters", "dispatch", "mcp", "server", "cmd"},
	// dispatch runs calls on a table; adapters reach it only through the
	// adapter interfaces.
	"dispatch": {"adapters", "mcp", "server", "cmd"},
	"mcp":      {"lang", "eval", "adapter", "adapters", "table", "dispatch", "server", "cmd"},
	"lint":     {"adapters", "mcp", "server", "cmd"}, // adapters only through the adapter interfaces
	// jsonenc is a leaf: the protocol layer may use it.
	"internal/jsonenc": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// jsondec is a leaf: adapters decode answers and the server arguments with it.
	"internal/jsondec": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// auth is the resource server's token checking: it knows nothing of the
	// language, the table or the protocol, so table (auth.Config in the
	// table), dispatch and the server (the verifier of a generation) can
	// use it.
	"auth": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// tasks runs the calls of tools with a task block and keeps them in
	// its stores; the server uses it, never the other way round.
	"tasks": {"adapters", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// metrics is a leaf: it counts what the server and the protocol
	// layer report through their own hooks (server.Observer,
	// mcp.Options.OnRequest), so neither imports Prometheus and it
	// imports neither.
	"observe/metrics": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// apppages only looks at files: the tests of lang, table and lint
	// use it to skip an example whose app page is not built.
	"internal/apppages": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// tracing makes spans of what the server and the table report through
	// their hooks (server.Tracer, adapter.Observer); serving wires it.
	"observe/tracing": {"adapters", "cmd", "testkit/wiretest", "testkit/e2e"},
	// regularfile is a leaf: adapters, lint, the test runner and cmd read
	// the operator's files through it.
	"internal/regularfile": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// memo is a leaf: tracing and metrics keep their hot-path values in it.
	"internal/memo": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// guessable is a leaf: serving checks the signing keys and table the
	// config's static tokens with it.
	"internal/guessable": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// english is a leaf: every package that builds messages may use it.
	"internal/english": {"lang", "eval", "adapter", "adapters", "table", "dispatch", "mcp", "server", "cmd", "testkit/wiretest", "testkit/e2e"},
	// serving runs a configuration as a server: it may import everything
	// below it, never the command line (TestOnlyCmdImportsServing: only
	// cmd imports it).
	"serving": {"cmd", "testkit"},
	// diagtext renders diagnostics: it knows lint's codes, nothing that
	// runs a configuration.
	"diagtext": {"adapters", "dispatch", "tasks", "mcp", "server", "serving", "testrun", "cmd", "testkit"},
}

// TestOnlyCmdImportsServing: the serving lifecycle is the command line's
// (and an embedding program's); no package of mcpdecl but cmd depends on
// it.
func TestOnlyCmdImportsServing(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		rel := strings.TrimPrefix(fields[0], module)
		if rel == "serving" || strings.HasPrefix(rel, "cmd/") {
			continue
		}
		if slices.Contains(fields[1:], module+"serving") {
			t.Errorf("%s imports serving: only cmd may", rel)
		}
	}
}

func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var pkg struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(pkg.ImportPath, module)
		for owner, bans := range forbidden {
			if rel != owner && !strings.HasPrefix(rel, owner+"/") {
				continue
			}
			for _, dep := range pkg.Deps {
				d := strings.TrimPrefix(dep, module)
				if d == dep {
					continue
				}
				for _, ban := range bans {
					if d == ban || strings.HasPrefix(d, ban+"/") {
						t.Errorf("%s imports %s, which the architecture forbids", rel, d)
					}
				}
			}
		}
	}
}

// directOnly lists packages whose own (non-test) imports of mcpdecl
// packages are limited to these: the server is glue between the table
// (compiled), dispatch (which runs calls on it) and the protocol, so it
// reaches no adapter, expression or language package itself. It uses
// auth, the token checks, because each served generation owns the
// verifier built from its auth block and the HTTP challenge of a missing
// scope is the glue's to write. It uses tasks, the task runner, through a
// narrow interface of its own.
var directOnly = map[string][]string{
	"server": {"table", "dispatch", "mcp", "auth", "internal/rule", "tasks"},
	// The task runner sees the wire types and the table's tools; what it
	// needs of the server (running a call, asking the client, who is
	// calling) it is given.
	"tasks": {"table", "dispatch", "mcp", "auth", "internal/english", "internal/jsonenc", "internal/rule"},
}

func TestDirectImports(t *testing.T) {
	for pkg, allowed := range directOnly {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", "../../"+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			if rel, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(allowed, rel) {
				t.Errorf("%s imports %s: it may import only %s of mcpdecl", pkg, rel, strings.Join(allowed, ", "))
			}
		}
	}
}

// TestAdaptersIndependent checks that no adapter imports another, so each
// can be read and tested alone.
func TestAdaptersIndependent(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../adapters/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		self := fields[0]
		if strings.HasSuffix(self, "/all") {
			continue
		}
		for _, imp := range fields[1:] {
			for _, a := range []string{"http", "sql", "shell"} {
				if imp == module+"adapters/"+a && imp != self {
					t.Errorf("%s imports %s; adapters must not import each other", self, imp)
				}
			}
		}
	}
}

// stdlibOnly lists the packages that import only the standard library,
// with the mcpdecl packages each may import besides.
var stdlibOnly = map[string][]string{
	"mcp":                  {"internal/jsonenc"},
	"internal/jsonenc":     nil,
	"internal/english":     nil,
	"internal/regularfile": nil,
	"internal/memo":        nil,
	"internal/guessable":   nil,
	"internal/udiff":       nil,
	"internal/jsondec":     {"internal/rule"},
}

// TestStdlibOnly keeps the protocol layer and its JSON encoder free of
// third-party imports in non-test code, so they can be read and trusted
// alone.
func TestStdlibOnly(t *testing.T) {
	for pkg, allowed := range stdlibOnly {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", "../../"+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			first, _, _ := strings.Cut(imp, "/")
			if !strings.Contains(first, ".") {
				continue // the standard library
			}
			if rel, ok := strings.CutPrefix(imp, module); ok && slices.Contains(allowed, rel) {
				continue
			}
			t.Errorf("%s imports %s: it may import the standard library only%s", pkg, imp, besides(allowed))
		}
	}
}

func besides(allowed []string) string {
	if len(allowed) == 0 {
		return ""
	}
	return " and " + strings.Join(allowed, ", ")
}

// TestRuleIsALeaf keeps internal/rule free of every mcpdecl package, so
// that any of them, the JSON decoder included, may share its rules; of
// third-party code it uses the Levenshtein distance alone.
func TestRuleIsALeaf(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{join .Deps \"\\n\"}}", "../../internal/rule").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const allowed = "github.com/agext/levenshtein"
	for _, dep := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(dep, "/")
		if !strings.Contains(first, ".") || dep == allowed {
			continue // the standard library, or the distance
		}
		t.Errorf("internal/rule depends on %s: it may use the standard library and %s only", dep, allowed)
	}
}

// TestFastSchemaIsALeaf keeps internal/fastschema, the table's fast JSON
// Schema checker, free of every mcpdecl package: it knows JSON Schema and
// nothing of mcpdecl.
func TestFastSchemaIsALeaf(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{join .Deps \"\\n\"}}", "../../internal/fastschema").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, module) {
			t.Errorf("internal/fastschema depends on %s: it may import no mcpdecl package", dep)
		}
	}
}

// otelAllowed are the packages that may depend on OpenTelemetry: the
// tracing package, serving, which starts it, and the command that runs
// serving. Everything else reports
// through hooks, so spans are made, and their contents chosen, in one
// place.
var otelAllowed = []string{"observe/tracing", "serving", "cmd/mcpdecl"}

func TestOpenTelemetryOnlyInTracing(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		rel := strings.TrimPrefix(fields[0], module)
		if slices.Contains(otelAllowed, rel) {
			continue
		}
		for _, dep := range fields[1:] {
			if strings.HasPrefix(dep, "go.opentelemetry.io/") {
				t.Errorf("%s depends on %s: only %s may use OpenTelemetry", rel, dep, strings.Join(otelAllowed, " and "))
				break
			}
		}
	}
}
