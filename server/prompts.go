package server

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// english makes "the argument x" and "the arguments x, y" read right.
import "github.com/mcpdecl/mcpdecl/internal/english"

// GetPrompt implements mcp.Handler. Missing required arguments are a
// protocol error (-32602), as the spec says.
func (s *Server) GetPrompt(ctx context.Context, req *mcp.Request, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	st := s.acquire()
	defer st.release()
	prompt, ok := st.prompts2[p.Name]
	if !ok {
		return nil, mcp.InvalidParams("unknown prompt %q", p.Name)
	}
	raw, _ := json.Marshal(p.Arguments)
	own := sensitiveArgTexts(prompt.Args, raw)
	res, err := s.getPrompt(withCallSecrets(ctx, own), req, p, st, prompt)
	return res, redactError(err, own, st.secrets)
}

func (s *Server) getPrompt(ctx context.Context, req *mcp.Request, p *mcp.GetPromptParams, st *state, prompt *dispatch.Prompt) (*mcp.GetPromptResult, error) {
	if missing := missingArgs(prompt.Args, p.Arguments); len(missing) > 0 {
		return nil, mcp.InvalidParams("prompt %q needs the %s %s", p.Name, english.Noun(len(missing), "argument"), strings.Join(missing, ", "))
	}
	raw, _ := json.Marshal(p.Arguments)
	args, err := decodeArgs(prompt.Args, st.table.Static, raw)
	if err != nil {
		return nil, mcp.InvalidParams("%s", err.Error())
	}
	if len(prompt.Questions) > 0 {
		input, err := s.askForPrompt(ctx, req, st, prompt, p, args)
		if input != nil || err != nil {
			return &mcp.GetPromptResult{InputRequired: input}, err
		}
	}
	out := &mcp.GetPromptResult{Description: prompt.Description}
	for _, m := range prompt.Messages {
		content, err := s.messageContent(ctx, req, st, m, args)
		if err != nil {
			return nil, err
		}
		out.Messages = append(out.Messages, mcp.PromptMessage{Role: m.Role, Content: content})
	}
	return out, nil
}

func missingArgs(a *dispatch.Args, given map[string]string) []string {
	var out []string
	for _, arg := range a.List {
		if _, ok := given[arg.Name]; arg.Required && !ok {
			out = append(out, arg.Name)
		}
	}
	return out
}

func (s *Server) messageContent(ctx context.Context, req *mcp.Request, st *state, m *dispatch.Message, args *callArgs) (mcp.ContentBlock, error) {
	switch m.Kind {
	case "text":
		text, err := evalStringExtra(m.Text, st, args.Cty, args.Extra)
		if err != nil {
			return mcp.ContentBlock{}, buildError(err, "the prompt message cannot be built")
		}
		return mcp.TextContent(text), nil
	case "image", "audio":
		data, err := evalString(m.Data, st, args.Cty)
		if err != nil {
			return mcp.ContentBlock{}, buildError(err, "the prompt "+m.Kind+" cannot be built")
		}
		return mcp.ContentBlock{Type: m.Kind, Data: data, MimeType: m.MimeType}, nil
	}
	return s.embeddedResource(ctx, req, st, m, args)
}

// embeddedResource builds an embedded resource: inline text or blob, or the
// server's own resource read by URI.
func (s *Server) embeddedResource(ctx context.Context, req *mcp.Request, st *state, m *dispatch.Message, args *callArgs) (mcp.ContentBlock, error) {
	uri := m.URI
	if m.URIExpr != nil {
		var err error
		if uri, err = evalString(m.URIExpr, st, args.Cty); err != nil {
			return mcp.ContentBlock{}, mcp.InvalidParams("the embedded resource's URI cannot be built: %s", err)
		}
	}
	c := &mcp.ResourceContents{URI: uri, MimeType: m.MimeType}
	switch {
	case m.Text != nil:
		text, err := evalString(m.Text, st, args.Cty)
		if err != nil {
			return mcp.ContentBlock{}, buildError(err, "the embedded resource cannot be built")
		}
		c.Text = text
	case m.Data != nil:
		blob, err := evalString(m.Data, st, args.Cty)
		if err != nil {
			return mcp.ContentBlock{}, buildError(err, "the embedded resource cannot be built")
		}
		c.Blob = blob
	default:
		res, err := s.ReadResource(ctx, req, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return mcp.ContentBlock{}, err
		}
		c = &res.Contents[0]
	}
	return mcp.ContentBlock{Type: mcp.ContentResource, Resource: c}, nil
}

