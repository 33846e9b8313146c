package dispatch

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
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/table"
)

// ReadResource reads uri: the resource with exactly that URI, else the
// most specific matching template (the one with the most literal
// characters). Failures are *CallError: NotFound for an unknown URI, a
// missing file or a read the configuration turns down; InvalidParams for
// a URI that does not fit its template; Internal otherwise. Nothing it
// returns holds a sensitive variable.
func ReadResource(ctx context.Context, t *table.Table, uri string, in *CallInput) ([]Contents, error) {
	c, err := readResourceOrTemplate(ctx, t, uri, in)
	if c != nil && len(t.Secrets) > 0 {
		c.Text = rule.RedactEach(c.Text, t.Secrets)
	}
	if c == nil {
		return nil, redactCallError(err, t.Secrets)
	}
	return []Contents{*c}, nil
}

func readResourceOrTemplate(ctx context.Context, t *table.Table, uri string, in *CallInput) (*Contents, error) {
	if r := t.Resource(uri); r != nil {
		if e := admit(t, in, &r.Access, func() string { return fmt.Sprintf("resource %q", r.URI) }); e != nil {
			return nil, e
		}
		c, err := readResource(ctx, t, in, r)
		if c != nil {
			c.CacheScope = r.CacheScope
		}
		return c, err
	}
	if decoded, err := url.PathUnescape(uri); err == nil && !utf8.ValidString(decoded) {
		// Decoding would turn the bytes into U+FFFD, and different URIs
		// would reach the same backend value.
		return nil, callError(InvalidParams, fmt.Sprintf("the URI %q is not UTF-8 once its %%-escapes are decoded", uri))
	}
	if tm, vars := t.MatchTemplate(uri); tm != nil {
		if e := admit(t, in, &tm.Access, func() string { return fmt.Sprintf("resource template %q", tm.URITemplate) }); e != nil {
			return nil, e
		}
		c, err := readTemplate(ctx, t, in, tm, uri, vars)
		if c != nil {
			c.CacheScope = tm.CacheScope
		}
		return c, err
	}
	return nil, notFound(uri, "")
}

func readResource(ctx context.Context, t *table.Table, in *CallInput, r *table.Resource) (*Contents, error) {
	c := &Contents{URI: r.URI, MimeType: r.MimeType}
	if r.App != nil {
		c.UI = r.App.Meta
	}
	switch {
	case r.Action != nil:
		args := &callArgs{JSON: map[string]any{}, Cty: cty.EmptyObjectVal}
		return readByCall(ctx, t, in, r.URI, r.MimeType, r.Steps, r.Action, &r.Answer, args)
	case r.File != "":
		b, err := eval.ReadConfigFile("", r.File)
		if err != nil {
			in.logger().Error("resource file unreadable", "uri", r.URI, "error", err, "path", filePath(err))
			if missingFile(err) {
				return nil, notFound(r.URI, "")
			}
			return nil, callError(Internal, fmt.Sprintf("the resource %s cannot be read: %s", r.URI, err))
		}
		if r.App != nil {
			// Checked as UTF-8 when loaded; an edit since is sent as text
			// all the same, since hosts render an app's page only as text.
			c.Text = table.InjectCSP(string(b), r.App.Policy)
			break
		}
		setContents(c, b)
	case r.Blob != "":
		c.Blob = r.Blob
	default:
		c.Text = r.Text
	}
	return c, nil
}

// setContents stores file bytes as text when they are UTF-8 text, else as a
// base64 blob.
func setContents(c *Contents, b []byte) {
	if isText(c.MimeType, b) {
		c.Text = string(b)
		return
	}
	c.Blob = base64.StdEncoding.EncodeToString(b)
}

func readTemplate(ctx context.Context, t *table.Table, in *CallInput, tm *table.Template, uri string, vars map[string]string) (*Contents, error) {
	raw, _ := json.Marshal(templateArgs(tm, vars))
	args, err := decode(tm.Args, t.Static, raw)
	if err != nil {
		var p *argProblem
		if errors.As(err, &p) {
			return nil, callError(InvalidParams, fmt.Sprintf("%s does not fit the template %s: %s", uri, tm.URITemplate, p.msg))
		}
		return nil, err
	}
	if tm.Action != nil || tm.Text == nil && tm.Blob == nil {
		// A call, or steps whose answers the result block reads.
		return readByCall(ctx, t, in, uri, tm.MimeType, tm.Steps, tm.Action, &tm.Answer, args)
	}
	var run *stepRun
	if len(tm.Steps) > 0 {
		stepsCtx, cancel := withTimeout(ctx, in.DefaultTimeout)
		run, err = readSteps(stepsCtx, t, in, uri, tm.Steps, args)
		cancel()
		if err != nil {
			return nil, err
		}
	}
	c := &Contents{URI: uri, MimeType: tm.MimeType}
	expr, blob := tm.Text, false
	if expr == nil {
		expr, blob = tm.Blob, true
	}
	text, err := evalString(t, expr, args.Cty, callVars(in, run))
	if err != nil {
		in.logger().Error("template content failed", "uri", uri, "error", err, "path", filePath(err))
		if missingFile(err) {
			return nil, notFound(uri, "")
		}
		return nil, callError(Internal, fmt.Sprintf("the resource %s cannot be built: %s", uri, err))
	}
	if blob {
		c.Blob = text
	} else {
		c.Text = text
	}
	return c, nil
}

