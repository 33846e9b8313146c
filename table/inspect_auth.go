package table

import "github.com/mcpdecl/mcpdecl/auth"

// accessInspection is what inspect shows of a primitive's requirements on the
// caller: the scopes its token needs, and whether it reads auth.*.
type accessInspection struct {
	Scopes       []string `json:"scopes,omitempty"`
	UsesIdentity bool     `json:"usesIdentity,omitempty"`
}

func accessOf(a Access) accessInspection {
	return accessInspection{Scopes: a.Scopes, UsesIdentity: a.UsesIdentity}
}

// authInspection summarises the auth block: never a secret (token values,
// the introspection client's secret).
type authInspection struct {
	Resource             string            `json:"resource"`
	AuthorizationServers []string          `json:"authorizationServers,omitempty"`
	Issuers              []string          `json:"issuers,omitempty"`
	JWKSURL              string            `json:"jwksUrl,omitempty"`
	Algorithms           []string          `json:"algorithms,omitempty"`
	Leeway               string            `json:"leeway,omitempty"`
	Scopes               []string          `json:"scopes"`
	InitialScopes        []string          `json:"initialScopes,omitempty"`
	Claims               []claimInspection `json:"claims,omitempty"`
	Introspection        string            `json:"introspection,omitempty"`
	Tokens               []tokenInspection `json:"tokens,omitempty"`
}

type claimInspection struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

type tokenInspection struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes,omitempty"`
}

func inspectAuth(t *Table) *authInspection {
	a := t.Auth
	if a == nil {
		return nil
	}
	out := &authInspection{Resource: a.Resource, AuthorizationServers: a.AuthorizationServers, Issuers: a.Issuers,
		JWKSURL: a.JWKSURL, Algorithms: a.Algorithms, Scopes: a.ScopesSupported}
	if out.Scopes == nil {
		out.Scopes = []string{}
	}
	out.InitialScopes = a.InitialScopes
	// The leeway tokens are checked with: the default when none is set.
	out.Leeway = auth.DefaultLeeway.String()
	if a.Leeway > 0 {
		out.Leeway = a.Leeway.String()
	}
	for _, c := range t.Claims {
		out.Claims = append(out.Claims, claimInspection{Name: c.Name, Type: c.Type.FriendlyName(), Required: c.Required})
	}
	if a.Introspection != nil {
		out.Introspection = a.Introspection.URL
	}
	for _, s := range a.Static {
		out.Tokens = append(out.Tokens, tokenInspection{Name: s.Name, Scopes: s.Scopes})
	}
	return out
}
