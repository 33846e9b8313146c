package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
)

// Auth is the `auth` block: the server is an OAuth 2.1 resource server
// when served over HTTP. It names the protected resource, who issues its
// tokens and how they are checked, the scopes the server knows and the
// token claims its calls may read (auth.claims.<name>). A configuration
// has at most one; over stdio it is not used.
type Auth struct {
	Resource             *hcl.Attribute `hcl:"resource"`
	AuthorizationServers *hcl.Attribute `hcl:"authorization_servers,optional"`
	Issuers              *hcl.Attribute `hcl:"issuers,optional"`
	JWKSURL              *hcl.Attribute `hcl:"jwks_url,optional"`
	Algorithms           *hcl.Attribute `hcl:"algorithms,optional"`
	Leeway               *hcl.Attribute `hcl:"leeway,optional"`
	ResourceName         *hcl.Attribute `hcl:"resource_name,optional"`
	Documentation        *hcl.Attribute `hcl:"documentation,optional"`
	InitialScopes        *hcl.Attribute `hcl:"initial_scopes,optional"`
	Scopes               []*AuthScope   `hcl:"scope,block"`
	Claims               []*AuthClaim   `hcl:"claim,block"`
	Introspection        []*Introspect  `hcl:"introspection,block"`
	Tokens               []*StaticToken `hcl:"token,block"`
	DeclRange            hcl.Range      `hcl:",def_range"`
}

// AuthScope is a `scope "name"` block: one scope the server knows, which
// tools, resources, resource templates and prompts may require.
type AuthScope struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	Description *hcl.Attribute `hcl:"description,optional"`
	DeclRange   hcl.Range      `hcl:",def_range"`
}

// AuthClaim is a `claim "name"` block: a claim of the access token that
// expressions read as auth.claims.<name>, with its type.
type AuthClaim struct {
	Name        string         `hcl:"name,label"`
	NameRange   hcl.Range      `hcl:"name,label_range"`
	Type        *hcl.Attribute `hcl:"type"`
	Required    *hcl.Attribute `hcl:"required,optional"`
	Description *hcl.Attribute `hcl:"description,optional"`
	DeclRange   hcl.Range      `hcl:",def_range"`
	// ParsedType is the parsed Type, set by Load; nil when the type or the
	// name is invalid.
	ParsedType *Type
}

// Introspect is the `introspection` block: opaque tokens are checked with
// the authorization server's RFC 7662 introspection endpoint.
type Introspect struct {
	URL          *hcl.Attribute `hcl:"url"`
	ClientID     *hcl.Attribute `hcl:"client_id,optional"`
	ClientSecret *hcl.Attribute `hcl:"client_secret,optional"`
	CacheTTL     *hcl.Attribute `hcl:"cache_ttl,optional"`
	DeclRange    hcl.Range      `hcl:",def_range"`
}

// StaticToken is a `token "name"` block: a fixed bearer token (for a
// service account or CI), with the scopes and claims it stands for. Its
// name is the subject of the calls made with it (auth.subject).
type StaticToken struct {
	Name      string         `hcl:"name,label"`
	NameRange hcl.Range      `hcl:"name,label_range"`
	Value     *hcl.Attribute `hcl:"value"`
	Scopes    *hcl.Attribute `hcl:"scopes,optional"`
	Claims    *hcl.Attribute `hcl:"claims,optional"`
	DeclRange hcl.Range      `hcl:",def_range"`
}

// addAuth keeps the first auth block of the configuration and checks the
// names and types declared inside it.
func (cfg *Config) addAuth(blocks []*Auth) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range blocks {
		if cfg.Auth != nil {
			diags = append(diags, diagcode.Relate(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate auth block",
				Detail:   fmt.Sprintf("An auth block was already declared at %s; a configuration has one auth block. Merge the two.", cfg.Auth.DeclRange),
				Subject:  a.DeclRange.Ptr(),
			}, cfg.Auth.DeclRange))
			continue
		}
		cfg.Auth = a
		diags = append(diags, a.check()...)
	}
	return diags
}

func (a *Auth) check() hcl.Diagnostics {
	var diags hcl.Diagnostics
	scopes := map[string]hcl.Range{}
	for _, s := range a.Scopes {
		if prev, ok := scopes[s.Name]; ok {
			diags = append(diags, duplicateDiag("scope", s.Name, prev, s.NameRange, "Scope names must be unique."))
		}
		scopes[s.Name] = s.DeclRange
		if s.Name == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Empty scope name",
				Detail: "A scope has a name, as in scope \"orders:read\" {}.", Subject: s.NameRange.Ptr()})
		}
	}
	claims := map[string]hcl.Range{}
	for _, c := range a.Claims {
		nameDiags := checkClaimName(c.Name, c.NameRange)
		diags = append(diags, nameDiags...)
		if prev, ok := claims[c.Name]; ok {
			diags = append(diags, duplicateDiag("claim", c.Name, prev, c.NameRange, "Claim names must be unique."))
		}
		claims[c.Name] = c.DeclRange
		t, d := ParseType(c.Type.Expr)
		diags = append(diags, d...)
		if !d.HasErrors() && !nameDiags.HasErrors() {
			c.ParsedType = t
		}
	}
	_, d := single(a.Introspection, func(i *Introspect) hcl.Range { return i.DeclRange }, "introspection", "The auth block")
	diags = append(diags, d...)
	tokens := map[string]hcl.Range{}
	for _, t := range a.Tokens {
		if prev, ok := tokens[t.Name]; ok {
			diags = append(diags, duplicateDiag("token", t.Name, prev, t.NameRange, "Token names must be unique."))
		}
		tokens[t.Name] = t.DeclRange
	}
	return diags
}

// checkClaimName: a claim is read as auth.claims.<name> in both expression
// languages, so its name follows the rule of argument names.
func checkClaimName(name string, rng hcl.Range) hcl.Diagnostics {
	if argName.MatchString(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid claim name",
		Detail:   fmt.Sprintf("The claim name %q cannot be read as auth.claims.<name>: use letters, digits and '_', not starting with a digit. Ask the authorization server to issue the claim under such a name.", name),
		Subject:  rng.Ptr(),
	}}
}
