package dispatch

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/table"
)

// ToolResult is what a tool call gives the model: content blocks, the
// structured content as JSON (nil when there is none) and whether it is an
// error the model should act on.
type ToolResult struct {
	IsError    bool
	Content    []Block
	Structured json.RawMessage
	// TimedOut marks an error result given because the tool's own
	// deadline (its timeout, or the server's default) stopped the call,
	// for metrics and logs; the client sees only IsError.
	TimedOut bool
}

// Block is one content block of a result or a prompt message. Kind is the
// protocol's type: text, image, audio, resource_link or resource.
type Block struct {
	Kind     string
	Text     string // text
	Data     string // image, audio: base64
	MimeType string
	// Link is a resource_link's target; Resource an embedded resource.
	Link     *Link
	Resource *Contents
}

// Link is the target of a resource_link block.
type Link struct {
	URI, Name, MimeType, Description string
}

// Contents is a resource's content: text or a base64 blob.
type Contents struct {
	URI, MimeType, Text, Blob string
	// UI is an app's _meta.ui (McpUiResourceMeta); nil for other
	// resources and apps that set none of it.
	UI map[string]any
	// CacheScope is the resource's or template's cacheScope
	// (CachePublic or CachePrivate).
	CacheScope string
}

// Block kinds.
const (
	KindText         = "text"
	KindImage        = "image"
	KindAudio        = "audio"
	KindResourceLink = "resource_link"
	KindResource     = "resource"
)

// TextBlock is a text content block.
func TextBlock(s string) Block { return Block{Kind: KindText, Text: s} }

// CallTool calls the tool named name: decode and check the arguments, ask
// the client the tool's questions, run the call, apply error rules and the
// result block, check the output schema. A tool that fails in a way the
// model can act on gives a result with IsError; err is a *CallError (an
// unknown tool), an Asker's own error, or nil. Nothing it returns holds a
// sensitive variable, nor (outside the backend's own answer) a sensitive
// argument.
func CallTool(ctx context.Context, t *table.Table, name string, in *CallInput) (*ToolResult, error) {
	tool := t.Tool(name)
	if tool == nil {
		return nil, callError(InvalidParams, fmt.Sprintf("unknown tool %q", name))
	}
	if e := admit(t, in, &tool.Access, func() string { return fmt.Sprintf("tool %q", name) }); e != nil {
		if e.Code == InsufficientScope {
			return nil, e
		}
		return errorResult(e.Message), nil // the model can tell the user
	}
	own := sensitiveArgTexts(tool.Args, in.Arguments)
	ctx = WithCallSecrets(ctx, own)
	res, err := callTool(ctx, t, tool, in)
	if len(own) > 0 || len(t.Secrets) > 0 {
		if res != nil && res.IsError {
			redactBlocks(res.Content, own)
		}
		if res != nil {
			redactToolResult(res, t.Secrets)
		}
		err = redactCallError(err, own, t.Secrets)
	}
	return res, err
}

func callTool(ctx context.Context, t *table.Table, tool *table.Tool, in *CallInput) (*ToolResult, error) {
	log := in.logger()
	args, err := decode(tool.Args, t.Static, in.Arguments)
	if err != nil {
		return argError(ctx, log, tool.Name, err), nil
	}
	var answerFields map[string]any
	if len(tool.Questions) > 0 {
		answers, instead, err := ask(ctx, t, in, "tool "+tool.Name, tool.Questions, args)
		if answers == nil {
			return instead, err
		}
		if answerFields, instead, err = decodeAnswers(tool.Questions, answers); instead != nil || err != nil {
			return instead, err // declined before the call: nothing is run
		}
	}
	timeout := tool.Timeout
	if timeout <= 0 {
		timeout = in.DefaultTimeout
	}
	res, run, instead := runTool(ctx, t, in, tool, args, timeout)
	if instead != nil {
		return instead, nil
	}
	if answerFields != nil {
		res = withFields(res, answerFields)
	}
	res = in.withIdentity(run.withSteps(res))
	out, err := mapAnswer(&tool.Answer, res, args.JSON)
	if err != nil {
		log.ErrorContext(ctx, "mapping the answer failed", "tool", tool.Name, "error", err)
		return errorResult(fmt.Sprintf("The answer could not be read: %s. The tool's configuration may not match what the backend returned.", err)), nil
	}
	if msg := checkOutput(ctx, log, tool, out); msg != "" {
		return errorResult(msg), nil
	}
	if len(tool.Content) > 0 {
		return contentResult(ctx, t, log, tool, args, callVars(in, run), out), nil
	}
	r, err := toolResult(out)
	if err != nil {
		log.ErrorContext(ctx, "encoding the answer failed", "tool", tool.Name, "error", err)
		return errorResult(fmt.Sprintf("The answer could not be sent: %s. The tool's result expressions may produce a value JSON cannot hold.", err)), nil
	}
	return r, nil
}

