package eval

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestCheckLiteralArgs(t *testing.T) {
	cases := []struct {
		src  string
		want string // the summary expected; "" for none
	}{
		{`can(regex("^[0-9]{4}-[0-9]{2}$", args.date))`, ""},
		{`can(regex("^([0-9]{4}$", args.date))`, "Invalid regular expression"},
		{`regexall("(?<y>a)(b)", args.x)`, ""}, // refused by regexall's own type check, not a compile error
		{`regex_replace(args.x, "a++", "")`, "Invalid regular expression"},
		{`regex(local.pattern, args.x)`, ""}, // not a literal: checked when known
		{`formatdate("YYYY-MM-DD", args.at)`, ""},
		{`formatdate("YYYY-MM-DD 'x", args.at)`, "Invalid function argument"},
		{`timeadd(args.at, "90m")`, ""},
		{`timeadd(args.at, "2 hours")`, "Invalid function argument"},
		{`timeadd("2026-11-03", args.d)`, "Invalid function argument"},
		{`can(jsondecode("{"))`, "Invalid function argument"},
		{`jsondecode("{")`, ""}, // no can(): the normal type check reports it
		{`try(tonumber(args.x), 0)`, ""},
		{`format("%s has %d items", args.name, args.n)`, ""},
		{`format("%s has %d items", args.name)`, "Invalid format string"},
		{`format("100%", args.name)`, "Invalid format string"},
		{`format("%y", args.name)`, "Invalid format string"},
		{`format("%t", args.flag)`, ""}, // the value decides
		{`env("API_TOKEN")`, ""},
		{`env("API_${var.x}")`, "Computed environment variable name"},
		{`env(var.name)`, "Computed environment variable name"},
	}
	for _, c := range cases {
		expr, diags := hclsyntax.ParseExpression([]byte(c.src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", c.src, diags)
		}
		got := CheckLiteralArgs(expr)
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: want no diagnostic, got %s", c.src, got)
		case c.want != "" && (len(got) != 1 || got[0].Summary != c.want):
			t.Errorf("%s: want one %q, got %v", c.src, c.want, got)
		}
	}
}
