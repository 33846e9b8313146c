package table

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/guessable"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// Access is what a tool, resource, resource template or prompt asks of
// the caller when the server checks tokens (HTTP with an auth block).
type Access struct {
	// Scopes are the scopes the caller's token must hold; a token without
	// them gets 403 with the scopes to ask for.
	Scopes []string
	// UsesIdentity says that its expressions read auth.* (the token's
	// subject, scopes or claims): without a verified token (stdio, or HTTP
	// without an auth block) it is refused.
	UsesIdentity bool
}

// Claim is a `claim` of the auth block: a token claim that expressions
// read as auth.claims.<Name>.
type Claim struct {
	Name     string
	Type     cty.Type
	Required bool
	// Decl is the declared type, which tells integer from number.
	Decl *lang.Type
}

// Algorithms are the JWS algorithms an auth block may accept: asymmetric
// ones only, since a resource server must not hold the issuer's key.
var Algorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// maxLeeway is the most clock skew an auth block may allow.
const maxLeeway = 5 * time.Minute

// authState is what the compiler knows of the auth block while it
// compiles the primitives.
type authState struct {
	decl       *lang.Auth
	scopes     []string
	usedScopes map[string]bool
	// initial is initial_scopes when written.
	initial []string
	claims  []*Claim
	// value is the cty type of auth in HCL expressions, env its Go type
	// in expr-lang programs; NilType / nil without an auth block.
	value cty.Type
	env   reflect.Type
}

// compileAuth compiles the auth block into Table.Auth and prepares the
// auth.* names of the primitives.
func (c *compiler) compileAuth() {
	c.auth = &authState{usedScopes: map[string]bool{}}
	a := c.cfg.Auth
	if a == nil {
		return
	}
	c.auth.decl = a
	cfg := &auth.Config{}
	cfg.Resource = c.authURL(a.Resource, true)
	cfg.AuthorizationServers = c.authURLs(a.AuthorizationServers)
	cfg.Issuers = c.authStrings(a.Issuers)
	if a.Issuers == nil {
		cfg.Issuers = cfg.AuthorizationServers
	}
	cfg.JWKSURL = c.authURL(a.JWKSURL, false)
	cfg.Algorithms = c.authAlgorithms(a.Algorithms)
	cfg.Leeway = c.duration(a.Leeway)
	if cfg.Leeway > maxLeeway {
		c.add(hcl.Diagnostics{errorf(a.Leeway.Expr.Range(), "Leeway too long",
			"A leeway of %s would accept tokens that expired that long ago; allow at most %s of clock skew, for example \"30s\".", cfg.Leeway, maxLeeway)})
	}
	cfg.ResourceName = c.staticString(a.ResourceName)
	cfg.ResourceDocumentation = c.authURL(a.Documentation, false)
	for _, s := range a.Scopes {
		c.auth.scopes = append(c.auth.scopes, s.Name)
		c.staticString(s.Description)
	}
	cfg.ScopesSupported = slices.Clone(c.auth.scopes)
	c.compileClaims(a.Claims)
	if len(a.Introspection) > 0 {
		cfg.Introspection = c.compileIntrospection(a.Introspection[0])
	}
	for _, t := range a.Tokens {
		cfg.Static = append(cfg.Static, c.compileStaticToken(t))
	}
	if len(cfg.AuthorizationServers) == 0 && a.AuthorizationServers == nil && len(a.Tokens) == 0 && len(a.Introspection) == 0 {
		c.add(hcl.Diagnostics{errorf(a.DeclRange, "No way to get a token",
			"The auth block names no authorization server, no introspection endpoint and no static token, so no client could ever be let in. Add authorization_servers = [\"https://login.example.com\"] (where clients get tokens), an introspection { url = \"...\" } block, or a token \"name\" { value = env(\"...\") } block.")})
	}
	if a.InitialScopes != nil {
		c.auth.initial = c.scopeList(a.InitialScopes, "initial_scopes", false)
		if exprs, d := hcl.ExprList(a.InitialScopes.Expr); !d.HasErrors() && len(exprs) == 0 {
			c.add(hcl.Diagnostics{errorf(a.InitialScopes.Expr.Range(), "Empty initial scopes",
				"initial_scopes is empty: a 401 that names no scope makes MCP clients ask for every declared scope. Name the scopes a first sign-in needs, as in initial_scopes = [\"orders:read\"], or remove the attribute to let mcpdecl pick the scopes every scoped tool needs.")})
		}
	}
	c.table.Auth = cfg
	c.authTypes()
	if !c.diags.HasErrors() {
		c.checkWithVerifier(cfg)
	}
}

