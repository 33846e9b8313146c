package hclfast

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestRandomConfigs checks generated configurations: random bodies and
// expressions of the syntax this parser handles, with comments, newlines
// and spacing where the language allows them. Mutating text (the fuzz
// test) mostly makes syntax errors, where both parsers agree easily; these
// are valid, so the trees are compared.
func TestRandomConfigs(t *testing.T) {
	const n = 3000
	bailed := 0
	for seed := range uint64(n) {
		g := &gen{r: rand.New(rand.NewPCG(seed, 7))}
		g.body(0)
		if check(t, fmt.Sprintf("random%d", seed), []byte(g.b.String()), hcl.InitialPos) {
			bailed++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d of %d generated configurations bailed", bailed, n)
	if bailed*20 > n {
		t.Errorf("%d of %d generated configurations bailed", bailed, n)
	}
}

type gen struct {
	r      *rand.Rand
	b      strings.Builder
	indent int
}

func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func (g *gen) w(s string) { g.b.WriteString(s) }

func (g *gen) nl() {
	switch g.r.IntN(8) {
	case 0:
		g.w(" # note\n")
	case 1:
		g.w(" // note \u2014 caf\u00e9\n")
	case 2:
		g.w(" /* x */\n")
	default:
		g.w("\n")
	}
	g.w(strings.Repeat("  ", g.indent))
}

func (g *gen) name() string {
	return g.pick("a", "b_c", "d-e", "args", "var", "x1", "type", "for_each", "true_", "in")
}

func (g *gen) body(depth int) {
	for range g.r.IntN(5) + 1 {
		g.w(strings.Repeat("  ", g.indent))
		switch k := g.r.IntN(6); {
		case k < 3 || depth > 2:
			// Names repeat in a body only as blocks; attribute names are
			// numbered to stay unique.
			fmt.Fprintf(&g.b, "%s%d = ", g.name(), g.b.Len())
			g.expr(0)
			g.w("\n")
		case k == 3:
			g.w(g.name() + " " + g.label() + "{ " + g.name() + " = ")
			g.term(5)
			g.w(" }\n")
		default:
			g.w(g.name() + " ")
			for range g.r.IntN(3) {
				g.w(g.label())
			}
			g.w("{")
			g.indent++
			g.w("\n")
			if g.r.IntN(4) > 0 {
				g.body(depth + 1)
			}
			g.indent--
			g.w(strings.Repeat("  ", g.indent) + "}\n")
		}
		if g.r.IntN(4) == 0 {
			g.w(g.pick("\n", "# comment\n", "/* block\n comment */\n"))
		}
	}
}

func (g *gen) label() string {
	if g.r.IntN(3) == 0 {
		return g.name() + " "
	}
	return `"` + g.pick("t", "list_repo", "a b", `q\"x`, "caf\u00e9", `\u00e9\t`, "$${x}", "100%", "") + `" `
}

func (g *gen) expr(depth int) {
	if depth > 4 {
		g.term(depth)
		return
	}
	switch g.r.IntN(10) {
	case 0:
		g.expr(depth + 1)
		g.w(" " + g.pick("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||") + " ")
		g.expr(depth + 1)
	case 1:
		g.expr(depth + 1)
		g.w(" ? ")
		g.expr(depth + 1)
		g.w(" : ")
		g.expr(depth + 1)
	default:
		g.term(depth)
	}
}

func (g *gen) term(depth int) {
	deep := depth > 4
	switch k := g.r.IntN(14); {
	case k == 0:
		g.w(g.pick("0", "1", "30", "1.5", "1e3", "2.5E-2", "007", "100"))
	case k == 1:
		g.w(g.pick("true", "false", "null"))
	case k <= 3:
		g.w(g.name())
		legacy := false // a.0.0 would be the number 0.0
		for range g.r.IntN(4) {
			switch g.r.IntN(5) {
			case 0:
				g.w("[" + g.pick("0", "1", `"k"`, "true", "-1", "x", "a.b", `"k${x}"`) + "]")
			case 1:
				if legacy {
					continue
				}
				legacy = true
				g.w(".0")
				continue
			default:
				g.w("." + g.name())
			}
		}
	case k <= 5:
		g.template(deep)
	case k == 6 && !deep:
		g.w(g.pick("f", "length", "upper", "jsonencode") + "(")
		n := g.r.IntN(4)
		for i := range n {
			if i > 0 {
				g.w(g.pick(", ", ",\n  ", " ,"))
			}
			g.expr(depth + 1)
		}
		g.w(g.closer(n, ")"))
	case k == 7 && !deep:
		g.w(g.pick("-", "!", "- "))
		g.term(depth + 1)
	case k == 8 && !deep:
		g.w(g.pick("(", "( ", "(\n"))
		g.expr(depth + 1)
		g.w(g.pick(")", " )", "\n)"))
	case k == 9 && !deep:
		g.w("[")
		n := g.r.IntN(4)
		for i := range n {
			if i > 0 {
				g.w(g.pick(", ", ",\n", " , # c\n"))
			}
			g.expr(depth + 1)
		}
		g.w(g.closer(n, "]"))
	case k == 10 && !deep:
		g.w("{")
		multi := g.r.IntN(2) == 0
		for i := range g.r.IntN(4) {
			if i > 0 && !multi {
				g.w(", ")
			}
			if multi {
				g.indent++
				g.nl()
				g.indent--
			}
			g.w(strings.ReplaceAll(g.pick("k#", `"k#"`, "(k#)", `"${k#}"`, "k#.x"), "#", fmt.Sprint(i)))
			g.w(g.pick(" = ", ": ", "="))
			g.expr(depth + 1)
			if multi && g.r.IntN(2) == 0 {
				g.w(",")
			}
		}
		if multi {
			g.nl()
		}
		g.w("}")
	case k == 11 && depth == 0:
		// A heredoc ends its line, so only as a whole attribute value.
		g.heredoc()
	default:
		g.w(g.name() + "." + g.name())
	}
}

// closer closes a list of n items, with a trailing comma or a newline
// before it at times.
func (g *gen) closer(n int, c string) string {
	if n == 0 {
		return c
	}
	return g.pick(c, ","+c, "\n"+c)
}

func (g *gen) template(deep bool) {
	g.w(`"`)
	for range g.r.IntN(4) {
		if g.r.IntN(3) == 0 && !deep {
			g.w("${" + g.pick("", " ", "\n"))
			g.expr(5)
			g.w(g.pick("}", " }", "\n}"))
			continue
		}
		g.w(g.pick("text", " ", `\n`, `\"`, `\\`, `\u00e9`, `\U0001F600`, "$${x}", "%%{y}", "$", "%", "caf\u00e9", "\u2192", "\t", "}", "{", "a$b", "100%"))
	}
	g.w(`"`)
}

func (g *gen) heredoc() {
	flush := g.r.IntN(2) == 0
	marker := g.pick("EOT", "SQL", "END_X")
	if flush {
		g.w("<<-" + marker + "\n")
	} else {
		g.w("<<" + marker + "\n")
	}
	for range g.r.IntN(4) {
		g.w(strings.Repeat(" ", g.r.IntN(6)))
		for range g.r.IntN(3) + 1 {
			if g.r.IntN(3) == 0 {
				g.w("${")
				g.expr(5)
				g.w("}")
			} else {
				g.w(g.pick("SELECT 1", "a b", "$${x}", "%%{y}", "\t", "'q'", `"dq"`, `\n`, "x $ y", "5% "))
			}
		}
		g.w("\n")
		if g.r.IntN(5) == 0 {
			g.w(g.pick("\n", "   \n"))
		}
	}
	g.w(strings.Repeat(" ", g.r.IntN(4)) + marker + "\n")
	g.w(strings.Repeat("  ", g.indent))
}
