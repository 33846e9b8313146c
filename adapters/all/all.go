// Package all lists the built-in adapters.
package all

import (
	"github.com/mcpdecl/mcpdecl/adapter"
	httpadapter "github.com/mcpdecl/mcpdecl/adapters/http"
	shelladapter "github.com/mcpdecl/mcpdecl/adapters/shell"
	sqladapter "github.com/mcpdecl/mcpdecl/adapters/sql"
)

// Registry returns a registry of every built-in adapter: http, sql and
// shell.
func Registry() *adapter.Registry {
	return adapter.NewRegistry(httpadapter.New(), sqladapter.New(), shelladapter.New())
}