func (c *compiler) compileClaims(decls []*lang.AuthClaim) {
	for _, d := range decls {
		if d.ParsedType == nil {
			continue // reported by lang
		}
		required, set := c.staticBool(d.Required)
		c.staticString(d.Description)
		c.auth.claims = append(c.auth.claims, &Claim{Name: d.Name, Type: d.ParsedType.CtyType(), Required: required || !set, Decl: d.ParsedType})
	}
	c.table.Claims = c.auth.claims
}

// authTypes builds the type of auth: subject, scopes and the declared
// claims, in HCL and in expr-lang.
func (c *compiler) authTypes() {
	attrs := map[string]cty.Type{}
	fields := make([]eval.EnvField, 0, len(c.auth.claims))
	for _, cl := range c.auth.claims {
		attrs[cl.Name] = cl.Type
		fields = append(fields, eval.EnvField{Name: cl.Name, Type: goType(c.claimDecl(cl.Name).ParsedType)})
	}
	c.auth.value = cty.Object(map[string]cty.Type{"subject": cty.String, "scopes": cty.List(cty.String), "claims": cty.Object(attrs)})
	c.auth.env = eval.EnvType([]eval.EnvField{
		{Name: "subject", Type: reflect.TypeOf("")},
		{Name: "scopes", Type: reflect.TypeOf([]any{})},
		{Name: "claims", Type: eval.EnvType(fields)},
	})
}

func (c *compiler) claimDecl(name string) *lang.AuthClaim {
	for _, d := range c.auth.decl.Claims {
		if d.Name == name {
			return d
		}
	}
	return nil
}

func (c *compiler) compileIntrospection(d *lang.Introspect) *auth.Introspection {
	out := &auth.Introspection{URL: c.authURL(d.URL, false), ClientID: c.staticString(d.ClientID)}
	secret := c.staticValue(d.ClientSecret, cty.String)
	c.table.Secrets = append(c.table.Secrets, SecretTexts(secret)...)
	if secret != cty.NilVal && secret.IsKnown() && !secret.IsNull() {
		out.ClientSecret = secret.AsString()
	}
	out.CacheTTL = c.duration(d.CacheTTL)
	if d.ClientSecret != nil && d.ClientID == nil {
		c.add(hcl.Diagnostics{errorf(d.ClientSecret.NameRange, "Client secret without a client id",
			"The introspection endpoint is called with HTTP basic authentication, which needs both; add client_id = \"...\" (the resource server's client at the authorization server).")})
	}
	return out
}

func (c *compiler) compileStaticToken(d *lang.StaticToken) auth.StaticToken {
	out := auth.StaticToken{Name: d.Name}
	v := c.staticValue(d.Value, cty.String)
	if v != cty.NilVal && v.IsKnown() && !v.IsNull() {
		out.Token = v.AsString()
		if len(out.Token) >= 16 {
			// A shorter one is refused below: redacting it would only
			// garble the messages.
			c.table.Secrets = append(c.table.Secrets, out.Token)
		} else {
			c.add(hcl.Diagnostics{errorf(d.Value.Expr.Range(), "Token too short",
				"The token %q is shorter than 16 characters, which is easy to guess. Use a long random value, for example from `openssl rand -hex 32`.", d.Name)})
		}
		if why := guessable.Why(out.Token, []byte(out.Token)); why != "" && len(out.Token) >= 16 && !strings.ContainsAny(out.Token, " \t\r\n") {
			// A token no Bearer header can carry is the verifier's to
			// refuse; the token itself is never quoted.
			c.add(hcl.Diagnostics{errorf(d.Value.Expr.Range(), "Guessable token",
				"The token %q is not random enough to grant access: %s. Use a long random value, for example from `openssl rand -hex 32`.", d.Name, why)})
		}
	}
	out.Scopes = c.scopeList(d.Scopes, fmt.Sprintf("The token %q", d.Name), false)
	out.Claims = c.tokenClaims(d)
	return out
}

