package openapi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

const taggedDoc = `openapi: 3.1.0
info:
  title: Code host
  version: "1"
servers:
  - url: https://code.example.com
tags:
  - name: Pull Requests
    description: "Review and merge changes.\u0007"
  - name: repos
paths:
  /repos:
    get:
      operationId: listRepos
      tags: [repos]
      responses: {"200": {description: ok}}
  /repos/{name}/pulls:
    get:
      operationId: listPulls
      tags: [Pull Requests, repos]
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: ok}}
    post:
      operationId: createPull
      tags: [pull requests]
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: ok}}
  /health:
    get:
      operationId: health
      responses: {"200": {description: ok}}
`

// TestToolsetsFromTags: a toolset per tag, named in snake_case, with the
// tag's description when the document has one (cleaned of control
// characters), holding the tools of the operations with the tag (tags
// differing in case are one); an untagged operation is in none. The
// configuration compiles, and each toolset has the tools said.
func TestToolsetsFromTags(t *testing.T) {
	api, err := parseBytes(t, "code.yaml", []byte(taggedDoc))
	if err != nil {
		t.Fatal(err)
	}
	out := Import(api, api.Operations, Options{Source: "code.yaml", ToolsetsFromTags: true}).Config
	checkConfig(t, "code.yaml", out)
	if !strings.Contains(string(out), `description = "Review and merge changes."`) || !strings.Contains(string(out), `description = "The operations the document tags \"repos\"."`) {
		t.Errorf("descriptions:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "code.hcl")
	if err := os.WriteFile(file, out, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lang.Load(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := tbl.ToolsetNames(); !slices.Equal(got, []string{"repos", "pull_requests"}) {
		t.Errorf("toolsets %v", got)
	}
	if got := tbl.Toolset("repos").Tools; !slices.Equal(got, []string{"list_repos", "list_pulls"}) {
		t.Errorf("repos: %v", got)
	}
	if got := tbl.Toolset("pull_requests").Tools; !slices.Equal(got, []string{"list_pulls", "create_pull"}) {
		t.Errorf("pull_requests: %v", got)
	}
	// Without the option, no toolset.
	if plain := Import(api, api.Operations, Options{Source: "code.yaml"}).Config; strings.Contains(string(plain), "toolset") {
		t.Errorf("toolsets without the option:\n%s", plain)
	}
}