// runTool runs a tool's steps and its call under the call's one deadline
// (timeout, when positive). Instead of an answer it may return the error
// result that ended the call: a step's failure or error rule, or the
// call's own failure.
func runTool(ctx context.Context, t *table.Table, in *CallInput, tool *table.Tool, args *callArgs, timeout time.Duration) (*adapter.Result, *stepRun, *ToolResult) {
	if tool.Action == nil && len(tool.Steps) == 0 {
		return nil, nil, nil
	}
	log := in.logger()
	parent := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	res, run, instead := runToolWithin(ctx, t, in, log, tool, args, timeout)
	if instead != nil && stoppedAtDeadline(ctx, parent) {
		instead.TimedOut = true
	}
	return res, run, instead
}

// stoppedAtDeadline reports that the call's own deadline (ctx's) ended it,
// not its caller going away (parent's end).
func stoppedAtDeadline(ctx, parent context.Context) bool {
	return errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil
}

// runToolWithin is runTool inside the call's deadline, already in ctx.
func runToolWithin(ctx context.Context, t *table.Table, in *CallInput, log *slog.Logger, tool *table.Tool, args *callArgs, timeout time.Duration) (*adapter.Result, *stepRun, *ToolResult) {
	var run *stepRun
	if len(tool.Steps) > 0 {
		var stop *stopped
		var err error
		run, stop, err = runSteps(ctx, t, in, "tool "+tool.Name, tool.Steps, args, timeout)
		if err != nil {
			log.ErrorContext(ctx, "a step failed", "tool", tool.Name, "error", err)
			return nil, nil, errorResult(fmt.Sprintf("The call could not go on: %s. The tool's configuration may not match what the backend returned.", err))
		}
		if stop != nil {
			return nil, nil, errorResult(stop.text)
		}
	}
	if tool.Action == nil {
		return nil, run, nil
	}
	req := adapterRequest(ctx, t, in, args)
	req.Vars, req.AnswerOnly = callVars(in, run), readsNoFields(&tool.Answer)
	if timeout > 0 {
		req.Timeout = timeout
	}
	res, failure := invoke(ctx, log, "tool "+tool.Name, "", tool.Action, req)
	if failure != "" {
		if run != nil && len(run.answered) > 0 && timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			failure = deadlineDuring(timeout, "the tool's own call", run.answered)
		}
		return nil, nil, errorResult(failure)
	}
	return res, run, nil
}

// ask obtains the answers to questions before a call. Instead of answers
// it may return a result for the model (the client cannot be asked), or
// the Asker's own error.
func ask(ctx context.Context, t *table.Table, in *CallInput, target string, qs []*table.Question, args *callArgs) (map[string]json.RawMessage, *ToolResult, error) {
	answers, err := askAll(ctx, t, in, target, qs, args)
	var failure *AskFailure
	if errors.As(err, &failure) {
		return nil, errorResult(failure.Message), nil
	}
	if err != nil {
		return nil, nil, err
	}
	return answers, nil, nil
}

func askAll(ctx context.Context, t *table.Table, in *CallInput, target string, qs []*table.Question, args *callArgs) (map[string]json.RawMessage, error) {
	asker := in.asker()
	if asker == nil {
		return nil, &AskFailure{"This must ask the client first, and nothing here can carry the question."}
	}
	build := func(q *table.Question) (string, any, error) { return buildQuestion(t, q, args) }
	return asker(ctx, &Asking{Target: target, Questions: qs, Args: args.JSON, build: build})
}

// contentResult builds the answer of a tool from its content blocks, then
// the result block's text (if any) and structured content.
func contentResult(ctx context.Context, t *table.Table, log *slog.Logger, tool *table.Tool, args *callArgs, vars map[string]cty.Value, out *outcome) *ToolResult {
	n := len(tool.Content)
	if out.text != "" {
		n++
	}
	r := &ToolResult{IsError: out.isError, Content: make([]Block, 0, n)}
	for _, item := range tool.Content {
		block, err := contentBlock(t, item, args, vars)
		if err != nil {
			log.ErrorContext(ctx, "content block failed", "tool", tool.Name, "error", err)
			return errorResult("The answer could not be built: " + err.Error())
		}
		r.Content = append(r.Content, block)
	}
	if out.text != "" {
		r.Content = append(r.Content, TextBlock(out.text))
	}
	if out.structured != nil {
		b, err := out.structuredJSON()
		if err != nil {
			log.ErrorContext(ctx, "encoding the answer failed", "tool", tool.Name, "error", err)
			return errorResult("The answer could not be sent: " + err.Error())
		}
		r.Structured = b
	}
	return r
}

