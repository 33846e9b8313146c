package dispatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/table"
)

// identityValue is auth.* of one call: the root variable of its HCL
// expressions and the field of its expr-lang environments.
type identityValue struct {
	vars   map[string]cty.Value
	fields map[string]any
}

// admit checks a call against what its target asks of the caller: the
// token's scopes (when a token was verified) and, for a target that
// reads auth.*, a verified identity with the claims the auth block
// requires. target names it for messages ("tool \"search\"").
// target names what is called ("tool \"search\""); it is written only
// when the call is refused, so an admitted call does not format it.
func admit(t *table.Table, in *CallInput, a *table.Access, target func() string) *CallError {
	if in.Identity != nil && t.Auth != nil {
		if missing := in.Identity.Missing(a.Scopes); len(missing) > 0 {
			return &CallError{Code: InsufficientScope, Scopes: stepUpScopes(in.Identity.Scopes, a.Scopes),
				Message: fmt.Sprintf("The %s needs the scope %s, which the access token does not grant. Authorize again asking for it.", target(), strings.Join(missing, " "))}
		}
	}
	if !a.UsesIdentity {
		return nil
	}
	if in.Identity == nil || t.Auth == nil {
		return callError(InvalidParams, fmt.Sprintf("The %s acts for the signed-in user (it reads auth.*), and this request carries no verified access token. It can be used over HTTP with a token only.", target()))
	}
	v, err := identityOf(t, in.Identity)
	if err != nil {
		return callError(InvalidParams, err.Error())
	}
	in.identity = v
	return nil
}

// stepUpScopes is what a token without need should ask for: the scopes
// it holds and those needed, so that authorizing again loses nothing.
func stepUpScopes(held, need []string) []string {
	out := slices.Clone(held)
	for _, s := range need {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// identityOf builds auth.* from a verified identity: its subject, scopes
// and the declared claims, each of its declared type (null when an
// optional claim is absent).
func identityOf(t *table.Table, id *auth.Identity) (*identityValue, error) {
	attrs := make(map[string]cty.Value, len(t.Claims))
	raw := make(map[string]any, len(t.Claims))
	for _, cl := range t.Claims {
		v, ok := id.Claims[cl.Name]
		if (!ok || v == nil) && cl.Name == "sub" && id.Subject != "" {
			v = id.Subject
		}
		if v == nil && cl.Required {
			return nil, fmt.Errorf("The access token carries no %q claim, which this server needs. Ask the authorization server to include it.", cl.Name)
		}
		cv, err := cl.Convert(v)
		if err != nil {
			return nil, fmt.Errorf("The %q claim of the access token is not %s: %s.", cl.Name, adapter.TypeName(cl.Type), err)
		}
		attrs[cl.Name] = cv
		// The programs see the converted value too, not the token's: a
		// claim "7" declared a number is 7 in both languages.
		conv, err := eval.ToJSON(cv)
		if err != nil {
			return nil, fmt.Errorf("The %q claim of the access token is not %s: %s.", cl.Name, adapter.TypeName(cl.Type), err)
		}
		raw[cl.Name] = table.JSONValue(conv)
	}
	scopes := make([]cty.Value, len(id.Scopes))
	scopeList := make([]any, len(id.Scopes))
	for i, s := range id.Scopes {
		scopes[i], scopeList[i] = cty.StringVal(s), s
	}
	list := cty.ListValEmpty(cty.String)
	if len(scopes) > 0 {
		list = cty.ListVal(scopes)
	}
	value := cty.ObjectVal(map[string]cty.Value{"subject": cty.StringVal(id.Subject), "scopes": list, "claims": cty.ObjectVal(attrs)})
	fields := map[string]any{"subject": id.Subject, "scopes": scopeList, "claims": raw}
	return &identityValue{vars: map[string]cty.Value{"auth": value}, fields: map[string]any{"auth": fields}}, nil
}

// authVars are the root variables auth.* adds to the call's HCL
// expressions; nil when the call reads none.
func (in *CallInput) authVars() map[string]cty.Value {
	if in.identity == nil {
		return nil
	}
	return in.identity.vars
}

// callVars are the further variables of the call's HCL expressions: the
// steps that ran (run may be nil) and auth.
func callVars(in *CallInput, run *stepRun) map[string]cty.Value {
	if run != nil {
		return run.vars()
	}
	return in.authVars()
}

// withIdentity adds auth to what the owner's programs read.
func (in *CallInput) withIdentity(res *adapter.Result) *adapter.Result {
	if in.identity == nil {
		return res
	}
	return withFields(res, in.identity.fields)
}