// Complete implements mcp.Handler: values for a prompt argument or a
// template variable, from its completions list or enum, filtered by prefix.
func (s *Server) Complete(ctx context.Context, req *mcp.Request, p *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	st := s.acquire()
	defer st.release()
	var args *dispatch.Args
	switch p.Ref.Type {
	case "ref/prompt":
		prompt, ok := st.prompts2[p.Ref.Name]
		if !ok {
			return nil, mcp.InvalidParams("unknown prompt %q", p.Ref.Name)
		}
		args = prompt.Args
	case "ref/resource":
		for _, t := range st.table.Templates {
			if t.URITemplate == p.Ref.URI {
				args = t.Args
			}
		}
		if args == nil {
			return nil, mcp.InvalidParams("no resource template %q", p.Ref.URI)
		}
	default:
		return nil, mcp.InvalidParams("unknown reference type %q", p.Ref.Type)
	}
	values := completionValues(args, p.Argument.Name, p.Argument.Value)
	if arg := findArg(args, p.Argument.Name); arg != nil && arg.Complete != nil {
		values = s.callCompletions(ctx, req, st, arg.Complete, p.Argument.Value)
	}
	total := len(values)
	return &mcp.CompleteResult{Values: values, Total: &total, HasMore: false}, nil
}

func completionValues(a *dispatch.Args, name, prefix string) []string {
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

func findArg(a *dispatch.Args, name string) *dispatch.Arg {
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
func (s *Server) callCompletions(ctx context.Context, req *mcp.Request, st *state, cc *dispatch.CompleteCall, typed string) []string {
	out := []string{}
	if cc.Action == nil {
		return out
	}
	raw, _ := json.Marshal(map[string]string{"value": typed})
	args, err := decodeArgs(cc.Args, st.table.Static, raw)
	if err != nil {
		return out
	}
	res, failure := s.invoke(ctx, "completion", cc.Action, 0, adapterRequest(ctx, req, st, args))
	if failure != "" || res == nil || res.Failure != "" {
		s.log.Warn("completion call failed", "failure", failure)
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

// askForPrompt asks a prompt's questions; with every answer in, it stores
// them as answers.<key> for the messages and returns nil, nil.
func (s *Server) askForPrompt(ctx context.Context, req *mcp.Request, st *state, prompt *dispatch.Prompt, p *mcp.GetPromptParams, args *callArgs) (*mcp.InputRequired, error) {
	answers, input, failure, err := s.askQuestions(ctx, req, st, "prompt "+prompt.Name, prompt.Questions, p.MRTR, args)
	switch {
	case err != nil || input != nil:
		return input, err
	case failure != "":
		return nil, mcp.Errorf(mcp.CodeInternalError, "%s", failure)
	}
	fields, instead, err := decodeAnswers(prompt.Questions, answers)
	if err != nil {
		return nil, err
	}
	if instead != nil {
		return nil, mcp.InvalidParams("%s", instead.Content[0].Text)
	}
	// From the decoded answers, not JSON text: strings keep the bytes the
	// user typed (cty's own decoding normalises them).
	v, err := eval.FromGoJSON(fields["answers"], cty.DynamicPseudoType)
	if err == nil {
		args.Extra = map[string]cty.Value{"answers": v}
	}
	return nil, err
}

// buildError is the error of a prompt piece that could not be computed: a
// file the arguments name that is not there is the caller's mistake
// (invalid params); anything else is the server's.
func buildError(err error, what string) error {
	if missingFile(err) {
		return mcp.InvalidParams("%s: %s", what, err)
	}
	return mcp.Errorf(mcp.CodeInternalError, "%s: %s", what, err)
}
