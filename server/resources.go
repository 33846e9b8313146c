package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// ReadResource implements mcp.Handler. A URI is served by the resource with
// exactly that URI, else by the most specific matching template (the one
// with the most literal characters); an unknown URI is a protocol error
// whose code depends on the era (the mcp package shapes it).
func (s *Server) ReadResource(ctx context.Context, req *mcp.Request, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	st := s.acquire()
	defer st.release()
	res, err := s.readResourceOrTemplate(ctx, req, p, st)
	if res != nil && len(st.secrets) > 0 {
		for i := range res.Contents {
			res.Contents[i].Text = redact(res.Contents[i].Text, st.secrets)
		}
	}
	return res, redactError(err, st.secrets)
}

// HasResource implements mcp.ResourceLookup: whether a resource or a
// template serves uri, so that subscribing to anything else is refused.
func (s *Server) HasResource(uri string) bool {
	st := s.state.Load()
	if _, ok := st.resIndex[uri]; ok {
		return true
	}
	t, _ := st.matchTemplate(uri)
	return t != nil
}

func (s *Server) readResourceOrTemplate(ctx context.Context, req *mcp.Request, p *mcp.ReadResourceParams, st *state) (*mcp.ReadResourceResult, error) {
	if r, ok := st.resIndex[p.URI]; ok {
		return s.readResource(ctx, req, st, r)
	}
	if decoded, err := url.PathUnescape(p.URI); err == nil && !utf8.ValidString(decoded) {
		// Decoding would turn the bytes into U+FFFD, and different URIs
		// would reach the same backend value.
		return nil, mcp.InvalidParams("the URI %q is not UTF-8 once its %%-escapes are decoded", p.URI)
	}
	if t, vars := st.matchTemplate(p.URI); t != nil {
		return s.readTemplate(ctx, req, st, t, p.URI, vars)
	}
	return nil, notFound(p.URI, "")
}

func (s *Server) readResource(ctx context.Context, req *mcp.Request, st *state, r *dispatch.Resource) (*mcp.ReadResourceResult, error) {
	c := mcp.ResourceContents{URI: r.URI, MimeType: r.MimeType}
	switch {
	case r.Action != nil:
		args := &callArgs{JSON: map[string]any{}, Cty: cty.EmptyObjectVal}
		return s.readByCall(ctx, req, st, r.URI, r.MimeType, r.Action, &r.Answer, args)
	case r.File != "":
		b, err := eval.ReadConfigFile("", r.File)
		if err != nil {
			s.log.Error("resource file unreadable", "uri", r.URI, "error", err, "path", filePath(err))
			if missingFile(err) {
				return nil, notFound(r.URI, "")
			}
			return nil, mcp.Errorf(mcp.CodeInternalError, "the resource %s cannot be read: %s", r.URI, err)
		}
		setContents(&c, b)
	case r.Blob != "":
		c.Blob = r.Blob
	default:
		c.Text = r.Text
	}
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{c}}, nil
}

// setContents stores file bytes as text when they are UTF-8 text, else as a
// base64 blob.
func setContents(c *mcp.ResourceContents, b []byte) {
	if isText(c.MimeType, b) {
		c.Text = string(b)
		return
	}
	c.Blob = base64.StdEncoding.EncodeToString(b)
}

func (s *Server) readTemplate(ctx context.Context, req *mcp.Request, st *state, t *dispatch.Template, uri string, vars map[string]string) (*mcp.ReadResourceResult, error) {
	raw, _ := json.Marshal(templateArgs(t, vars))
	args, err := decodeArgs(t.Args, st.table.Static, raw)
	if err != nil {
		var p *argProblem
		if errors.As(err, &p) {
			return nil, mcp.InvalidParams("%s does not fit the template %s: %s", uri, t.URITemplate, p.msg)
		}
		return nil, err
	}
	if t.Action != nil {
		return s.readByCall(ctx, req, st, uri, t.MimeType, t.Action, &t.Answer, args)
	}
	c := mcp.ResourceContents{URI: uri, MimeType: t.MimeType}
	expr, blob := t.Text, false
	if expr == nil {
		expr, blob = t.Blob, true
	}
	text, err := evalString(expr, st, args.Cty)
	if err != nil {
		s.log.Error("template content failed", "uri", uri, "error", err, "path", filePath(err))
		if missingFile(err) {
			return nil, notFound(uri, "")
		}
		return nil, mcp.Errorf(mcp.CodeInternalError, "the resource %s cannot be built: %s", uri, err)
	}
	if blob {
		c.Blob = text
	} else {
		c.Text = text
	}
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{c}}, nil
}

