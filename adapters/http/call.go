package httpadapter

import (
	"fmt"
	"mime"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/english"
)

func compileCall(c *adapter.CallBlock) (*Action, hcl.Diagnostics) {
	s := c.Scope
	act := &Action{Owner: c.Owner, Method: "GET", Range: c.DeclRange}
	act.Backend, _ = c.Backend.(*Backend)

	content, diags := c.Body.Content(CallSchema)
	a := content.Attributes
	var d hcl.Diagnostics

	if m, known, d := check.String(s, a["method"], "GET"); known {
		diags = append(diags, d...)
		if !slices.Contains(Methods, m) {
			diags = append(diags, unknownMethod(m, a["method"].Expr.Range()))
		} else {
			act.Method = m
		}
	} else {
		diags = append(diags, d...)
	}

	if attr := a["path"]; attr != nil {
		act.Path, d = compilePath(s, attr)
		diags = append(diags, d...)
		act.PathSource = describeTemplate(act.Path, s.Files)
		act.partSrc = make([]string, len(act.Path))
		act.multiSegment = make([]bool, len(act.Path))
		for i, p := range act.Path {
			if p.Expr != nil {
				act.partSrc[i] = check.Source(p.Expr.Range(), s.Files)
				act.multiSegment[i] = s.Reserved[argName(p.Expr)]
			}
		}
	}

	act.Query, act.QueryExpr, d = check.DynamicMap(s, a["query"], func(it check.Item, v cty.Value) hcl.Diagnostics {
		return checkParamValue(it, v, "A query value")
	})
	diags = append(diags, d...)
	act.Form, act.FormExpr, d = check.DynamicMap(s, a["form"], func(it check.Item, v cty.Value) hcl.Diagnostics {
		return checkParamValue(it, v, "A form value")
	})
	diags = append(diags, d...)
	act.Headers, act.HeadersExpr, d = check.DynamicMap(s, a["headers"], func(it check.Item, v cty.Value) hcl.Diagnostics {
		var diags hcl.Diagnostics
		if !validHeaderName(it.Name) {
			diags = append(diags, badHeaderName(it.Name, it.NameRange))
		}
		if !check.IsPrimitive(v.Type()) {
			diags = append(diags, check.Error("Invalid header value",
				fmt.Sprintf("The header %q must be a string, number or bool; this value is %s.", it.Name, v.Type().FriendlyName()),
				it.Expr.Range()))
		}
		return diags
	})
	diags = append(diags, d...)
	act.queryNames, d = fixedNames(s, a["query"], act.QueryExpr, "query parameter")
	diags = append(diags, d...)
	act.formNames, d = fixedNames(s, a["form"], act.FormExpr, "form field")
	diags = append(diags, d...)
	act.headerNames, d = fixedNames(s, a["headers"], act.HeadersExpr, "header")
	diags = append(diags, d...)

	// The request body: body (JSON), form or raw_body, at most one.
	var bodies []*hcl.Attribute
	for _, name := range []string{"body", "form", "raw_body"} {
		if attr := a[name]; attr != nil {
			bodies = append(bodies, attr)
		}
	}
	slices.SortFunc(bodies, func(x, y *hcl.Attribute) int { return x.NameRange.Start.Byte - y.NameRange.Start.Byte })
	for _, attr := range bodies[min(1, len(bodies)):] {
		diags = append(diags, check.Error("Conflicting request bodies",
			fmt.Sprintf("This call already sends %s (line %d). body (JSON), form and raw_body are alternatives; keep one.", bodies[0].Name, bodies[0].NameRange.Start.Line),
			attr.NameRange))
	}
	if len(bodies) > 0 {
		first := bodies[0]
		act.BodyKind = first.Name
		// resty v2 never sends a body with OPTIONS either.
		if act.Method == "GET" || act.Method == "HEAD" || act.Method == "OPTIONS" {
			diags = append(diags, check.Error("Request body not allowed",
				fmt.Sprintf("%s request carries no body, and many servers ignore or reject one. Send the values as query = { ... }, or use method = \"POST\".", english.CapA(act.Method)),
				first.NameRange))
		}
	}
	if attr := a["body"]; attr != nil {
		act.Body = attr.Expr
		_, d = s.CheckDynamic(attr, cty.DynamicPseudoType)
		diags = append(diags, d...)
	}
	if attr := a["raw_body"]; attr != nil {
		act.RawBody = attr.Expr
		diags = append(diags, check.DynamicString(s, attr.Expr, attr, "raw_body")...)
		if a["content_type"] == nil && bodies[0] == attr {
			diags = append(diags, check.Error("Missing content type",
				"raw_body sends text as it is, so the server needs to be told what it is: add content_type, such as \"text/csv\" or \"application/xml\".",
				attr.NameRange))
		}
	}
	if attr := a["content_type"]; attr != nil {
		ct, known, d := check.String(s, attr, "")
		diags = append(diags, d...)
		if known {
			if _, _, err := mime.ParseMediaType(ct); err != nil {
				diags = append(diags, check.Error("Invalid content type",
					fmt.Sprintf("%q is not a media type; write one such as \"application/xml\" or \"text/plain; charset=utf-8\".", ct), attr.Expr.Range()))
			}
			act.ContentType = ct
		}
		switch {
		case a["form"] != nil:
			diags = append(diags, check.Error("Conflicting content type",
				"form always sends application/x-www-form-urlencoded. Remove content_type, or send raw_body instead.", attr.NameRange))
		case a["body"] == nil && a["raw_body"] == nil:
			diags = append(diags, check.Error("Content type without body",
				"content_type describes the request body, but this call sends none. Remove it, or add body or raw_body.", attr.NameRange))
		}
	}

	act.Timeout, d = check.Duration(s, a["timeout"], 0)
	diags = append(diags, d...)
	act.summary = act.summarize()
	return act, diags
}

