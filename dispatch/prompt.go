package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/table"
)

// PromptResult is a rendered prompt.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string
	Content Block
}

// GetPrompt renders the prompt named name with the client's arguments.
// Failures are *CallError (missing or invalid arguments are InvalidParams,
// as the protocol says), or the Asker's own error.
func GetPrompt(ctx context.Context, t *table.Table, name string, arguments map[string]string, in *CallInput) (*PromptResult, error) {
	prompt := t.Prompt(name)
	if prompt == nil {
		return nil, callError(InvalidParams, fmt.Sprintf("unknown prompt %q", name))
	}
	if e := admit(t, in, &prompt.Access, func() string { return fmt.Sprintf("prompt %q", name) }); e != nil {
		return nil, e
	}
	raw, _ := json.Marshal(arguments)
	own := sensitiveArgTexts(prompt.Args, raw)
	res, err := getPrompt(WithCallSecrets(ctx, own), t, prompt, arguments, raw, in)
	return res, redactCallError(err, own, t.Secrets)
}

func getPrompt(ctx context.Context, t *table.Table, prompt *table.Prompt, arguments map[string]string, raw json.RawMessage, in *CallInput) (*PromptResult, error) {
	if missing := missingArgs(prompt.Args, arguments); len(missing) > 0 {
		return nil, callError(InvalidParams, fmt.Sprintf("prompt %q needs the %s %s", prompt.Name, english.Noun(len(missing), "argument"), strings.Join(missing, ", ")))
	}
	args, err := decode(prompt.Args, t.Static, raw)
	if err != nil {
		return nil, callError(InvalidParams, err.Error())
	}
	extra := maps.Clone(in.authVars())
	if len(prompt.Questions) > 0 {
		answers, err := askForPrompt(ctx, t, in, prompt, args)
		if err != nil {
			return nil, err
		}
		if extra == nil {
			extra = answers
		} else {
			maps.Copy(extra, answers)
		}
	}
	if len(prompt.Steps) > 0 {
		stepVars, err := promptSteps(ctx, t, in, prompt, args)
		if err != nil {
			return nil, err
		}
		if extra == nil {
			extra = map[string]cty.Value{}
		}
		extra["steps"] = stepVars["steps"]
	}
	out := &PromptResult{Description: prompt.Description}
	for _, m := range prompt.Messages {
		content, err := messageContent(ctx, t, in, m, args, extra)
		if err != nil {
			return nil, err
		}
		out.Messages = append(out.Messages, PromptMessage{Role: m.Role, Content: content})
	}
	return out, nil
}

// promptSteps runs a prompt's steps before its messages are built: a
// step's failure is the server's (Internal); a step's error rule turns
// the request down with its message (InvalidParams: the arguments name
// something that is not there, say).
func promptSteps(ctx context.Context, t *table.Table, in *CallInput, prompt *table.Prompt, args *callArgs) (map[string]cty.Value, error) {
	ctx, cancel := withTimeout(ctx, in.DefaultTimeout)
	defer cancel()
	run, stop, err := runSteps(ctx, t, in, "prompt "+prompt.Name, prompt.Steps, args, in.DefaultTimeout)
	switch {
	case err != nil:
		in.logger().Error("a step failed", "prompt", prompt.Name, "error", err)
		return nil, callError(Internal, fmt.Sprintf("the prompt %s cannot be built: %s", prompt.Name, err))
	case stop != nil && stop.failed:
		return nil, callError(Internal, stop.text)
	case stop != nil:
		return nil, callError(InvalidParams, stop.text)
	}
	return run.vars(), nil
}

func missingArgs(a *table.Args, given map[string]string) []string {
	var out []string
	for _, arg := range a.List {
		if _, ok := given[arg.Name]; arg.Required && !ok {
			out = append(out, arg.Name)
		}
	}
	return out
}

func messageContent(ctx context.Context, t *table.Table, in *CallInput, m *table.Message, args *callArgs, extra map[string]cty.Value) (Block, error) {
	switch m.Kind {
	case KindText:
		text, err := evalString(t, m.Text, args.Cty, extra)
		if err != nil {
			return Block{}, buildError(err, "the prompt message cannot be built")
		}
		return TextBlock(text), nil
	case KindImage, KindAudio:
		data, err := evalString(t, m.Data, args.Cty, extra)
		if err != nil {
			return Block{}, buildError(err, "the prompt "+m.Kind+" cannot be built")
		}
		return Block{Kind: m.Kind, Data: data, MimeType: m.MimeType}, nil
	}
	return embeddedResource(ctx, t, in, m, args, extra)
}

// embeddedResource builds an embedded resource: inline text or blob, or the
// server's own resource read by URI.
func embeddedResource(ctx context.Context, t *table.Table, in *CallInput, m *table.Message, args *callArgs, extra map[string]cty.Value) (Block, error) {
	uri := m.URI
	if m.URIExpr != nil {
		var err error
		if uri, err = evalString(t, m.URIExpr, args.Cty, extra); err != nil {
			return Block{}, callError(InvalidParams, "the embedded resource's URI cannot be built: "+err.Error())
		}
	}
	c := &Contents{URI: uri, MimeType: m.MimeType}
	switch {
	case m.Text != nil:
		text, err := evalString(t, m.Text, args.Cty, extra)
		if err != nil {
			return Block{}, buildError(err, "the embedded resource cannot be built")
		}
		c.Text = text
	case m.Data != nil:
		blob, err := evalString(t, m.Data, args.Cty, extra)
		if err != nil {
			return Block{}, buildError(err, "the embedded resource cannot be built")
		}
		c.Blob = blob
	default:
		contents, err := ReadResource(ctx, t, uri, in)
		if err != nil {
			return Block{}, err
		}
		c = &contents[0]
	}
	return Block{Kind: KindResource, Resource: c}, nil
}

