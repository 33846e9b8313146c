package table_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

const toolsetTools = `
tool "repo_list" {
  description = "List repositories."
  result {
    text = "'r'"
  }
}
tool "repo_get" {
  description = "Get a repository."
  result {
    text = "'r'"
  }
}
tool "issue_create" {
  description = "Open an issue in a repository."
  arg "title" {
    type        = string
    description = "The issue's title."
  }
  result {
    text = "'i'"
  }
}
`

func compileToolsets(t *testing.T, src string) (*table.Table, []string) {
	t.Helper()
	cfg, diags := lang.LoadSource("t.hcl", []byte(toolsetTools+src))
	var tbl *table.Table
	if !diags.HasErrors() {
		var d = diags
		tbl, d = table.Compile(cfg, all.Registry(), table.Options{})
		diags = d
	}
	var out []string
	for _, d := range diags {
		if d.Subject == nil {
			out = append(out, d.Summary+": "+d.Detail)
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d:%d: %s: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail))
	}
	return tbl, out
}

// TestToolsetMembers: names and patterns give the toolset's tools in the
// order of the configuration's tools, each once.
func TestToolsetMembers(t *testing.T) {
	tbl, diags := compileToolsets(t, `
toolset "repos" {
  description = "Repositories."
  tools       = ["repo_*", "repo_get"]
}
toolset "all" {
  tools   = ["issue_create", "*"]
  dynamic = true
}
`)
	if tbl == nil {
		t.Fatal(diags)
	}
	repos := tbl.Toolset("repos")
	if !slices.Equal(repos.Tools, []string{"repo_list", "repo_get"}) || repos.Description != "Repositories." || repos.Dynamic {
		t.Errorf("repos: %+v", repos)
	}
	all := tbl.Toolset("all")
	if !slices.Equal(all.Tools, []string{"repo_list", "repo_get", "issue_create"}) || !all.Dynamic || !all.Has("issue_create") || repos.Has("issue_create") {
		t.Errorf("all: %+v", all)
	}
	if tbl.Toolset("nosuch") != nil || !slices.Equal(tbl.ToolsetNames(), []string{"repos", "all"}) {
		t.Errorf("names: %v", tbl.ToolsetNames())
	}
}

// TestToolsetErrors: what a toolset block gets wrong is an error at the
// place it is written (file:line:col) saying what to do.
func TestToolsetErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`toolset "r" {
  tools = ["repo_lst"]
}`, `t.hcl:25:12: Unknown tool in toolset: The toolset "r" lists the tool "repo_lst", which the configuration does not declare. Did you mean "repo_list"?`},
		{`toolset "r" {
  tools = ["repo_list", "pr_*"]
}`, `t.hcl:25:25: Pattern matches no tool: The toolset "r" lists the pattern "pr_*"`},
		{`toolset "r" {
  tools = ["repo_[a"]
}`, `t.hcl:25:12: Invalid tool pattern`},
		{`toolset "a b" {
  tools = ["repo_list"]
}`, `t.hcl:24:9: Invalid toolset name`},
		{`toolset "r" {
  tools = ["repo_list"]
}
toolset "r" {
  tools = ["repo_get"]
}`, `t.hcl:27:9: Duplicate toolset name`},
		{`toolset "r" {
  tools  = ["repo_list"]
  scopes = ["read"]
}`, `t.hcl:26:3: Scopes without an auth block`},
		{`toolset "r" {
  description = "no tools"
}`, `Missing required argument`},
	} {
		_, got := compileToolsets(t, c.src)
		if len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%s\ngot  %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestToolsetScopesDeclared: a toolset's scopes are the auth block's, and
// count as used.
func TestToolsetScopesDeclared(t *testing.T) {
	auth := `
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://as.example.com"]
  scope "repos" {}
}
`
	tbl, diags := compileToolsets(t, auth+`
toolset "r" {
  tools  = ["repo_*"]
  scopes = ["repos"]
}`)
	if tbl == nil || len(diags) != 0 || !slices.Equal(tbl.Toolset("r").Scopes, []string{"repos"}) {
		t.Fatalf("%v", diags)
	}
	_, diags = compileToolsets(t, auth+`
toolset "r" {
  tools  = ["repo_*"]
  scopes = ["repo"]
}`)
	if len(diags) == 0 || !strings.Contains(strings.Join(diags, "\n"), `names the scope "repo", which the auth block does not declare. Did you mean "repos"?`) {
		t.Errorf("%v", diags)
	}
}

// TestSearchTools: words found in the name weigh most, then the
// description, then the arguments; tools that match nothing are left out.
func TestSearchTools(t *testing.T) {
	tbl, diags := compileToolsets(t, "")
	if tbl == nil {
		t.Fatal(diags)
	}
	names := func(q string, keep func(*table.Tool) bool, limit int) []string {
		var out []string
		for _, tool := range tbl.SearchTools(q, keep, limit) {
			out = append(out, tool.Name)
		}
		return out
	}
	for q, want := range map[string][]string{
		"issues":            {"issue_create"},
		"repositories":      {"repo_list", "repo_get", "issue_create"},
		"get a repo":        {"repo_get", "repo_list", "issue_create"},
		"title":             {"issue_create"},
		"nothing-like-that": nil,
		"repo_get":          {"repo_get", "repo_list", "issue_create"},
	} {
		if got := names(q, nil, 10); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
	if got := names("repositories", func(t *table.Tool) bool { return t.Name != "repo_list" }, 1); !slices.Equal(got, []string{"repo_get"}) {
		t.Errorf("kept and limited: %v", got)
	}
}

// TestServerDynamic: the server block's dynamic attribute.
func TestServerDynamic(t *testing.T) {
	tbl, diags := compileToolsets(t, `server {
  dynamic = true
}`)
	if tbl == nil || !tbl.Dynamic {
		t.Fatalf("%v", diags)
	}
}

// BenchmarkSearchTools: one search_tools among the 10,000 tools of the
// generated import-like configuration (the words of each tool are split
// once per table, before the timer).
func BenchmarkSearchTools(b *testing.B) {
	var src strings.Builder
	if err := largecfg.Write(&src, 10000); err != nil {
		b.Fatal(err)
	}
	cfg, diags := lang.LoadSource("large.hcl", []byte(src.String()))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	tbl.SearchTools("warm", nil, 1)
	b.ResetTimer()
	for b.Loop() {
		if got := tbl.SearchTools("delete an archived issue of a team", nil, 10); len(got) == 0 {
			b.Fatal("nothing found")
		}
	}
}