// compilePath checks the path template and splits it into parts: literal
// text, and interpolations that are path-escaped at call time.
func compilePath(s *adapter.Scope, attr *hcl.Attribute) ([]eval.Part, hcl.Diagnostics) {
	parts, diags := eval.Parts(attr.Expr, s.Files)
	if diags.HasErrors() {
		return nil, diags
	}
	ranges := check.PartRanges(attr.Expr)
	if len(ranges) != len(parts) {
		ranges = nil
	}
	rangeOf := func(i int) hcl.Range {
		if ranges == nil {
			return attr.Expr.Range()
		}
		return ranges[i]
	}
	if len(parts) == 0 || parts[0].Expr != nil || !strings.HasPrefix(parts[0].Literal, "/") {
		diags = append(diags, check.Error("Invalid request path",
			"path must start with \"/\" written out, as in \"/books/${args.isbn}\"; it is appended to the backend's base_url. Set the host in the backend block.",
			attr.Expr.Range()))
	}
	for i, p := range parts {
		if p.Expr != nil {
			diags = append(diags, check.DynamicString(s, p.Expr, attr, "A path segment")...)
			diags = append(diags, nullableSegment(s, p.Expr)...)
			continue
		}
		if j := strings.IndexAny(p.Literal, "?#"); j >= 0 {
			what, fix := "a query string", "Pass query parameters with query = { name = value }, whose values are escaped for you."
			if p.Literal[j] == '#' {
				what, fix = "a fragment", "Fragments are never sent to the server; remove it."
			}
			diags = append(diags, check.Error("Query in path",
				fmt.Sprintf("path holds %s. %s", what, fix),
				check.LiteralPos(rangeOf(i), p.Literal, j, s.Files)))
		}
	}
	return parts, diags
}

