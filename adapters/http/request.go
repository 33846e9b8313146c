package httpadapter

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// outgoing is one call's request, built once and sent by every attempt.
type outgoing struct {
	method string
	// url is the full URL: the base URL, the escaped path and the escaped
	// query. It may hold an API key; show it only through runtime.redact.
	url string
	// parsed is url parsed (and checked); each attempt's request gets a
	// copy of it.
	parsed *url.URL
	header http.Header
	body   []byte
	// authorized is set when the call's or the forwarded headers set
	// Authorization, which then wins over an OAuth2 token.
	authorized bool
	// caller is the caller's verified access token, for a backend that
	// exchanges it (token_exchange); never sent as it is.
	caller string
	// attempts counts the times the request was sent.
	attempts int
	// observer is given each attempt's header and status (trace context);
	// nil when the call is not observed.
	observer adapter.Observer
}

// hopByHop are the headers that describe one connection, never forwarded
// (RFC 9110 §7.6.1), with the ones the client computes itself.
var hopByHop = []string{
	"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
	"Host", "Content-Length",
}

// evaluator evaluates a call's expressions with one evaluation context,
// borrowed on the first expression and given back by release once the
// request is built (the values computed in it do not refer to it).
type evaluator struct {
	req *adapter.Request
	ctx *hcl.EvalContext
}

func (ev *evaluator) release() {
	if ev.ctx != nil {
		eval.Return(ev.ctx)
		ev.ctx = nil
	}
}

func (ev *evaluator) value(expr hcl.Expression, what string) (cty.Value, error) {
	return ev.valueOf(expr, func() string { return what })
}

// valueOf is value with the thing's name built by describe, only for a
// message: a call that succeeds builds no description.
func (ev *evaluator) valueOf(expr hcl.Expression, describe func() string) (cty.Value, error) {
	if ev.ctx == nil {
		ev.ctx = ev.req.Borrow(expr)
	}
	v, diags := eval.Value(expr, ev.ctx)
	if diags.HasErrors() {
		d := diags[0]
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + strings.TrimSuffix(d.Detail, ".")
		}
		return cty.NilVal, buildError("%s could not be computed (%s).", describe(), msg)
	}
	v, _ = v.Unmark()
	if !v.IsWhollyKnown() {
		return cty.NilVal, buildError("%s is not known.", describe())
	}
	return v, nil
}

// buildError is a request that could not be built from the arguments: the
// model may fix it by calling again with other arguments.
func buildError(format string, a ...any) *adapter.CallError {
	return &adapter.CallError{Message: "The request was not sent: " + lowerFirst(fmt.Sprintf(format, a...))}
}

// build makes the request of one call from its arguments.
func (a *Action) build(rt *runtime, req *adapter.Request) (*outgoing, error) {
	ev := &evaluator{req: req}
	defer ev.release()
	out := &outgoing{method: a.Method, observer: req.Observer, caller: req.CallerToken}

	var sb strings.Builder
	sb.Grow(len(rt.prefix) + 64)
	sb.WriteString(rt.prefix)
	if err := a.buildPath(&sb, ev); err != nil {
		return nil, err
	}
	pathEnd := sb.Len()
	sb.WriteByte('?')
	if err := writeParams(&sb, a.Query, a.QueryExpr, a.queryNames, ev, "query"); err != nil {
		return nil, err
	}
	if rt.apiKeyQuery != "" {
		if sb.Len() > pathEnd+1 {
			sb.WriteByte('&')
		}
		sb.WriteString(rt.apiKeyQuery)
	}
	full := sb.String()
	if len(full) == pathEnd+1 {
		full = full[:pathEnd]
	}
	// Whatever the arguments held, the URL keeps the backend's scheme and
	// host, and resty sends exactly this string.
	u, err := url.Parse(full)
	if err != nil || !sameOrigin(u, rt.base) || u.User != nil || u.Fragment != "" || u.String() != full || u.EscapedPath() != full[len(rt.origin):pathEnd] {
		return nil, fmt.Errorf("%s: the request URL %s does not stay on the backend's host", a.Owner, rt.redact(full))
	}
	out.url, out.parsed = full, u

	h := make(http.Header, len(rt.header)+4)
	for k, v := range rt.header {
		h[k] = v[:len(v):len(v)]
	}
	if err := a.forward(h, req.Header, out); err != nil {
		return nil, err
	}
	if err := a.buildBody(h, ev, out); err != nil {
		return nil, err
	}
	if err := a.callHeaders(h, ev, out); err != nil {
		return nil, err
	}
	out.header = h
	return out, nil
}