// tokenClaims evaluates a static token's claims, each checked against its
// declaration.
func (c *compiler) tokenClaims(d *lang.StaticToken) map[string]any {
	v := c.staticValue(d.Claims, cty.DynamicPseudoType)
	if v == cty.NilVal || !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		c.add(hcl.Diagnostics{errorf(d.Claims.Expr.Range(), "Invalid claims", "claims is an object of claim names and values, as in { tenant = \"acme\" }.")})
		return nil
	}
	out := map[string]any{}
	for name, val := range v.AsValueMap() {
		if cl := c.claim(name); cl != nil {
			if _, err := cl.Convert(val); err != nil {
				c.add(hcl.Diagnostics{errorf(d.Claims.Expr.Range(), "Invalid claim value",
					"The claim %q of the token %q must be %s: %s.", name, d.Name, adapter.TypeName(cl.Type), err)})
			}
		}
		j, err := eval.ToJSON(val)
		if err == nil {
			out[name] = j
		}
	}
	return out
}

func (c *compiler) claim(name string) *Claim {
	for _, cl := range c.auth.claims {
		if cl.Name == name {
			return cl
		}
	}
	return nil
}

// primitiveAccess compiles the scopes attribute of a tool, resource,
// resource template or prompt.
func (c *compiler) primitiveAccess(attr *hcl.Attribute, what string) Access {
	if attr == nil {
		return Access{}
	}
	if c.auth.decl == nil {
		c.add(hcl.Diagnostics{errorf(attr.NameRange, "Scopes without an auth block",
			"%s requires scopes, but the configuration has no auth block, so no token is ever checked. Add an auth block that declares the scopes (scope \"name\" {}), or remove scopes.", what)})
		return Access{}
	}
	return Access{Scopes: c.scopeList(attr, what, true)}
}

