// Command mcpdecl compiles an HCL description of MCP tools, resources,
// resource templates and prompts into an MCP server, and checks, formats
// and inspects such descriptions.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
