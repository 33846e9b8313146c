// Package arch_test keeps the architecture of docs/architecture.md true.
// The floors (floors_test.go) give every package a floor and let it
// import only lower floors; the rules here say what floors cannot: the
// few packages each room may import directly (server, tasks), the
// packages that use the standard library only, that adapters stay
// independent and reached through their interfaces, that only cmd starts
// serving, and that OpenTelemetry stays in tracing.
package arch_test

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mcpdecl/mcpdecl/"

// never lists, for a package (or a folder of packages), the packages of
// the module it must not depend on, directly or indirectly, although
// their floors are lower: rules the floors alone cannot say.
var never = map[string][]string{
	// The table, the interpreter, lint, the tasks, the server and
	// tracing meet backends only through the adapter interfaces; only
	// adapters/all lists the kinds, for serving, testrun and cmd.
	"table":           {"adapters"},
	"dispatch":        {"adapters"},
	"lint":            {"adapters"},
	"tasks":           {"adapters"},
	"server":          {"adapters"},
	"observe/tracing": {"adapters"},
	"diagtext":        {"adapters", "dispatch"},
	// Backends know nothing of the language: a call block's body reaches
	// them undecoded, and they decode it with their own schema.
	"adapter":  {"lang"},
	"adapters": {"lang"},
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

func TestNever(t *testing.T) {
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
		for owner, bans := range never {
			if rel != owner && !strings.HasPrefix(rel, owner+"/") {
				continue
			}
			for _, dep := range pkg.Deps {
				d, ok := strings.CutPrefix(dep, module)
				if !ok {
					continue
				}
				for _, ban := range bans {
					if d == ban || strings.HasPrefix(d, ban+"/") {
						t.Errorf("%s depends on %s, which the architecture forbids", rel, d)
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
// narrow interface of its own, and observe/logs to mark each call's
// context for its log lines. It applies the limit blocks through
// limits and writes each call's audit record through observe/audit.
var directOnly = map[string][]string{
	"server": {"table", "dispatch", "mcp", "auth", "internal/rule", "tasks", "observe/logs", "observe/audit", "limits"},
	// The task runner sees the wire types and the table's tools; what it
	// needs of the server (running a call, asking the client, who is
	// calling) it is given.
	"tasks": {"table", "dispatch", "mcp", "auth", "internal/english", "internal/jsonenc", "internal/rule", "internal/redisurl"},
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
			for _, a := range []string{"http", "sql", "shell", "mcp"} {
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
	"internal/lazyregexp":  nil,
	"internal/parallel":    nil,
	"internal/guessable":   nil,
	"internal/udiff":       nil,
	"internal/hostconfig":  nil,
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

// TestNoGRPCInBinary: traces go over OTLP/HTTP with an exporter of our
// own, so the binary links no gRPC stack (the SDK's OTLP/HTTP exporter
// pulled in grpc, grpc-gateway and genproto through its options).
func TestNoGRPCInBinary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/mcpdecl").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"google.golang.org/grpc", "github.com/grpc-ecosystem", "google.golang.org/genproto"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("cmd/mcpdecl depends on %s: the binary must not link a gRPC stack", dep)
			}
		}
	}
}
