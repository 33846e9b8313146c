package eval

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/hclfast"
)

// Variables returns what expr.Variables() returns: the traversals that
// start at a root name, in the order they are written, without
// hclsyntax's allocating walker for the common kinds of node (see
// hclfast.Variables, which lang shares).
func Variables(expr hcl.Expression) []hcl.Traversal { return hclfast.Variables(expr) }
