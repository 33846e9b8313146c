package openapi

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// authPlan is how the backend authenticates: the one scheme the
// operations use most that the http backend can express, the environment
// variables it reads, and comments on the schemes it cannot.
type authPlan struct {
	scheme *SecurityScheme
	scopes []string
	env    []string
	notes  []string
}

func planAuth(api *API, ops []*Operation, prefix string) *authPlan {
	plan := &authPlan{}
	uses, scopes := schemeUses(api, ops)
	byName := map[string]*SecurityScheme{}
	for _, s := range api.Schemes {
		byName[s.Name] = s
	}
	names := sortedKeys(uses)
	order := func(n string) int {
		return slices.IndexFunc(api.Schemes, func(s *SecurityScheme) bool { return s.Name == n })
	}
	sort.SliceStable(names, func(i, j int) bool {
		if uses[names[i]] != uses[names[j]] {
			return uses[names[i]] > uses[names[j]]
		}
		return order(names[i]) < order(names[j])
	})
	for _, n := range names {
		s := byName[n]
		if s == nil {
			plan.notes = append(plan.notes, fmt.Sprintf("The operations ask for the security scheme %q, which the document does not define.", n))
			continue
		}
		if why := inexpressible(s, prefix); why != "" {
			plan.notes = append(plan.notes, why)
			continue
		}
		if plan.scheme == nil {
			plan.scheme = s
			plan.scopes = scopes[n]
			plan.env = envFor(s, prefix)
			continue
		}
		plan.notes = append(plan.notes, fmt.Sprintf("The document also offers the security scheme %q (%s); the backend authenticates with %q only.", n, describeScheme(s), plan.scheme.Name))
	}
	if len(uses) == 0 && len(api.Schemes) > 0 {
		var defined []string
		for _, s := range api.Schemes {
			defined = append(defined, s.Name)
		}
		plan.notes = append(plan.notes, fmt.Sprintf("The document defines the security schemes %s, but no imported operation asks for one: the backend sends no credentials.", strings.Join(defined, ", ")))
	}
	return plan
}

// schemeUses counts, per scheme, the operations whose requirements name
// it, and collects the OAuth scopes they ask for.
func schemeUses(api *API, ops []*Operation) (map[string]int, map[string][]string) {
	uses := map[string]int{}
	scopes := map[string][]string{}
	for _, op := range ops {
		seen := map[string]bool{}
		for _, req := range effectiveSecurity(api, op) {
			for _, name := range sortedKeys(req) {
				if !seen[name] {
					seen[name] = true
					uses[name]++
				}
				for _, sc := range req[name] {
					if !slices.Contains(scopes[name], sc) {
						scopes[name] = append(scopes[name], sc)
					}
				}
			}
		}
	}
	for _, s := range scopes {
		sort.Strings(s)
	}
	return uses, scopes
}

func effectiveSecurity(api *API, op *Operation) []Requirement {
	if op.HasSecurity {
		return op.Security
	}
	return api.Security
}

// inexpressible says why the http backend cannot authenticate with s, or
// "" when it can.
func inexpressible(s *SecurityScheme, prefix string) string {
	bearerHint := fmt.Sprintf("With an access token got elsewhere, write auth { bearer = env(%q) } in the backend and add %s to allow_env.", envName(prefix, "token"), envName(prefix, "token"))
	switch s.Type {
	case "apiKey":
		switch {
		case s.In == "header" && !isHeaderName(s.ParamName):
			return fmt.Sprintf("The security scheme %q sends a key in the header %q, which is not a valid HTTP header name; it is not configured.", s.Name, s.ParamName)
		case s.In == "query" && s.ParamName == "":
			return fmt.Sprintf("The security scheme %q sends a key in a query parameter without a name; it is not configured.", s.Name)
		case s.In == "header", s.In == "query":
			return ""
		case s.In == "cookie":
			return fmt.Sprintf("The security scheme %q sends a key in the cookie %q: the http backend sets no cookies, so it is not configured.", s.Name, s.ParamName)
		}
		return fmt.Sprintf("The security scheme %q sends a key in %q, which is not a header or query parameter; it is not configured.", s.Name, s.In)
	case "http":
		if s.Scheme == "bearer" || s.Scheme == "basic" {
			return ""
		}
		return fmt.Sprintf("The security scheme %q uses HTTP %q authentication, which the http backend does not do (it does bearer and basic).", s.Name, s.Scheme)
	case "oauth2":
		if s.TokenURL != "" {
			if u, err := url.Parse(s.TokenURL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
				return ""
			}
			return fmt.Sprintf("The security scheme %q has a client credentials flow whose token URL %q is not an absolute http(s) URL; it is not configured.", s.Name, s.TokenURL)
		}
		return fmt.Sprintf("The security scheme %q uses the OAuth 2 flows %s, which need a user to sign in; the http backend gets tokens by the client credentials flow only. %s", s.Name, strings.Join(s.Flows, ", "), bearerHint)
	case "openIdConnect":
		return fmt.Sprintf("The security scheme %q uses OpenID Connect, which needs a user to sign in. %s", s.Name, bearerHint)
	case "mutualTLS":
		return fmt.Sprintf("The security scheme %q uses mutual TLS: give the backend a tls { cert_file = ..., key_file = ... } block.", s.Name)
	}
	return fmt.Sprintf("The security scheme %q has the type %q, which is not supported.", s.Name, s.Type)
}

