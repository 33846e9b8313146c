package testrun

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// identity reads a test's auth = { subject, scopes, claims }: the verified
// access token the call is made with, as over HTTP. The configuration must
// have an auth block; the scopes and claims must be ones it declares, so
// that a misspelt name fails the check instead of the call.
func (c *checker) identity(attr *hcl.Attribute, tg *Target) {
	if c.table.Auth == nil {
		c.errorf(attr.NameRange, "Test with a token but no auth block",
			"auth gives the call an access token, but the configuration has no auth block, so no token is ever checked. Add an auth block, or remove auth from the test.")
		return
	}
	v, ok := c.jsonValue(attr)
	if !ok {
		return
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		c.errorf(attr.Expr.Range(), "Object expected", "auth is the caller's token, as in { subject = \"alice\", scopes = [\"orders:read\"], claims = { tenant = \"acme\" } }.")
		return
	}
	fields := []string{"subject", "scopes", "claims"}
	id := &auth.Identity{Claims: map[string]any{}}
	bad := false
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(fields, k) {
			c.errorf(attr.Expr.Range(), "Unknown token field", "auth has no field %q: a test token has subject, scopes and claims.%s", k, rule.DidYouMean(k, fields))
			bad = true
		}
	}
	if s, has := obj["subject"]; has {
		str, isStr := s.(string)
		if !isStr {
			c.errorf(attr.Expr.Range(), "String expected", "auth.subject is a string, the token's sub.")
			bad = true
		}
		id.Subject = str
	}
	if s, has := obj["scopes"]; has {
		list, isList := s.([]any)
		if !isList {
			c.errorf(attr.Expr.Range(), "List expected", "auth.scopes is a list of scope names, as in [\"orders:read\"].")
			bad = true
		}
		declared := c.table.Auth.ScopesSupported
		for _, e := range list {
			name, isStr := e.(string)
			switch {
			case !isStr:
				c.errorf(attr.Expr.Range(), "String expected", "auth.scopes is a list of scope names, as in [\"orders:read\"].")
				bad = true
			case !slices.Contains(declared, name):
				c.errorf(attr.Expr.Range(), "Undeclared scope", "auth.scopes names %q, which the auth block does not declare.%s", name, rule.DidYouMean(name, declared))
				bad = true
			default:
				id.Scopes = append(id.Scopes, name)
			}
		}
	}
	if cl, has := obj["claims"]; has {
		claims, isObj := cl.(map[string]any)
		if !isObj {
			c.errorf(attr.Expr.Range(), "Object expected", "auth.claims is an object of claim names and values, as in { tenant = \"acme\" }.")
			bad = true
		}
		var names []string
		for _, d := range c.table.Claims {
			names = append(names, d.Name)
		}
		for _, k := range sortedKeys(claims) {
			if !slices.Contains(names, k) {
				c.errorf(attr.Expr.Range(), "Undeclared claim", "auth.claims holds %q, which the auth block does not declare.%s Declare it with claim %q { type = ... }, or remove it from the test.", k, rule.DidYouMean(k, names), k)
				bad = true
				continue
			}
			id.Claims[k] = claims[k]
		}
	}
	if _, has := obj["subject"]; !has {
		if sub, isStr := id.Claims["sub"].(string); isStr {
			id.Subject = sub
		}
	}
	if !bad {
		tg.Identity = id
	}
}