func contentBlock(t *table.Table, item *table.ContentItem, args *callArgs, vars map[string]cty.Value) (Block, error) {
	var firstErr error
	str := func(e hcl.Expression) string {
		if e == nil || firstErr != nil {
			return ""
		}
		v, err := evalString(t, e, args.Cty, vars)
		firstErr = err
		return v
	}
	switch item.Kind {
	case KindText:
		return TextBlock(str(item.Text)), firstErr
	case KindImage, KindAudio:
		return Block{Kind: item.Kind, Data: str(item.Data), MimeType: str(item.MimeType)}, firstErr
	case KindResourceLink:
		link := &Link{URI: str(item.URI), Name: str(item.Name), MimeType: str(item.MimeType), Description: str(item.Description)}
		return Block{Kind: KindResourceLink, Link: link}, firstErr
	}
	c := &Contents{URI: str(item.URI), MimeType: str(item.MimeType), Text: str(item.Text), Blob: str(item.Blob)}
	return Block{Kind: KindResource, Resource: c}, firstErr
}

// checkOutput validates structured content against the tool's output
// schema, as the protocol requires of servers that declare one.
func checkOutput(ctx context.Context, log *slog.Logger, tool *table.Tool, out *outcome) string {
	if out.isError || out.structured == nil || !tool.OutputDeclared {
		return ""
	}
	validator, err := tool.OutputValidator()
	if validator == nil || err != nil {
		return ""
	}
	value := table.JSONValue(out.structured)
	if absurd := absurdNumbers(value); len(absurd) > 0 {
		// Checked first, as in arguments: the schema library would expand
		// such a number exactly, at a cost the backend's answer chooses.
		log.WarnContext(ctx, "structured answer holds numbers of absurd size", "tool", tool.Name)
		return "The answer holds numbers too large to check against the tool's output schema:\n" + renderViolations(absurd, "answer", "field") +
			"\nThis is a problem of the backend's answer, not of the arguments."
	}
	if err := tool.ValidateOutput(value); err != nil {
		log.WarnContext(ctx, "structured answer does not match the output schema", "tool", tool.Name, "error", err)
		return "The answer does not match the tool's output schema:\n" + violations(err, "answer", "field") +
			"\nThis is a problem of the server's configuration or of the backend, not of the arguments."
	}
	return ""
}

func argError(ctx context.Context, log *slog.Logger, name string, err error) *ToolResult {
	var p *argProblem
	if errors.As(err, &p) {
		return errorResult(p.msg)
	}
	log.ErrorContext(ctx, "argument handling failed", "target", name, "error", err)
	return errorResult("The arguments could not be checked (the details are in the server log).")
}

func errorResult(msg string) *ToolResult {
	return &ToolResult{Content: []Block{TextBlock(msg)}, IsError: true}
}

// toolResult shapes an outcome as a tool result: media as an image, audio
// or embedded blob, text as text, structured values as structured content
// (with a text copy, as the protocol recommends).
func toolResult(out *outcome) (*ToolResult, error) {
	r := &ToolResult{IsError: out.isError, Content: make([]Block, 0, 2)}
	if out.media != nil {
		r.Content = append(r.Content, mediaBlock(out.media))
	}
	if out.structured != nil {
		b, err := out.structuredJSON()
		if err != nil {
			return nil, err
		}
		r.Structured = b
	}
	if out.text != "" || out.media == nil {
		r.Content = append(r.Content, TextBlock(out.text))
	}
	return r, nil
}

func mediaBlock(m *adapter.Media) Block {
	data := base64.StdEncoding.EncodeToString(m.Data)
	switch {
	case hasPrefix(m.MimeType, "image/"):
		return Block{Kind: KindImage, Data: data, MimeType: m.MimeType}
	case hasPrefix(m.MimeType, "audio/"):
		return Block{Kind: KindAudio, Data: data, MimeType: m.MimeType}
	}
	return Block{Kind: KindResource, Resource: &Contents{URI: "mcpdecl://result", MimeType: m.MimeType, Blob: data}}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// withFields adds fields (the client's answers) to what the programs see.
func withFields(res *adapter.Result, fields map[string]any) *adapter.Result {
	out := &adapter.Result{}
	if res != nil {
		*out = *res
	}
	out.Fields = make(map[string]any, len(out.Fields)+len(fields))
	if res != nil {
		for k, v := range res.Fields {
			out.Fields[k] = v
		}
	}
	for k, v := range fields {
		out.Fields[k] = v
	}
	return out
}