// buildPath appends the path: literal parts as written (characters that
// are not allowed in a path escaped), each interpolated value path-escaped,
// so that no value can add a segment, a query or a fragment.
func (a *Action) buildPath(sb *strings.Builder, ev *evaluator) error {
	start := sb.Len()
	for i, p := range a.Path {
		if p.Expr == nil {
			writeLiteralPath(sb, p.Literal)
			continue
		}
		what := func() string { return "the path value " + a.partSource(i) }
		v, err := ev.valueOf(p.Expr, what)
		if err != nil {
			return err
		}
		s, err := eval.PartString(v)
		if err != nil {
			return buildError("%s cannot be used: %s.", what(), err)
		}
		if s == "" && strings.HasSuffix(sb.String(), "/") && (i+1 == len(a.Path) || a.Path[i+1].Expr == nil && strings.HasPrefix(a.Path[i+1].Literal, "/")) {
			return buildError("%s is empty, which would leave a path segment empty and address another resource. Give a value.", what())
		}
		if i < len(a.multiSegment) && a.multiSegment[i] {
			if err := writeSegments(sb, s, what()); err != nil {
				return err
			}
			continue
		}
		if sep := separatorIn(s); sep != "" {
			return buildError("%s holds a %q (or an encoding of it, such as %s), which would split the segment in two and address another resource. Give the value of one path segment.", what(), sep[:1], sep[1:])
		}
		sb.WriteString(url.PathEscape(s))
	}
	for seg := range strings.SplitSeq(sb.String()[start:], "/") {
		switch dotSegment(seg) {
		case "..":
			return buildError("a path segment would be \"..\", which would climb out of the API's path. Give another value.")
		case ".":
			return buildError("a path segment would be \".\", which servers drop, addressing another resource. Give another value.")
		}
	}
	return nil
}

// writeSegments writes a value that the URI template lets hold "/"
// ({+path}) as several segments, each checked and escaped on its own: no
// empty segment, and no separator hidden in one.
func writeSegments(sb *strings.Builder, s, what string) error {
	for j, seg := range strings.Split(s, "/") {
		if seg == "" {
			return buildError("%s holds an empty segment (a leading, trailing or doubled \"/\"), which would address another resource. Give a path like a/b/c.", what)
		}
		if sep := separatorIn(seg); sep != "" {
			return buildError("%s holds a %q inside a segment (or an encoding of it, such as %s), which would address another resource. Separate segments with a plain \"/\".", what, sep[:1], sep[1:])
		}
		if j > 0 {
			sb.WriteByte('/')
		}
		sb.WriteString(url.PathEscape(seg))
	}
	return nil
}

// separatorIn finds a path separator in a path value: "/" or a backslash as
// they are, or once a server or proxy percent-decodes the value any
// number of times (%2F, %252F, %5C), or as an overlong UTF-8 form (%C0%AF)
// that old decoders read as one. It returns the separator and the
// encoding to quote, or "".
func separatorIn(s string) string {
	for {
		if i := strings.IndexAny(s, "/\\"); i >= 0 {
			if s[i] == '/' {
				return "/%2F"
			}
			return "\\%5C"
		}
		if strings.IndexByte(s, 0xC0) >= 0 || strings.IndexByte(s, 0xC1) >= 0 {
			return "/%C0%AF"
		}
		if sep := lookalikeSeparator(s); sep != "" {
			return sep
		}
		d := percentDecode(s)
		if d == s {
			return ""
		}
		s = d
	}
}

// dotSegment returns "." or ".." when seg (escaped, as sent) is one once
// decoded any number of times, and once a ";parameter" is dropped, as
// some servers do ("..;x" is ".." to them); else "".
func dotSegment(seg string) string {
	for {
		name, _, _ := strings.Cut(compatible(seg), ";")
		if name == "." || name == ".." {
			return name
		}
		d := percentDecode(seg)
		if d == seg {
			return ""
		}
		seg = d
	}
}

