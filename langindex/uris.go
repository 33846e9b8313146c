package langindex

import (
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// uriRef is a resource read by its URI: a test's resource = "...", the
// uri of a prompt message's resource that has no text of its own. It names no block, so it is
// resolved when asked, against the resources' URIs and the templates'
// patterns of every file, and a rename leaves it alone.
type uriRef struct {
	uri string
	rng hcl.Range
}

// served is what one file serves: resource URIs and template patterns,
// with the block that serves each.
type served struct {
	uris      map[string]string // URI -> resource name
	templates []servedTemplate
}

type servedTemplate struct {
	pattern *regexp.Regexp
	name    string
}

// serves records the URI of a resource or the pattern of a template.
func (c *collector) serves(kind Kind, name string, n *node) {
	attrName := "uri"
	if kind == KindResourceTemplate {
		attrName = "uri_template"
	}
	a := n.attr(attrName)
	if a == nil {
		return
	}
	lits := c.strings(a.expr)
	if len(lits) != 1 {
		return
	}
	if kind == KindResource {
		if c.fi.served.uris == nil {
			c.fi.served.uris = map[string]string{}
		}
		c.fi.served.uris[lits[0].text] = name
		return
	}
	if re, err := regexp.Compile(templatePattern(lits[0].text)); err == nil {
		c.fi.served.templates = append(c.fi.served.templates, servedTemplate{re, name})
	}
}

// templatePattern turns an RFC 6570 template into a regular expression
// for the URIs it serves: a {var} is one segment, {+var} anything, and a
// query ({?a,b}) is optional.
func templatePattern(tmpl string) string {
	var b strings.Builder
	b.WriteString("^")
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		end := strings.IndexByte(tmpl, '}')
		if open < 0 || end < open {
			b.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		b.WriteString(regexp.QuoteMeta(tmpl[:open]))
		switch expr := tmpl[open+1 : end]; {
		case strings.HasPrefix(expr, "+"), strings.HasPrefix(expr, "#"):
			b.WriteString(".*")
		case strings.HasPrefix(expr, "?"), strings.HasPrefix(expr, "&"):
			b.WriteString(`([?&].*)?`)
		default:
			b.WriteString("[^/?#]*")
		}
		tmpl = tmpl[end+1:]
	}
	b.WriteString("$")
	return b.String()
}

// uriUse records a URI that reads a resource.
func (c *collector) uriUse(a *attr) {
	if a == nil {
		return
	}
	for _, s := range c.strings(a.expr) {
		c.fi.uriRefs = append(c.fi.uriRefs, uriRef{s.text, c.lines.rng(c.name, s.from, s.to)})
	}
}

// resolveURI finds the resource serving uri, else the first template
// matching it, in file order.
func (idx *Index) resolveURI(uri string) (key, bool) {
	for _, name := range idx.names {
		if res, ok := idx.files[name].served.uris[uri]; ok {
			return key{KindResource, "", res}, true
		}
	}
	for _, name := range idx.names {
		for _, t := range idx.files[name].served.templates {
			if t.pattern.MatchString(uri) {
				return key{KindResourceTemplate, "", t.name}, true
			}
		}
	}
	return key{}, false
}

// uriUses returns the URIs in every file that read k.
func (idx *Index) uriUses(k key) []hcl.Range {
	if k.kind != KindResource && k.kind != KindResourceTemplate {
		return nil
	}
	var out []hcl.Range
	for _, name := range idx.names {
		for _, u := range idx.files[name].uriRefs {
			if got, ok := idx.resolveURI(u.uri); ok && got == k {
				out = append(out, u.rng)
			}
		}
	}
	return out
}
