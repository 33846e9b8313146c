package eval

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// TestCompactCopiesNodeForNode: a compacted expression is a new tree equal
// to the parsed one (same nodes, ranges and literals), and it evaluates
// to the same value with the same diagnostics.
func TestCompactCopiesNodeForNode(t *testing.T) {
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"args": cty.ObjectVal(map[string]cty.Value{
			"owner": cty.StringVal("ann"), "id": cty.NumberIntVal(7), "tags": cty.ListVal([]cty.Value{cty.StringVal("x")}),
		})},
		Functions: map[string]function.Function{"upper": stdlib.UpperFunc},
	}
	for _, src := range []string{
		`"/repos/${args.owner}/${args.id}"`,
		`{ state = args.owner, per_page = args.id, "quoted key" = 1.5 }`,
		`args.id >= 1 && args.id <= 100`,
		`!(args.id > 3) ? upper(args.owner) : "no"`,
		`[args.tags[0], -args.id, null, true]`,
		`args.missing`,
		`"plain text"`,
		`[for t in args.tags : t]`, // kept as parsed
	} {
		t.Run(src, func(t *testing.T) {
			parsed, diags := hclsyntax.ParseExpression([]byte(src), "x.hcl", hcl.Pos{Line: 3, Column: 5, Byte: 40})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			compact := Compact(parsed)
			if !reflect.DeepEqual(compact, parsed) {
				t.Errorf("the copy differs from the parsed expression:\n%#v\n%#v", compact, parsed)
			}
			want, wantDiags := parsed.Value(ctx)
			got, gotDiags := compact.Value(ctx)
			if !got.RawEquals(want) || fmt.Sprint(gotDiags) != fmt.Sprint(wantDiags) {
				t.Errorf("the copy gives %#v %v, the parsed expression %#v %v", got, gotDiags, want, wantDiags)
			}
		})
	}
}

// TestCompactMakesANewTree: the copy shares no node with the parsed tree,
// so the tree can be collected.
func TestCompactMakesANewTree(t *testing.T) {
	parsed, _ := hclsyntax.ParseExpression([]byte(`{ a = "/x/${args.id}" }`), "x.hcl", hcl.InitialPos)
	compact := Compact(parsed).(*hclsyntax.ObjectConsExpr)
	orig := parsed.(*hclsyntax.ObjectConsExpr)
	if compact == orig || compact.Items[0].ValueExpr == orig.Items[0].ValueExpr {
		t.Error("the copy shares nodes with the parsed expression")
	}
	if _, ok := Compact(&hclsyntax.AnonSymbolExpr{}).(*hclsyntax.AnonSymbolExpr); !ok {
		t.Error("an expression Compact does not know is not returned as it is")
	}
}
