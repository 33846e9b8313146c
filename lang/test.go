package lang

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Test is a `test` block: one call made on the configuration (a tool, a
// prompt or a resource read) and what its result must look like, with the
// answers of its HTTP backends (mock blocks) and the data of its SQLite
// backends (sqlite blocks). Tests are decoded here and checked and run by
// `mcpdecl test`; serving a configuration ignores them.
type Test struct {
	Name      string    `hcl:"name,label"`
	NameRange hcl.Range `hcl:"name,label_range"`
	// Call is tool.<name> or prompt.<name>; Resource is a URI. Exactly one
	// of the two is set.
	Call     *hcl.Attribute `hcl:"call,optional"`
	Resource *hcl.Attribute `hcl:"resource,optional"`
	// Args are the call's arguments as an object.
	Args *hcl.Attribute `hcl:"args,optional"`
	// Answers are the client's answers to the call's questions, by key.
	Answers *hcl.Attribute `hcl:"answers,optional"`
	// Auth is the caller's verified access token, as an object of
	// subject, scopes and claims: the call is made as over HTTP with that
	// token (scopes checked, auth.* set). Without it the call carries no
	// token, as over stdio.
	Auth *hcl.Attribute `hcl:"auth,optional"`
	// Skip, a string, says why the test does not run.
	Skip      *hcl.Attribute `hcl:"skip,optional"`
	Expect    []*Expect      `hcl:"expect,block"`
	Mocks     []*Mock        `hcl:"mock,block"`
	SQLite    []*SQLiteData  `hcl:"sqlite,block"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// Expect is what a test's result must be. Text, Error and Structured's
// values are checked by mcpdecl test.
type Expect struct {
	IsError    *hcl.Attribute `hcl:"is_error,optional"`
	Text       *hcl.Attribute `hcl:"text,optional"`
	Structured *hcl.Attribute `hcl:"structured,optional"`
	// Error is the protocol error the call must end with.
	Error     *hcl.Attribute `hcl:"error,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// Mock answers the requests of an HTTP backend during a test.
type Mock struct {
	Backend      string         `hcl:"backend,label"`
	BackendRange hcl.Range      `hcl:"backend,label_range"`
	Request      []*MockRequest `hcl:"request,block"`
	Response     []*MockReply   `hcl:"response,block"`
	DeclRange    hcl.Range      `hcl:",def_range"`
}

// MockRequest says which requests a mock answers; what it leaves out
// matches anything.
type MockRequest struct {
	Method    *hcl.Attribute `hcl:"method,optional"`
	Path      *hcl.Attribute `hcl:"path,optional"`
	Query     *hcl.Attribute `hcl:"query,optional"`
	Headers   *hcl.Attribute `hcl:"headers,optional"`
	JSON      *hcl.Attribute `hcl:"json,optional"`
	Body      *hcl.Attribute `hcl:"body,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// MockReply is a mock's answer.
type MockReply struct {
	Status    *hcl.Attribute `hcl:"status,optional"`
	Headers   *hcl.Attribute `hcl:"headers,optional"`
	JSON      *hcl.Attribute `hcl:"json,optional"`
	Body      *hcl.Attribute `hcl:"body,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// SQLiteData gives an SQLite backend the data of one test: a fresh
// database built from InitSQL, a file of SQL statements.
type SQLiteData struct {
	Backend      string         `hcl:"backend,label"`
	BackendRange hcl.Range      `hcl:"backend,label_range"`
	InitSQL      *hcl.Attribute `hcl:"init_sql"`
	DeclRange    hcl.Range      `hcl:",def_range"`
}

// LoadOptions changes how [LoadWith] reads directories.
type LoadOptions struct {
	// Tests also reads the test files (*_test.hcl, *_test.hcl.json) of a
	// directory. Without it they are skipped, so serving a directory never
	// reads its tests.
	Tests bool
	// Overlay holds the text of files as an editor has them, unsaved, by
	// their path as it will be named (filepath.Clean of it): a file in it
	// is read from there instead of the disk, and a directory's files
	// include those in it that are not saved yet.
	Overlay map[string][]byte
	// Lean keeps no syntax tree: each file keeps its text and its
	// top-level block headers (for diagnostics), and what lint reads of
	// the syntax is recorded (Config.VarRefs, Tool.ArgRefs ...). For
	// serving and validating; tools that read the syntax (an editor's
	// index) load without it. A big file takes less memory still as a
	// Stream.
	Lean bool
}

// IsTestFile reports whether name is a test file: read from a directory
// only with LoadOptions.Tests, and holding test blocks only.
func IsTestFile(name string) bool {
	base := filepath.Base(name)
	return strings.HasSuffix(base, "_test.hcl") || strings.HasSuffix(base, "_test.hcl.json")
}

// testFileContent is the schema of a test file: test blocks only.
type testFileContent struct {
	Tests []*Test `hcl:"test,block"`
}

func (cfg *Config) decodeTestFile(f *hcl.File) hcl.Diagnostics {
	var fc testFileContent
	diags := decodeBody(f.Body, &fc)
	for _, d := range diags {
		if d.Summary == "Unsupported block type" || d.Summary == "Unsupported argument" {
			d.Detail = "A test file (a name ending in _test.hcl) holds test blocks only; put the configuration in another file."
		}
	}
	return append(diags, cfg.addTests(fc.Tests)...)
}

func (cfg *Config) addTests(ts []*Test) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range ts {
		diags = append(diags, checkTest(t)...)
		if prev := cfg.testRange(t.Name); prev != nil {
			diags = append(diags, duplicateDiag("test", t.Name, *prev, t.NameRange, "Each test needs its own name."))
			continue
		}
		cfg.Tests = append(cfg.Tests, t)
	}
	return diags
}

func (cfg *Config) testRange(name string) *hcl.Range {
	for _, t := range cfg.Tests {
		if t.Name == name {
			return &t.NameRange
		}
	}
	return nil
}

// checkTest checks the shape of a test: one target, at most one expect
// block, one request and one response per mock.
func checkTest(t *Test) hcl.Diagnostics {
	var diags hcl.Diagnostics
	switch {
	case t.Call == nil && t.Resource == nil:
		diags = append(diags, testDiag("Test without a call",
			fmt.Sprintf("Test %q calls nothing: set call = tool.<name> or prompt.<name>, or resource = \"<uri>\".", t.Name), t.DeclRange))
	case t.Call != nil && t.Resource != nil:
		diags = append(diags, testDiag("Test with two calls",
			"A test makes one call: set either call or resource, not both.", t.Resource.Range))
	}
	if len(t.Expect) > 1 {
		diags = append(diags, testDiag("Duplicate expect block",
			fmt.Sprintf("A test has one expect block; the first is at %s. Put every expectation in it.", t.Expect[0].DeclRange), t.Expect[1].DeclRange))
	}
	for _, m := range t.Mocks {
		if len(m.Request) > 1 {
			diags = append(diags, testDiag("Duplicate request block", "A mock has one request block; write another mock for other requests.", m.Request[1].DeclRange))
		}
		if len(m.Response) != 1 {
			diags = append(diags, testDiag("A mock needs one response block",
				"Write one response block with its status, headers and json or body; write another mock for other requests.", m.DeclRange))
		}
	}
	return diags
}

func testDiag(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}