// scopeList evaluates a list of scope names, each of which the auth block
// must declare; used marks them as required by a primitive.
func (c *compiler) scopeList(attr *hcl.Attribute, what string, used bool) []string {
	v := c.staticValue(attr, cty.List(cty.String))
	if v == cty.NilVal || !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	ranges := elementRanges(attr, v.LengthInt())
	var out []string
	for i, e := range v.AsValueSlice() {
		name := e.AsString()
		if !slices.Contains(c.auth.scopes, name) {
			c.add(hcl.Diagnostics{suggestElement(errorf(ranges[i], "Undeclared scope",
				"%s names the scope %q, which the auth block does not declare.%s Declare it with scope %q {} in the auth block.",
				what, name, rule.DidYouMean(name, c.auth.scopes), name), rule.Closest(name, c.auth.scopes), attr, i)})
			continue
		}
		if used {
			c.auth.usedScopes[name] = true
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// elementRanges are the ranges of a list attribute's n elements when it
// is written as a list, else the attribute's range n times.
func elementRanges(attr *hcl.Attribute, n int) []hcl.Range {
	if attr == nil || n == 0 {
		return nil
	}
	out := make([]hcl.Range, n)
	exprs, diags := hcl.ExprList(attr.Expr)
	for i := range out {
		out[i] = attr.Expr.Range()
		if !diags.HasErrors() && len(exprs) == n {
			out[i] = exprs[i].Range()
		}
	}
	return out
}

// checkAuthUse runs once every primitive is compiled: scopes nothing
// requires, and backends that would pass the caller's token on.
func (c *compiler) checkAuthUse() {
	a := c.auth.decl
	if a == nil {
		return
	}
	for _, s := range a.Scopes {
		if !c.auth.usedScopes[s.Name] {
			c.add(hcl.Diagnostics{warnf(s.NameRange, "Scope used nowhere",
				"No tool, resource, resource template or prompt requires the scope %q. Add scopes = [%q] where it belongs, or remove the scope block.", s.Name, s.Name)})
		}
	}
	c.initialScopes()
	for _, b := range c.cfg.Backends {
		be := c.table.Backends[b.Name]
		if be == nil {
			continue
		}
		if fwd, _ := be.Describe()["forwards_authorization"].(bool); fwd {
			c.add(hcl.Diagnostics{errorf(b.DeclRange, "Client token forwarded",
				"The backend %q forwards the Authorization header, which carries the client's access token for this server; with an auth block a token is never passed on to another service. Remove \"Authorization\" from forward_headers and give the backend its own credentials (headers, or an oauth2 block).", b.Name)})
		}
	}
}

// initialScopes sets the scopes the first 401 asks for: initial_scopes
// when written, else the scopes that every tool, resource, resource
// template and prompt requiring any has in common. When they have none in
// common the 401 names every declared scope, and a warning says to write
// initial_scopes.
func (c *compiler) initialScopes() {
	cfg := c.table.Auth
	if cfg == nil {
		return
	}
	if c.auth.initial != nil {
		cfg.InitialScopes = c.auth.initial
		return
	}
	var common []string
	scoped := 0
	for _, a := range c.table.accessLists() {
		if len(a.Scopes) == 0 {
			continue
		}
		if scoped == 0 {
			common = slices.Clone(a.Scopes)
		} else {
			common = slices.DeleteFunc(common, func(s string) bool { return !slices.Contains(a.Scopes, s) })
		}
		scoped++
	}
	cfg.InitialScopes = common
	if scoped > 0 && len(common) == 0 && len(c.auth.scopes) > 1 {
		c.add(hcl.Diagnostics{warnf(c.auth.decl.DeclRange, "No scope common to all tools",
			"The tools, resources and prompts that require scopes have none in common, so the 401 that starts a sign-in names every declared scope (%s), and MCP clients ask for all of them, the most powerful included. Say what a first sign-in asks for, as in initial_scopes = [%q]; a client asks for more when a call answers 403.",
			strings.Join(c.auth.scopes, ", "), c.auth.scopes[0])})
	}
}

func (c *compiler) authStrings(attr *hcl.Attribute) []string {
	v := c.staticValue(attr, cty.List(cty.String))
	if v == cty.NilVal || !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	var out []string
	for _, e := range v.AsValueSlice() {
		out = append(out, e.AsString())
	}
	return out
}

func (c *compiler) authURLs(attr *hcl.Attribute) []string {
	list := c.authStrings(attr)
	ranges := elementRanges(attr, len(list))
	for i, u := range list {
		if msg := badURL(u, false); msg != "" {
			c.add(hcl.Diagnostics{errorf(ranges[i], "Invalid URL", "%q %s", u, msg)})
		}
	}
	return list
}

// authURL evaluates an optional URL attribute; resource is the protected
// resource's own URI, which has no query either.
func (c *compiler) authURL(attr *hcl.Attribute, resource bool) string {
	s := c.staticString(attr)
	if s == "" || attr == nil {
		return s
	}
	if msg := badURL(s, resource); msg != "" {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid URL", "%s is %q, which %s", attr.Name, s, msg)})
	}
	return s
}

// badURL says what is wrong with an absolute http(s) URL, or "".
func badURL(s string, resource bool) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "is not a URL: " + strings.TrimPrefix(err.Error(), "parse "+fmt.Sprintf("%q", s)+": ") + "."
	case u.Scheme != "https" && u.Scheme != "http":
		return "is not an http or https URL; write it in full, as in https://mcp.example.com/mcp."
	case u.Host == "":
		return "has no host; write it in full, as in https://mcp.example.com/mcp."
	case u.Fragment != "" || strings.Contains(s, "#"):
		return "has a fragment (#...), which OAuth does not allow here."
	case resource && u.RawQuery != "":
		return "has a query; the resource URI is the server's canonical URI without one."
	}
	return ""
}

func (c *compiler) authAlgorithms(attr *hcl.Attribute) []string {
	list := c.authStrings(attr)
	ranges := elementRanges(attr, len(list))
	for i, alg := range list {
		if !slices.Contains(Algorithms, alg) {
			hint := rule.DidYouMean(alg, Algorithms)
			if strings.HasPrefix(alg, "HS") || alg == "none" {
				hint = " A resource server checks signatures with the issuer's public keys; shared-secret (HS*) and unsigned tokens are refused."
			}
			c.add(hcl.Diagnostics{errorf(ranges[i], "Unsupported algorithm",
				"%q is not an algorithm tokens may be signed with here; the choices are %s.%s", alg, strings.Join(Algorithms, ", "), hint)})
		}
	}
	return list
}

// withAuth makes auth.* visible to the HCL expressions checked with s, and
// records in used which of subject, scopes and claims they read. Without
// an auth block, auth.* is refused with a message saying what to add.
func (c *compiler) withAuth(s *adapter.Scope, used map[string]bool) *adapter.Scope {
	ns := eval.Namespace{Root: "auth", What: "identity field", Used: used}
	extra := map[string]cty.Value{}
	for k, v := range s.Extra {
		extra[k] = v
	}
	if c.auth.decl == nil {
		why := "auth.* is the identity of the caller's access token, and this configuration checks no tokens. Add an auth block (and serve over HTTP) to use it."
		ns.Keys, ns.Unlisted = map[string][]string{}, true
		ns.Hidden = map[string]string{"subject": why, "scopes": why, "claims": why}
		extra["auth"] = cty.DynamicVal
	} else {
		names := make([]string, 0, len(c.auth.claims))
		for _, cl := range c.auth.claims {
			names = append(names, cl.Name)
		}
		ns.Keys = map[string][]string{"subject": nil, "scopes": nil, "claims": names}
		ns.Hint = "Declare the claim in the auth block, as in claim \"tenant\" { type = string }."
		extra["auth"] = cty.UnknownVal(c.auth.value)
	}
	s.Names.Extra = append(slices.Clip(s.Names.Extra), ns)
	s.Extra = extra
	return s
}

// authEnv is the auth field of an expr-lang environment; none without an
// auth block.
func (c *compiler) authEnv() []eval.EnvField {
	if c.auth.env == nil {
		return nil
	}
	return []eval.EnvField{{Name: "auth", Type: c.auth.env}}
}

// answerReadsAuth reports whether an error rule or the result block of an
// answer names auth.
func answerReadsAuth(a *Answer) bool {
	progs := []*eval.Program{}
	templates := []*eval.Template{}
	for _, r := range a.Errors {
		progs = append(progs, r.When)
		templates = append(templates, r.Message)
	}
	if r := a.Result; r != nil {
		progs = append(progs, r.Structured, r.Text, r.IsError)
		templates = append(templates, r.TextTemplate)
	}
	for _, t := range templates {
		if t == nil {
			continue
		}
		for _, part := range t.Parts {
			progs = append(progs, part.Program)
		}
	}
	for _, p := range progs {
		if p == nil || p.Program == nil {
			continue
		}
		found := authVisitor(false)
		node := p.Node()
		ast.Walk(&node, &found)
		if found {
			return true
		}
	}
	return false
}

// authVisitor records whether a program names auth.
type authVisitor bool

func (v *authVisitor) Visit(node *ast.Node) {
	if id, ok := (*node).(*ast.IdentifierNode); ok && id.Value == "auth" {
		*v = true
	}
}

// checkWithVerifier builds the verifier (which does no I/O) to report, at
// the attribute, any rule of the auth package this compiler does not check
// itself. A static token whose value is not known yet (env() while
// validating) is not judged.
func (c *compiler) checkWithVerifier(cfg *auth.Config) {
	v, err := auth.New(cfg)
	if v != nil {
		v.Close()
	}
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else if err != nil {
		list = []error{err}
	}
	for _, e := range list {
		var ce *auth.ConfigError
		if !errors.As(e, &ce) {
			c.add(hcl.Diagnostics{errorf(c.auth.decl.DeclRange, "Invalid auth block", "%s", e)})
			continue
		}
		if strings.HasPrefix(ce.Field, "static.") && ce.Index >= 0 && ce.Index < len(cfg.Static) && cfg.Static[ce.Index].Token == "" {
			continue // known when served
		}
		c.add(hcl.Diagnostics{errorf(c.authFieldRange(ce), "Invalid auth block", "%s: %s.", authFieldName(ce, cfg), strings.TrimSuffix(ce.Message, "."))})
	}
}

// authFieldRange is where the auth block writes the setting a
// ConfigError names.
func (c *compiler) authFieldRange(ce *auth.ConfigError) hcl.Range {
	a := c.auth.decl
	at := func(attr *hcl.Attribute) hcl.Range {
		if attr == nil {
			return a.DeclRange
		}
		if exprs, d := hcl.ExprList(attr.Expr); ce.Index >= 0 && !d.HasErrors() && ce.Index < len(exprs) {
			return exprs[ce.Index].Range()
		}
		return attr.Expr.Range()
	}
	field, sub, _ := strings.Cut(ce.Field, ".")
	switch field {
	case "resource":
		return at(a.Resource)
	case "authorization_servers":
		return at(a.AuthorizationServers)
	case "issuers":
		return at(a.Issuers)
	case "jwks_url":
		return at(a.JWKSURL)
	case "algorithms":
		return at(a.Algorithms)
	case "leeway":
		return at(a.Leeway)
	case "initial_scopes":
		return at(a.InitialScopes)
	case "introspection":
		if len(a.Introspection) > 0 {
			in := a.Introspection[0]
			attrs := map[string]*hcl.Attribute{"url": in.URL, "client_id": in.ClientID, "client_secret": in.ClientSecret}
			if attr := attrs[sub]; attr != nil {
				return attr.Expr.Range()
			}
			return in.DeclRange
		}
	case "static":
		if ce.Index >= 0 && ce.Index < len(a.Tokens) {
			t := a.Tokens[ce.Index]
			if sub == "token" {
				return t.Value.Expr.Range()
			}
			return t.NameRange
		}
	}
	return a.DeclRange
}

// authFieldName names the setting of a ConfigError as the auth block
// writes it.
func authFieldName(ce *auth.ConfigError, cfg *auth.Config) string {
	if sub, ok := strings.CutPrefix(ce.Field, "static."); ok && ce.Index >= 0 && ce.Index < len(cfg.Static) {
		if sub == "token" {
			sub = "value"
		}
		return fmt.Sprintf("token %q %s", cfg.Static[ce.Index].Name, sub)
	}
	return ce.Field
}

// Convert reads a claim's value (JSON, or a cty.Value) as the declared
// type, as HCL converts values: a number or bool becomes its text where a
// string is declared, a string holding a number or true/false becomes a
// number or a bool. A fraction where an integer is declared is refused.
func (cl *Claim) Convert(v any) (cty.Value, error) {
	cv, err := ConvertClaim(v, cl.Type)
	if err != nil {
		return cv, err
	}
	if err := wholeNumbers(cv, cl.Decl); err != nil {
		return cty.NilVal, err
	}
	return cv, nil
}

// wholeNumbers checks that the numbers where t says integer are whole.
func wholeNumbers(v cty.Value, t *lang.Type) error {
	if t == nil || v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch t.Kind {
	case lang.KindInteger:
		if v.Type() == cty.Number && !v.AsBigFloat().IsInt() {
			return fmt.Errorf("a whole number is required")
		}
	case lang.KindList, lang.KindSet, lang.KindMap:
		if t.Elem == nil || !v.CanIterateElements() {
			return nil
		}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if err := wholeNumbers(e, t.Elem); err != nil {
				return err
			}
		}
	case lang.KindObject:
		for _, a := range t.Attrs {
			if v.Type().IsObjectType() && v.Type().HasAttribute(a.Name) {
				if err := wholeNumbers(v.GetAttr(a.Name), a.Type); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ConvertClaim reads a claim's JSON value as the declared type.
func ConvertClaim(v any, ty cty.Type) (cty.Value, error) {
	if cv, ok := v.(cty.Value); ok {
		j, err := eval.ToJSON(cv)
		if err != nil {
			return cty.NilVal, err
		}
		v = j
	}
	return eval.FromGoJSON(plainJSON(JSONValue(v)), ty)
}

// accessLists are what every tool, resource, resource template and prompt
// asks of the caller.
func (t *Table) accessLists() []Access {
	var out []Access
	for _, x := range t.Tools {
		out = append(out, x.Access)
	}
	for _, x := range t.Resources {
		out = append(out, x.Access)
	}
	for _, x := range t.Templates {
		out = append(out, x.Access)
	}
	for _, x := range t.Prompts {
		out = append(out, x.Access)
	}
	return out
}