// nullableSegment warns about a path segment that is an argument the
// model may leave out: the call would then fail, since a segment cannot be
// empty.
func nullableSegment(s *adapter.Scope, expr hcl.Expression) hcl.Diagnostics {
	t, ok := expr.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(t.Traversal) != 2 || t.Traversal.RootName() != "args" {
		return nil
	}
	attr, ok := t.Traversal[1].(hcl.TraverseAttr)
	if !ok || !s.MayBeNull[attr.Name] {
		return nil
	}
	return hcl.Diagnostics{check.Warning("Optional argument in path",
		fmt.Sprintf("args.%s is optional and has no default, so it is null when the model leaves it out, and the call then fails: a path segment cannot be empty. Make it required, give it a default, write a fallback, as in ${args.%s != null ? args.%s : \"all\"}, or make the call a step that runs only when it is given (when = \"args.%s != nil\").", attr.Name, attr.Name, attr.Name, attr.Name),
		expr.Range())}
}

func checkParamValue(it check.Item, v cty.Value, what string) hcl.Diagnostics {
	ty := v.Type()
	ok := check.IsPrimitive(ty)
	switch {
	case ty.IsListType() || ty.IsSetType():
		ok = check.IsPrimitive(ty.ElementType())
	case ty.IsTupleType():
		ok = true
		for _, et := range ty.TupleElementTypes() {
			ok = ok && check.IsPrimitive(et)
		}
	}
	if ok {
		return nil
	}
	return hcl.Diagnostics{check.Error("Invalid parameter value",
		fmt.Sprintf("%s (%s) must be a string, number or bool, or a list of them (sent as repeated parameters); this value is %s. Encode it with jsonencode() if the API expects JSON.", what, it.Name, ty.FriendlyName()),
		it.Expr.Range())}
}

// describeTemplate renders parts for listings, with interpolations shown
// as {source}: "/books/{args.isbn}".
func describeTemplate(parts []eval.Part, files map[string]*hcl.File) string {
	var sb strings.Builder
	for _, p := range parts {
		if p.Expr == nil {
			sb.WriteString(p.Literal)
			continue
		}
		src := check.Source(p.Expr.Range(), files)
		if src == "" {
			src = "..."
		}
		sb.WriteString("{" + src + "}")
	}
	return sb.String()
}

// fixedNames checks that query, form or headers written as one expression
// (merge(...), an argument) take their names from the configuration only:
// its type must be an object, whose attribute names the config wrote (in a
// literal or an argument's object type), or its value known at load time.
// A map or a value of any type has keys the caller chooses, who could then
// set Host, Authorization or Cookie, or a parameter the API trusts. It
// returns the names, which the call checks again.
func fixedNames(s *adapter.Scope, attr *hcl.Attribute, whole hcl.Expression, what string) (map[string]bool, hcl.Diagnostics) {
	if whole == nil {
		return nil, nil
	}
	v, d := s.CheckDynamic(attr, cty.DynamicPseudoType)
	if d.HasErrors() {
		return nil, nil // check.DynamicMap reported them
	}
	if list, ok := check.FixedNames(v); ok {
		names := make(map[string]bool, len(list))
		for _, n := range list {
			names[n] = true
		}
		return names, nil
	}
	if ty := v.Type(); !ty.IsMapType() && ty != cty.DynamicPseudoType {
		return nil, nil // not a map at all: check.DynamicMap reported it
	}
	return nil, hcl.Diagnostics{check.Error("Names from the arguments",
		fmt.Sprintf("This %s map has keys a caller chooses (it is %s), so a caller could send any %s name%s. "+
			"Write the names in the configuration and take only the values from the arguments, as in %s = { name = args.name }, "+
			"or declare the argument as an object with the attributes it may have.",
			attr.Name, v.Type().FriendlyName(), what, nameRisk(attr.Name), attr.Name),
		attr.Expr.Range())}
}

func nameRisk(attr string) string {
	if attr == "headers" {
		return ", such as Host, Authorization, Cookie or Transfer-Encoding"
	}
	return ", such as one the API trusts for access"
}

// argName is the argument an expression is exactly (args.x), or "".
func argName(expr hcl.Expression) string {
	t, ok := expr.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(t.Traversal) != 2 || t.Traversal.RootName() != "args" {
		return ""
	}
	if attr, ok := t.Traversal[1].(hcl.TraverseAttr); ok {
		return attr.Name
	}
	return ""
}
