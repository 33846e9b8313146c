package eval

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/hclfast"
)

// holdsCall is the full walk mayHoldCall stands in front of.
func holdsCall(n hclsyntax.Node) bool {
	found := false
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			found = true
		}
		return nil
	})
	return found
}

// TestMayHoldCallNeverMissesACall: over every expression of every native
// configuration of the repository, and some written for the purpose, an
// expression mayHoldCall passes over holds no call; and it does pass over
// the plain ones, or it would save nothing.
func TestMayHoldCallNeverMissesACall(t *testing.T) {
	exprs := repositoryExprs(t)
	for _, src := range []string{
		`"a ${upper(args.x)} b"`, `[1, lower("A")]`, `{ (upper("k")) = 1 }`, `{ k = file("x") }`,
		`1 + length(args.l)`, `!can(args.x)`, `args.x ? tostring(1) : "n"`, `(abs(-1))`,
		`"%{ if args.x }${jsonencode(args.y)}%{ endif }"`, `[for x in args.l : upper(x)]`,
		`args.l[length(args.l) - 1]`, `"plain"`, `args.id`, `"/items/${args.id}"`, `{ a = [1, "b", args.c] }`,
	} {
		e, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", src, diags)
		}
		exprs = append(exprs, e)
	}
	if len(exprs) < 1000 {
		t.Fatalf("only %d expressions found", len(exprs))
	}
	skipped, calls := 0, 0
	for _, e := range exprs {
		has := holdsCall(e)
		if has {
			calls++
		}
		if !mayHoldCall(e) {
			skipped++
			if has {
				t.Errorf("%s: mayHoldCall passed over an expression holding a call", e.Range())
			}
		}
	}
	if calls == 0 || skipped < len(exprs)/2 {
		t.Errorf("%d expressions, %d with calls, %d passed over: the fast path should pass over most", len(exprs), calls, skipped)
	}
}

// repositoryExprs is every attribute's expression in the native
// configurations of the repository.
func repositoryExprs(t *testing.T) []hclsyntax.Expression {
	t.Helper()
	var exprs []hclsyntax.Expression
	for _, root := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".hcl") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f, diags := hclsyntax.ParseConfig(src, p, hcl.InitialPos)
			if diags.HasErrors() {
				return nil // a file of syntax errors on purpose
			}
			exprs = append(exprs, attributeExprs(f.Body.(*hclsyntax.Body))...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return exprs
}

func attributeExprs(b *hclsyntax.Body) []hclsyntax.Expression {
	var out []hclsyntax.Expression
	for _, a := range b.Attributes {
		out = append(out, a.Expr)
	}
	for _, blk := range b.Blocks {
		out = append(out, attributeExprs(blk.Body)...)
	}
	return out
}

// TestVariablesAsHCLSyntax: Variables gives what hclsyntax's walk gives,
// in the same order, for every expression of every native configuration of
// the repository and some written for the purpose (keys that are names,
// parenthesised keys, for expressions with names of their own).
func TestVariablesAsHCLSyntax(t *testing.T) {
	exprs := repositoryExprs(t)
	for _, src := range []string{
		`{ a = b, (c) = d, "e" = f, g.h = 1 }`, `"${x} and %{ if y }${z}%{ endif }"`, `[for v in l : v + w]`,
		`a ? b : c`, `-n + (m * 2)`, `!ok`, `{ null = 1, true = x }`, `upper(s)`, `x[y]`, `1`,
	} {
		e, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", src, diags)
		}
		exprs = append(exprs, e)
	}
	fast := 0
	for _, e := range exprs {
		var out []hcl.Traversal
		if hclfast.AppendVariables(&out, e) {
			fast++
		}
		if got, want := Variables(e), e.Variables(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: traversals %v, want %v", e.Range(), got, want)
		}
	}
	if fast < len(exprs)/2 {
		t.Errorf("only %d of %d expressions read directly", fast, len(exprs))
	}
}