// templateArgs converts URI variables (always strings) to the JSON types
// their arguments declare, so "42" can satisfy an integer argument.
func templateArgs(t *dispatch.Template, vars map[string]string) map[string]any {
	out := map[string]any{}
	for _, a := range t.Args.List {
		v, ok := vars[a.Name]
		if !ok {
			continue
		}
		out[a.Name] = v
		if a.Type == cty.Number || a.Type == cty.Bool {
			// A number as json.Number: the URI's digits, not a double's.
			dec := json.NewDecoder(strings.NewReader(v))
			dec.UseNumber()
			var n any
			if json.Valid([]byte(v)) && dec.Decode(&n) == nil {
				out[a.Name] = n
			}
		}
	}
	return out
}

func (s *Server) readByCall(ctx context.Context, req *mcp.Request, st *state, uri, mimeType string, action adapter.Action, ans *dispatch.Answer, args *callArgs) (*mcp.ReadResourceResult, error) {
	res, failure := s.invoke(ctx, "resource "+uri, action, 0, adapterRequest(ctx, req, st, args))
	if failure != "" {
		return nil, mcp.Errorf(mcp.CodeInternalError, "%s", failure)
	}
	out, err := mapAnswer(ans, res, args.JSON)
	if err != nil {
		s.log.Error("mapping the answer failed", "uri", uri, "error", err)
		return nil, mcp.Errorf(mcp.CodeInternalError, "the answer for %s could not be read: %s", uri, err)
	}
	if out.failed {
		return nil, mcp.Errorf(mcp.CodeInternalError, "%s", out.text)
	}
	if out.isError {
		return nil, notFound(uri, out.text)
	}
	c := mcp.ResourceContents{URI: uri, MimeType: mimeType}
	switch {
	case out.media != nil:
		c.Blob = base64.StdEncoding.EncodeToString(out.media.Data)
		if c.MimeType == "" {
			c.MimeType = out.media.MimeType
		}
	case out.structured != nil && (mimeType == "application/json" || mimeType == "" && out.text == ""):
		b, err := out.structuredJSON()
		if err != nil {
			s.log.Error("encoding the answer failed", "uri", uri, "error", err)
			return nil, mcp.Errorf(mcp.CodeInternalError, "the answer for %s could not be sent: %s", uri, err)
		}
		c.Text = string(b)
	default:
		c.Text = out.text
	}
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{c}}, nil
}

// notFound is the one protocol error of a read that finds nothing to
// serve: an unknown URI, a missing file, or a read the configuration turns
// down (an error rule that held, a result block's is_error). It is
// "resource not found" in the code each revision gives it (-32002 up to
// 2025-11-25, -32602 from 2026-07-28; the mcp package picks it), also for
// a prompt embedding the resource, carrying the rule's message for the
// client when there is one, never an internal error.
func notFound(uri, msg string) *mcp.Error {
	e := mcp.ResourceNotFound(uri)
	if msg != "" {
		e.Message = msg
	}
	return e
}

func evalString(expr hcl.Expression, st *state, args cty.Value) (string, error) {
	return evalStringExtra(expr, st, args, nil)
}

// evalStringExtra is evalString with further variables.
func evalStringExtra(expr hcl.Expression, st *state, args cty.Value, extra map[string]cty.Value) (string, error) {
	ctx := st.table.Static.WithArgs(expr, args)
	for k, v := range extra {
		ctx.Variables[k] = v
	}
	v, diags := eval.Value(expr, ctx)
	if diags.HasErrors() {
		if fe := eval.FileErrorOf(diags); fe != nil {
			return "", fe
		}
		return "", errors.New(diags[0].Detail)
	}
	// A number or bool is written as text, as HCL converts it for any
	// string attribute ("${args.n}" alone is the number itself).
	if v.IsKnown() && !v.IsNull() && v.Type().IsPrimitiveType() {
		v, _ = convert.Convert(v, cty.String)
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", fmt.Errorf("the value is not a string")
	}
	return v.AsString(), nil
}

// missingFile reports whether err is a file() or filebase64() that found
// no file it may read: for the client, the resource does not exist.
func missingFile(err error) bool {
	var fe *eval.FileError
	return errors.As(err, &fe) && fe.Missing
}

// filePath is the server path behind a file error, for the log only.
func filePath(err error) string {
	var fe *eval.FileError
	if errors.As(err, &fe) {
		return fe.Path
	}
	return ""
}
