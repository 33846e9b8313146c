package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpdecl/mcpdecl/openapi"
)

// importCmd groups the importers; OpenAPI is the one there is.
type importCmd struct {
	OpenAPI importOpenAPICmd `cmd:"" name:"openapi" help:"Turn an OpenAPI document (Swagger 2.0, OpenAPI 3.0 or 3.1; YAML or JSON; a file or an http(s) URL) into a configuration: one HTTP backend and one tool per operation."`
}

type importOpenAPICmd struct {
	Spec   string `arg:"" name:"spec" help:"The document: a file path or an http(s) URL."`
	Output string `short:"o" placeholder:"FILE" help:"Write the configuration to FILE instead of stdout."`
	Force  bool   `help:"With -o, replace FILE if it exists."`
	List   bool   `help:"Only list the selected operations (tool name, operationId, method, path, tags); generate nothing."`

	Tags              []string `name:"tag" placeholder:"TAG" help:"Import operations with this tag (repeatable; any of them)."`
	Paths             []string `name:"path" placeholder:"GLOB" help:"Import operations whose path matches (repeatable): * is any text within a segment, ** any text, e.g. '/repos/**/issues'."`
	Methods           []string `name:"method" placeholder:"METHOD" help:"Import operations of this HTTP method (repeatable)."`
	OperationIDs      []string `name:"operation-id" placeholder:"ID" help:"Import the operation with this operationId (repeatable)."`
	ExcludeTags       []string `name:"exclude-tag" placeholder:"TAG" help:"Leave out operations with this tag (repeatable)."`
	ExcludePaths      []string `name:"exclude-path" placeholder:"GLOB" help:"Leave out operations whose path matches (repeatable)."`
	ExcludeMethods    []string `name:"exclude-method" placeholder:"METHOD" help:"Leave out operations of this HTTP method (repeatable)."`
	ExcludeOperations []string `name:"exclude-operation-id" placeholder:"ID" help:"Leave out the operation with this operationId (repeatable)."`
	Deprecated        bool     `help:"Also import operations the document marks deprecated."`
	MCPOptIn          bool     `name:"mcp-opt-in" help:"Import only the operations the document's MCP extensions include (x-mcp: true on the operation, its path item or the document, or an x-mcp / x-speakeasy-mcp object on the operation)."`
	IgnoreMCPExt      bool     `name:"ignore-mcp-extensions" help:"Read the document as if it had no x-mcp or x-speakeasy-mcp extension: import what they leave out, with generated names and descriptions."`
	ToolsetsFromTags  bool     `name:"toolsets-from-tags" help:"Add a toolset block per tag of the imported operations (and per toolset their x-mcp toolsets or x-speakeasy-mcp scopes name), holding their tools (each served at <path>/toolsets/NAME)."`

	Name      string `placeholder:"NAME" help:"The server name (default: the document's title in snake_case)."`
	Backend   string `default:"api" placeholder:"NAME" help:"The backend's name."`
	EnvPrefix string `placeholder:"PREFIX" help:"Prefix of the environment variables credentials are read from (default: from the server name)."`
	MaxSize   int64  `default:"32" placeholder:"MIB" help:"Refuse a document larger than this many MiB."`
}

func (c *importOpenAPICmd) Help() string {
	return `The configuration is written formatted, passes validate, and says in comments ` +
		`what the document holds that it could not express. See docs/import.md for the mapping.`
}

func (c *importOpenAPICmd) Run(s streams) error {
	if c.Output != "" && !c.Force && !c.List {
		if _, err := os.Stat(c.Output); err == nil {
			return fmt.Errorf("%s exists: add --force to replace it", c.Output)
		}
	}
	if c.MaxSize <= 0 {
		return errors.New("--max-size must be at least 1 (MiB)")
	}
	src, err := openapi.Read(context.Background(), c.Spec, c.MaxSize<<20, nil)
	if err != nil {
		return err
	}
	api, err := openapi.Parse(src)
	if err != nil {
		return err
	}
	if c.MCPOptIn && c.IgnoreMCPExt {
		return errors.New("--mcp-opt-in and --ignore-mcp-extensions contradict each other: give one")
	}
	if c.IgnoreMCPExt {
		api.DropMCPHints()
	}
	ops, err := c.filter().Select(api.Operations)
	if err != nil {
		return err
	}
	deprecated, err := c.filter().DeprecatedLeftOut(api.Operations)
	if err != nil {
		return err
	}
	excluded, notOptedIn, err := c.filter().MCPLeftOut(api.Operations)
	if err != nil {
		return err
	}
	if c.List {
		for _, w := range api.Warnings {
			fmt.Fprintf(s.err, "warning: %s\n", w)
		}
		if deprecated > 0 {
			fmt.Fprintf(s.err, "warning: %d deprecated operations are not listed; add --deprecated to list them too.\n", deprecated)
		}
		if excluded > 0 {
			fmt.Fprintf(s.err, "warning: %d operations the document's MCP extensions exclude are not listed; add --ignore-mcp-extensions to list them too.\n", excluded)
		}
		if notOptedIn > 0 {
			fmt.Fprintf(s.err, "warning: %d operations no MCP extension includes are not listed (--mcp-opt-in).\n", notOptedIn)
		}
		return openapi.List(s.out, ops)
	}
	if len(ops) == 0 && c.MCPOptIn && notOptedIn > 0 {
		return fmt.Errorf("no operation of %s is selected: with --mcp-opt-in only operations an MCP extension includes (x-mcp: true) are imported, and %d selected operations have none", openapi.Redacted(c.Spec), notOptedIn)
	}
	if len(ops) == 0 {
		return fmt.Errorf("no operation of %s's %d is selected: run with --list and without filters to see them", openapi.Redacted(c.Spec), len(api.Operations))
	}
	res := openapi.Import(api, ops, openapi.Options{
		Source: sourceName(c.Spec), ServerName: c.Name, Backend: c.Backend, EnvPrefix: c.EnvPrefix,
		DeprecatedLeftOut: deprecated, ToolsetsFromTags: c.ToolsetsFromTags,
		MCPExcluded: excluded, MCPNotOptedIn: notOptedIn,
	})
	for _, w := range res.Warnings {
		fmt.Fprintf(s.err, "warning: %s\n", w)
	}
	out := res.Config
	if c.Output == "" {
		_, err = s.out.Write(out)
		return err
	}
	if err := os.WriteFile(c.Output, out, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(s.err, "Wrote %d tools to %s. Check it with: mcpdecl validate %s\n", len(ops), c.Output, c.Output)
	return nil
}

func (c *importOpenAPICmd) filter() openapi.Filter {
	return openapi.Filter{
		Tags: c.Tags, Paths: c.Paths, Methods: c.Methods, OperationIDs: c.OperationIDs,
		ExcludeTags: c.ExcludeTags, ExcludePaths: c.ExcludePaths, ExcludeMethods: c.ExcludeMethods,
		ExcludeOperations: c.ExcludeOperations, Deprecated: c.Deprecated, MCPOptIn: c.MCPOptIn,
	}
}

// sourceName is how the generated file names its document: a URL
// without its credentials, query or fragment (where tokens travel), a
// file by its base name, so that the output does not depend on where the
// document was on the machine that imported it.
func sourceName(spec string) string {
	if openapi.IsURL(spec) {
		return openapi.Redacted(spec)
	}
	return filepath.Base(spec)
}
