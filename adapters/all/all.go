// Package all lists the built-in adapters.
package all

import (
	"github.com/mcpdecl/mcpdecl/adapter"
	httpadapter "github.com/mcpdecl/mcpdecl/adapters/http"
	mcpadapter "github.com/mcpdecl/mcpdecl/adapters/mcp"
	shelladapter "github.com/mcpdecl/mcpdecl/adapters/shell"
	sqladapter "github.com/mcpdecl/mcpdecl/adapters/sql"
)

// Registry returns a registry of every built-in adapter: http, sql,
// shell and mcp.
func Registry() *adapter.Registry {
	return adapter.NewRegistry(httpadapter.New(), sqladapter.New(), shelladapter.New(), mcpadapter.New())
}