// lookalikeSeparator finds a character that a server normalising Unicode
// (NFKC: U+FF0F FULLWIDTH SOLIDUS is "/") or mapping text to a legacy code
// page ("best fit": U+2215 DIVISION SLASH is "/") reads as "/" or a
// backslash. It returns the separator and the character's encoding, or "".
func lookalikeSeparator(s string) string {
	if isASCII(s) {
		return ""
	}
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		sep := bestFitSeparators[r]
		if sep == 0 {
			if n := norm.NFKC.String(string(r)); strings.ContainsAny(n, "/\\") {
				sep = rune(n[strings.IndexAny(n, "/\\")])
			}
		}
		if sep != 0 {
			return string(sep) + url.PathEscape(string(r))
		}
	}
	return ""
}

// bestFitSeparators are characters without a compatibility decomposition
// that code page conversions map to "/" or a backslash.
var bestFitSeparators = map[rune]rune{'\u2215': '/', '\u2044': '/', '\u29F8': '/', '\u29F5': '\\', '\u29F9': '\\'}

// compatible is s in NFKC when it holds non-ASCII text, as a server that
// normalises Unicode reads it ("\uFF0E\uFF0E" is "..").
func compatible(s string) string {
	if isASCII(s) {
		return s
	}
	return norm.NFKC.String(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// percentDecode decodes every valid %XX escape of s and leaves the rest
// as it is, as lenient decoders do.
func percentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			sb.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func (a *Action) partSource(i int) string {
	if i < len(a.partSrc) && a.partSrc[i] != "" {
		return a.partSrc[i]
	}
	return fmt.Sprintf("#%d", i+1)
}

// writeLiteralPath copies literal path text, escaping what a path may not
// hold (spaces, non-ASCII) and keeping valid %XX escapes.
func writeLiteralPath(sb *strings.Builder, lit string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		switch {
		case isPathChar(c):
			sb.WriteByte(c)
		case c == '%' && i+2 < len(lit) && isHex(lit[i+1]) && isHex(lit[i+2]):
			sb.WriteByte(c)
		default:
			sb.WriteByte('%')
			sb.WriteByte(hex[c>>4])
			sb.WriteByte(hex[c&15])
		}
	}
}

func isPathChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("-._~!$&'()*+,;=:@/", c) >= 0
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// writeParams appends name=value pairs, query-escaped and joined with &,
// in the order written (sorted by name for a computed map). Lists repeat
// the name; null values are left out. A computed map may only hold the
// names fixed at load time (names).
func writeParams(sb *strings.Builder, items []Param, whole hcl.Expression, names map[string]bool, ev *evaluator, what string) error {
	first := true
	add := func(name string, v cty.Value) error {
		vals, err := paramValues(v)
		if err != nil {
			return buildError("the %s value %s %s", what, name, err)
		}
		for _, s := range vals {
			if !first {
				sb.WriteByte('&')
			}
			first = false
			sb.WriteString(url.QueryEscape(name))
			sb.WriteByte('=')
			sb.WriteString(url.QueryEscape(s))
		}
		return nil
	}
	for _, it := range items {
		v, err := ev.valueOf(it.Expr, func() string { return "the " + what + " value " + it.Name })
		if err != nil {
			return err
		}
		if err := add(it.Name, v); err != nil {
			return err
		}
	}
	if whole != nil {
		v, err := ev.value(whole, what)
		if err != nil {
			return err
		}
		if v.IsNull() {
			return nil
		}
		if !v.Type().IsObjectType() && !v.Type().IsMapType() {
			return buildError("%s must be a map, not %s.", what, v.Type().FriendlyName())
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if !names[k.AsString()] {
				return unlistedName(what, k.AsString())
			}
			if err := add(k.AsString(), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// paramValues converts a query, form or header value to its strings: none
// for null, one for a string, number or bool, one per element of a list.
func paramValues(v cty.Value) ([]string, error) {
	if v.IsNull() {
		return nil, nil
	}
	ty := v.Type()
	if ty.IsPrimitiveType() {
		s, err := eval.PartString(v)
		if err != nil {
			return nil, fmt.Errorf("cannot be used: %s.", err)
		}
		return []string{s}, nil
	}
	if !(ty.IsListType() || ty.IsSetType() || ty.IsTupleType()) {
		return nil, fmt.Errorf("is %s; it must be a string, number or bool, or a list of them.", ty.FriendlyName())
	}
	out := make([]string, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			continue
		}
		if !e.Type().IsPrimitiveType() {
			return nil, fmt.Errorf("holds %s; lists must hold strings, numbers or bools.", e.Type().FriendlyName())
		}
		s, err := eval.PartString(e)
		if err != nil {
			return nil, fmt.Errorf("cannot be used: %s.", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// forward copies the inbound headers the backend lists, never hop-by-hop
// ones nor those the inbound Connection header names.
func (a *Action) forward(h, inbound http.Header, out *outgoing) error {
	if inbound == nil || len(a.Backend.ForwardHeaders) == 0 {
		return nil
	}
	for _, name := range a.Backend.ForwardHeaders {
		if slices.Contains(hopByHop, name) || connectionOption(inbound, name) {
			continue
		}
		vals := inbound.Values(name)
		if len(vals) == 0 {
			continue
		}
		for _, v := range vals {
			if badHeaderValue(v) {
				return buildError("the forwarded header %s holds a line break or another control character.", name)
			}
		}
		h[name] = slices.Clone(vals)
		if name == "Authorization" {
			out.authorized = true
		}
	}
	return nil
}

func connectionOption(h http.Header, name string) bool {
	for _, v := range h.Values("Connection") {
		for opt := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(opt), name) {
				return true
			}
		}
	}
	return false
}

func (a *Action) buildBody(h http.Header, ev *evaluator, out *outgoing) error {
	switch a.BodyKind {
	case BodyJSON:
		// Arguments go into the body as the client sent them: an optional
		// field left out stays out (not null), strings keep their bytes.
		body, err := eval.JSONText(a.Body, ev.req.ArgsJSON, func(e hcl.Expression) (cty.Value, error) {
			return ev.value(e, "the body")
		})
		if err != nil {
			if _, ok := err.(*adapter.CallError); ok {
				return err
			}
			return buildError("the body cannot be sent as JSON: %s.", err)
		}
		if body == nil {
			return nil // an absent optional body: send none
		}
		out.body = body
		h.Set("Content-Type", orDefault(a.ContentType, "application/json"))
	case BodyForm:
		var sb strings.Builder
		if err := writeParams(&sb, a.Form, a.FormExpr, a.formNames, ev, "form"); err != nil {
			return err
		}
		out.body = []byte(sb.String())
		h.Set("Content-Type", "application/x-www-form-urlencoded")
	case BodyRaw:
		v, err := ev.value(a.RawBody, "raw_body")
		if err != nil {
			return err
		}
		if v.IsNull() {
			return nil
		}
		s, err := eval.PartString(v)
		if err != nil {
			return buildError("raw_body cannot be used: %s.", err)
		}
		out.body = []byte(s)
		h.Set("Content-Type", a.ContentType)
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// callHeaders sets the call's own headers, which win over the backend's
// and the forwarded ones. A value with a line break is refused, never sent.
func (a *Action) callHeaders(h http.Header, ev *evaluator, out *outgoing) error {
	set := func(name string, v cty.Value) error {
		vals, err := paramValues(v)
		if err != nil {
			return buildError("the header %s %s", name, err)
		}
		if len(vals) == 0 {
			return nil
		}
		for _, s := range vals {
			if badHeaderValue(s) {
				return buildError("the value of the header %s holds a line break (CR or LF) or another control character, which could add headers of its own. Give a value on one line.", name)
			}
		}
		name = http.CanonicalHeaderKey(name)
		h[name] = vals
		if name == "Authorization" {
			out.authorized = true
		}
		return nil
	}
	for _, it := range a.Headers {
		v, err := ev.valueOf(it.Expr, func() string { return "the header " + it.Name })
		if err != nil {
			return err
		}
		if err := set(it.Name, v); err != nil {
			return err
		}
	}
	if a.HeadersExpr != nil {
		v, err := ev.value(a.HeadersExpr, "headers")
		if err != nil {
			return err
		}
		if v.IsNull() {
			return nil
		}
		if !v.Type().IsObjectType() && !v.Type().IsMapType() {
			return buildError("headers must be a map, not %s.", v.Type().FriendlyName())
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if !a.headerNames[k.AsString()] {
				return unlistedName("headers", k.AsString())
			}
			if !validHeaderName(k.AsString()) {
				return buildError("%q is not a valid header name.", k.AsString())
			}
			if err := set(k.AsString(), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// unlistedName refuses a computed name the configuration does not list
// (the load-time check makes this unreachable; it keeps the rule local).
func unlistedName(what, name string) error {
	return buildError("the %s name %q is not one the configuration names.", what, name)
}