// askForPrompt asks a prompt's questions; with every answer in, it returns
// them as answers.<key> for the messages.
func askForPrompt(ctx context.Context, t *table.Table, in *CallInput, prompt *table.Prompt, args *callArgs) (map[string]cty.Value, error) {
	answers, err := askAll(ctx, t, in, "prompt "+prompt.Name, prompt.Questions, args)
	var failure *AskFailure
	if errors.As(err, &failure) {
		return nil, callError(Internal, failure.Message)
	}
	if err != nil {
		return nil, err
	}
	fields, instead, err := decodeAnswers(prompt.Questions, answers)
	if err != nil {
		return nil, err
	}
	if instead != nil {
		return nil, callError(InvalidParams, instead.Content[0].Text)
	}
	// From the decoded answers, not JSON text: strings keep the bytes the
	// user typed (cty's own decoding normalises them).
	v, err := eval.FromGoJSON(fields["answers"], cty.DynamicPseudoType)
	if err != nil {
		return nil, err
	}
	return map[string]cty.Value{"answers": v}, nil
}

// buildError is the error of a prompt piece that could not be computed: a
// file the arguments name that is not there is the caller's mistake
// (invalid params); anything else is the server's.
func buildError(err error, what string) error {
	if missingFile(err) {
		return callError(InvalidParams, what+": "+err.Error())
	}
	return callError(Internal, what+": "+err.Error())
}

// Complete returns values for a prompt argument (refType "ref/prompt",
// name the prompt's) or a template variable ("ref/resource", name the
// template's URI template), from its completion call, or else its
// completions list or enum, filtered by the prefix typed.
func Complete(ctx context.Context, t *table.Table, refType, name, argName, typed string, in *CallInput) ([]string, error) {
	var args *table.Args
	var access table.Access // completion calls never read auth.*: scopes only
	switch refType {
	case "ref/prompt":
		prompt := t.Prompt(name)
		if prompt == nil {
			return nil, callError(InvalidParams, fmt.Sprintf("unknown prompt %q", name))
		}
		args, access.Scopes = prompt.Args, prompt.Scopes
	case "ref/resource":
		for _, tm := range t.Templates {
			if tm.URITemplate == name {
				args, access.Scopes = tm.Args, tm.Scopes
			}
		}
		if args == nil {
			return nil, callError(InvalidParams, fmt.Sprintf("no resource template %q", name))
		}
	default:
		return nil, callError(InvalidParams, fmt.Sprintf("unknown reference type %q", refType))
	}
	if e := admit(t, in, &access, func() string { return "completion of " + name }); e != nil {
		return nil, e
	}
	if arg := findArg(args, argName); arg != nil && arg.Complete != nil {
		return callCompletions(ctx, t, in, arg.Complete, typed), nil
	}
	return completionValues(args, argName, typed), nil
}

func completionValues(a *table.Args, name, prefix string) []string {
	out := []string{}
	for _, arg := range a.List {
		if arg.Name != name {
			continue
		}
		source := arg.Completions
		if len(source) == 0 {
			source = arg.Enum
		}
		for _, v := range source {
			if strings.HasPrefix(strings.ToLower(v), strings.ToLower(prefix)) {
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

func findArg(a *table.Args, name string) *table.Arg {
	for _, arg := range a.List {
		if arg.Name == name {
			return arg
		}
	}
	return nil
}

// callCompletions asks a complete block's call for values: the first
// column of SQL rows, the lines of a command, or a JSON list of strings
// from an API. Values not starting with what was typed are dropped; a
// failing call gives no values (completion is a convenience) and is logged.
func callCompletions(ctx context.Context, t *table.Table, in *CallInput, cc *table.CompleteCall, typed string) []string {
	out := []string{}
	if cc.Action == nil {
		return out
	}
	raw, _ := json.Marshal(map[string]string{"value": typed})
	args, err := decode(cc.Args, t.Static, raw)
	if err != nil {
		return out
	}
	req := adapterRequest(ctx, t, in, args)
	callCtx, cancel := withDeadline(ctx, in.DefaultTimeout, req)
	res, failure := invoke(callCtx, in.logger(), "completion", "", cc.Action, req)
	cancel()
	if failure != "" || res == nil || res.Failure != "" {
		in.logger().Warn("completion call failed", "failure", failure)
		return out
	}
	for _, v := range completionCandidates(res) {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(typed)) {
			out = append(out, v)
		}
	}
	return out
}

func completionCandidates(res *adapter.Result) []string {
	var out []string
	switch {
	case res.Fields["rows"] != nil:
		rows, _ := res.Fields["rows"].([]map[string]any)
		cols, _ := res.Fields["columns"].([]string)
		for _, r := range rows {
			if len(cols) > 0 {
				out = append(out, formatValue(r[cols[0]]))
			}
		}
	case res.Fields["lines"] != nil:
		switch lines := res.Fields["lines"].(type) {
		case []string:
			out = append(out, lines...)
		case []any:
			for _, l := range lines {
				out = append(out, formatValue(l))
			}
		}
	default:
		if list, ok := res.Fields["body"].([]any); ok {
			for _, v := range list {
				out = append(out, formatValue(v))
			}
		}
	}
	return out
}
