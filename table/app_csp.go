package table

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// originPattern is what an app's csp lists accept: an http or https
// origin, whose host may start with "*." for any subdomain. Nothing else
// (paths, quotes, spaces, semicolons) can get through, so an entry can
// neither widen the policy beyond an origin nor leave the attribute it is
// written into.
var originPattern = lazyregexp.New(`^https?://(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(:[0-9]{1,5})?$`)

// origins evaluates one csp list, reporting each entry that is not an
// origin at the entry itself.
func (c *compiler) origins(attr *hcl.Attribute) []string {
	var out []string
	for i, s := range c.stringListAttr(attr) {
		if why := notOrigin(s); why != "" {
			c.add(hcl.Diagnostics{errorf(elemRange(attr, i), "Invalid CSP origin",
				"%q is not an origin: %s. Each entry of %s is one origin, scheme://host[:port], as in \"https://api.example.com\" or \"https://*.example.com\" for every subdomain.",
				s, why, attr.Name)})
			continue
		}
		out = append(out, s)
	}
	return out
}

// notOrigin says why s is not an origin the csp lists accept, or "" when
// it is one.
func notOrigin(s string) string {
	if originPattern.MatchString(s) {
		return ""
	}
	if why := separatorIn(s); why != "" {
		return why
	}
	scheme, rest, hasScheme := strings.Cut(s, "://")
	switch {
	case s == "*" || s == "'self'" || s == "'none'" || strings.HasPrefix(s, "'"):
		return "keywords and * are not accepted; the policy is built from origins only, so that it allows no more than the listed hosts"
	case !hasScheme && strings.HasSuffix(s, ":"):
		return fmt.Sprintf("a bare scheme (%s) would allow every host", s)
	case !hasScheme:
		return "it has no scheme; write https:// before the host"
	case scheme != "https" && scheme != "http":
		return fmt.Sprintf("the scheme is %s; only https and http origins are accepted (an https origin also allows wss:// connections)", scheme)
	case strings.ContainsAny(rest, "/?#"):
		return "an origin has no path, query or fragment; keep scheme://host[:port] and drop the rest"
	case strings.Contains(rest, "@"):
		return "an origin has no user name or password"
	case strings.Contains(rest, "*") && !strings.HasPrefix(rest, "*.") || strings.Count(rest, "*") > 1:
		return "a wildcard is only accepted as the first label of the host, as in https://*.example.com"
	}
	return "the host must be letters, digits, '-' and '.', with an optional :port"
}

// separatorIn says why s, which holds a character that separates the
// parts of a policy, is refused, or "" when it holds none. Such an entry
// is refused for that before anything else: a ';' would end the directive
// the entry is written into and start another (script-src *), and a space
// or a ',' would add sources of its own.
func separatorIn(s string) string {
	if before, after, ok := strings.Cut(s, ";"); ok {
		directive := strings.TrimSpace(strings.Trim(after, "; \t\r\n"))
		if directive == "" {
			return fmt.Sprintf("it holds \";\", which ends a directive of the policy; an entry is one origin, so remove the \";\" after %q", strings.TrimSpace(before))
		}
		return fmt.Sprintf("it holds \";\" and a directive (%s): an entry is one origin, never a directive, and the policy's directives are built by mcpdecl from these lists alone; list each origin as its own entry", directive)
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return "it holds a space, which separates sources in a policy: an entry is one origin, so list each origin as its own entry"
	}
	if strings.Contains(s, ",") {
		return "it holds \",\": an entry is one origin, so list each origin as its own entry"
	}
	return ""
}

// Policy is the Content Security Policy of an app's page: nothing is
// allowed but inline scripts and styles, data: images, fonts and media,
// and what each list adds.
func (p AppCSP) Policy() string {
	directives := []struct {
		name  string
		base  []string
		extra []string
	}{
		{"default-src", []string{"'none'"}, nil},
		{"script-src", []string{"'unsafe-inline'"}, p.Resource},
		{"style-src", []string{"'unsafe-inline'"}, p.Resource},
		{"img-src", []string{"data:", "blob:"}, p.Resource},
		{"font-src", []string{"data:"}, p.Resource},
		{"media-src", []string{"data:", "blob:"}, p.Resource},
		{"connect-src", nil, p.Connect},
		{"frame-src", nil, p.Frame},
		{"base-uri", nil, p.BaseURI},
		{"form-action", []string{"'none'"}, nil},
	}
	parts := make([]string, 0, len(directives))
	for _, d := range directives {
		sources := append(append([]string{}, d.base...), d.extra...)
		if len(sources) == 0 {
			sources = []string{"'none'"}
		}
		parts = append(parts, d.name+" "+strings.Join(sources, " "))
	}
	return strings.Join(parts, "; ")
}