func describeScheme(s *SecurityScheme) string {
	switch s.Type {
	case "apiKey":
		return fmt.Sprintf("an API key in the %s %s", s.In, s.ParamName)
	case "http":
		return "HTTP " + s.Scheme
	case "oauth2":
		return "OAuth 2 client credentials"
	}
	return s.Type
}

func envFor(s *SecurityScheme, prefix string) []string {
	switch {
	case s.Type == "apiKey":
		return []string{envName(prefix, "api_key")}
	case s.Type == "http" && s.Scheme == "bearer":
		return []string{envName(prefix, "token")}
	case s.Type == "http":
		return []string{envName(prefix, "username"), envName(prefix, "password")}
	case s.Type == "oauth2":
		return []string{envName(prefix, "client_id"), envName(prefix, "client_secret")}
	}
	return nil
}

// write writes the backend's auth block, and warns what the reader must
// know to set its variables.
func (p *authPlan) write(w *writer, g *gen) {
	s := p.scheme
	if s == nil {
		return
	}
	env := func(i int) string { return fmt.Sprintf("env(%s)", str(p.env[i])) }
	if s.Description != "" {
		w.comment(fmt.Sprintf("Security scheme %q: %s", s.Name, text(s.Description, 300)))
	}
	if s.Type == "apiKey" && s.In == "header" && strings.EqualFold(s.ParamName, "Authorization") {
		// The key is the whole header value: an API that asks for
		// "Bearer <token>" or "token <token>" gets only the token unless
		// the variable holds the word too, and then answers 401.
		hint := fmt.Sprintf("The security scheme %q sends %s as the whole Authorization header: its value must include the scheme word the API expects, e.g. %s=\"Bearer <token>\" or %s=\"token <token>\", as the API's documentation says.",
			s.Name, p.env[0], p.env[0], p.env[0])
		w.comment(hint)
		g.warn("%s", hint)
	}
	w.open("auth")
	switch {
	case s.Type == "apiKey":
		w.open("api_key")
		w.attr("in", str(s.In))
		w.attr("name", str(s.ParamName))
		w.attr("value", env(0))
		w.close()
	case s.Type == "http" && s.Scheme == "bearer":
		w.attr("bearer", env(0))
	case s.Type == "http":
		w.open("basic")
		w.attr("username", env(0))
		w.attr("password", env(1))
		w.close()
	case s.Type == "oauth2":
		w.open("oauth2")
		w.attr("token_url", str(s.TokenURL))
		w.attr("client_id", env(0))
		w.attr("client_secret", env(1))
		if len(p.scopes) > 0 {
			w.attr("scopes", stringList(p.scopes))
		}
		w.close()
	}
	w.close()
}

// covers says whether an operation accepts the backend's credentials (or
// none): otherwise its tool gets a comment.
func (p *authPlan) covers(api *API, op *Operation) bool {
	reqs := effectiveSecurity(api, op)
	if len(reqs) == 0 {
		return true
	}
	for _, r := range reqs {
		if len(r) == 0 {
			return true
		}
		if p.scheme != nil {
			if _, ok := r[p.scheme.Name]; ok && len(r) == 1 {
				return true
			}
		}
	}
	return false
}