// templateArgs converts URI variables (always strings) to the JSON types
// their arguments declare, so "42" can satisfy an integer argument.
func templateArgs(tm *table.Template, vars map[string]string) map[string]any {
	out := map[string]any{}
	for _, a := range tm.Args.List {
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

// readByCall reads a resource by its call (action), after its steps; with
// no action, its result block builds the content from the steps alone.
func readByCall(ctx context.Context, t *table.Table, in *CallInput, uri, mimeType string, steps []*table.Step, action adapter.Action, ans *table.Answer, args *callArgs) (*Contents, error) {
	log := in.logger()
	ctx, cancel := withTimeout(ctx, in.DefaultTimeout)
	defer cancel()
	var run *stepRun
	if len(steps) > 0 {
		var err error
		if run, err = readSteps(ctx, t, in, uri, steps, args); err != nil {
			return nil, err
		}
	}
	var res *adapter.Result // none without a call: the result block reads the steps
	if action != nil {
		req := adapterRequest(ctx, t, in, args)
		req.Vars, req.Timeout, req.AnswerOnly = callVars(in, run), in.DefaultTimeout, readsNoFields(ans)
		var failure string
		if res, failure = invoke(ctx, log, "resource "+uri, "", action, req); failure != "" {
			return nil, callError(Internal, failure)
		}
	}
	out, err := mapAnswer(ans, in.withIdentity(run.withSteps(res)), args.JSON)
	if err != nil {
		log.ErrorContext(ctx, "mapping the answer failed", "uri", uri, "error", err)
		return nil, callError(Internal, fmt.Sprintf("the answer for %s could not be read: %s", uri, err))
	}
	if out.failed {
		return nil, callError(Internal, out.text)
	}
	if out.isError {
		return nil, notFound(uri, out.text)
	}
	c := &Contents{URI: uri, MimeType: mimeType}
	switch {
	case out.media != nil:
		c.Blob = base64.StdEncoding.EncodeToString(out.media.Data)
		if c.MimeType == "" {
			c.MimeType = out.media.MimeType
		}
	case out.structured != nil && (mimeType == "application/json" || mimeType == "" && out.text == ""):
		b, err := out.structuredJSON()
		if err != nil {
			log.ErrorContext(ctx, "encoding the answer failed", "uri", uri, "error", err)
			return nil, callError(Internal, fmt.Sprintf("the answer for %s could not be sent: %s", uri, err))
		}
		c.Text = string(b)
	default:
		c.Text = out.text
	}
	return c, nil
}

// readSteps runs the steps of a read: a step's failure is the server's
// (Internal), a step's error rule turns the read down (NotFound with its
// message), as for the read's own call.
func readSteps(ctx context.Context, t *table.Table, in *CallInput, uri string, steps []*table.Step, args *callArgs) (*stepRun, error) {
	run, stop, err := runSteps(ctx, t, in, "resource "+uri, steps, args, in.DefaultTimeout)
	switch {
	case err != nil:
		in.logger().Error("a step failed", "uri", uri, "error", err)
		return nil, callError(Internal, fmt.Sprintf("the answer for %s could not be read: %s", uri, err))
	case stop != nil && stop.failed:
		return nil, callError(Internal, stop.text)
	case stop != nil:
		return nil, notFound(uri, stop.text)
	}
	return run, nil
}

// notFound is the one failure of a read that finds nothing to serve: an
// unknown URI, a missing file, or a read the configuration turns down (an
// error rule that held, a result block's is_error). It carries the rule's
// message for the client when there is one.
func notFound(uri, msg string) *CallError {
	return &CallError{Code: NotFound, URI: uri, Message: msg}
}

// evalString evaluates a per-call HCL expression to text, with further
// variables (answers, steps) beside args.
func evalString(t *table.Table, expr hcl.Expression, args cty.Value, extra map[string]cty.Value) (string, error) {
	v, diags := evalBorrowed(t.Static, expr, args, extra)
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
