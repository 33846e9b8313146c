package langindex

import (
	"strings"
)

// uriTemplate indexes the variables of a resource template's
// uri_template: each is an argument of the template, declared there when
// no arg block declares it, and a use of the arg block's name otherwise
// (renaming the argument must rename the variable, or the template
// stops matching).
func (c *collector) uriTemplate(sym *Symbol, scope string, a *attr) {
	if a == nil {
		return
	}
	lits := c.literals(a.expr, true)
	if len(lits) != 1 || lits[0].interpolated {
		return
	}
	lit := lits[0]
	declared := map[string]bool{}
	for _, child := range sym.Children {
		if child.Kind == KindArgument {
			declared[child.Name] = true
		}
	}
	for _, v := range uriVariables(lit.text) {
		from, to := lit.span(v.from, v.to)
		rng := c.lines.rng(c.name, from, to)
		if declared[v.name] {
			c.use(KindArgument, scope, v.name, rng, false)
			continue
		}
		declared[v.name] = true
		c.declare(sym, KindArgument, scope, label{v.name, rng}, rng)
	}
}

type uriVar struct {
	name     string
	from, to int
}

// uriVariables returns the variable names of an RFC 6570 template with
// their offsets: "{id}", "{+path}", "{?lang,n}", "{list*}", "{s:3}".
func uriVariables(tmpl string) []uriVar {
	var out []uriVar
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '{' {
			continue
		}
		end := strings.IndexByte(tmpl[i:], '}')
		if end < 0 {
			break
		}
		from, to := i+1, i+end
		if from < to && strings.IndexByte("+#./;?&=,!@|", tmpl[from]) >= 0 {
			from++
		}
		for from < to {
			stop := strings.IndexByte(tmpl[from:to], ',')
			if stop < 0 {
				stop = to - from
			}
			spec := tmpl[from : from+stop]
			if cut := strings.IndexAny(spec, "*:"); cut >= 0 {
				spec = spec[:cut]
			}
			if spec != "" {
				out = append(out, uriVar{spec, from, from + len(spec)})
			}
			from += stop + 1
		}
		i += end
	}
	return out
}
