package server

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// CallTool implements mcp.Handler: validate, convert, invoke, map. What
// the server writes itself (log lines, error messages) never holds a
// sensitive variable or argument.
func (s *Server) CallTool(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	st := s.acquire()
	defer st.release()
	tool, ok := st.toolIndex[p.Name]
	if !ok {
		return nil, mcp.InvalidParams("unknown tool %q", p.Name)
	}
	own := sensitiveArgTexts(tool.Args, p.Arguments)
	ctx = withCallSecrets(ctx, own)
	res, err := s.callTool(ctx, req, p, st, tool)
	if len(own) > 0 || len(st.secrets) > 0 {
		if res != nil && res.IsError {
			redactResult(res, own)
		}
		if res != nil {
			redactAnswer(res, st.secrets)
		}
		err = redactError(err, own, st.secrets)
	}
	return res, err
}

func (s *Server) callTool(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams, st *state, tool *dispatch.Tool) (*mcp.CallToolResult, error) {
	args, err := decodeArgs(tool.Args, st.table.Static, p.Arguments)
	if err != nil {
		return s.argError(ctx, tool.Name, err), nil
	}
	var answerFields map[string]any
	if len(tool.Questions) > 0 {
		answers, instead, err := s.ask(ctx, req, st, tool, p, args)
		if answers == nil {
			return instead, err
		}
		if answerFields, instead, err = decodeAnswers(tool.Questions, answers); instead != nil || err != nil {
			return instead, err // declined before the call: nothing is run
		}
	}
	var res *adapter.Result
	if tool.Action != nil {
		var failure string
		res, failure = s.invoke(ctx, "tool "+tool.Name, tool.Action, tool.Timeout, adapterRequest(ctx, req, st, args))
		if failure != "" {
			return errorResult(failure), nil
		}
	}
	if answerFields != nil {
		res = withFields(res, answerFields)
	}
	out, err := mapAnswer(&tool.Answer, res, args.JSON)
	if err != nil {
		s.log.ErrorContext(ctx, "mapping the answer failed", "tool", tool.Name, "error", err)
		return errorResult(fmt.Sprintf("The answer could not be read: %s. The tool's configuration may not match what the backend returned.", err)), nil
	}
	if msg := s.checkOutput(ctx, tool, out); msg != "" {
		return errorResult(msg), nil
	}
	if len(tool.Content) > 0 {
		return s.contentResult(ctx, st, tool, args, out)
	}
	r, err := toolResult(out)
	if err != nil {
		s.log.ErrorContext(ctx, "encoding the answer failed", "tool", tool.Name, "error", err)
		return errorResult(fmt.Sprintf("The answer could not be sent: %s. The tool's result expressions may produce a value JSON cannot hold.", err)), nil
	}
	return r, nil
}

// contentResult builds the answer of a tool from its content blocks, then
// the result block's text (if any) and structured content.
func (s *Server) contentResult(ctx context.Context, st *state, tool *dispatch.Tool, args *callArgs, out *outcome) (*mcp.CallToolResult, error) {
	r := &mcp.CallToolResult{IsError: out.isError}
	for _, item := range tool.Content {
		block, err := contentBlock(st, item, args)
		if err != nil {
			s.log.ErrorContext(ctx, "content block failed", "tool", tool.Name, "error", err)
			return errorResult("The answer could not be built: " + err.Error()), nil
		}
		r.Content = append(r.Content, block)
	}
	if out.text != "" {
		r.Content = append(r.Content, mcp.TextContent(out.text))
	}
	if out.structured != nil {
		b, err := out.structuredJSON()
		if err != nil {
			s.log.ErrorContext(ctx, "encoding the answer failed", "tool", tool.Name, "error", err)
			return errorResult("The answer could not be sent: " + err.Error()), nil
		}
		r.StructuredContent = b
	}
	return r, nil
}

func contentBlock(st *state, item *dispatch.ContentItem, args *callArgs) (mcp.ContentBlock, error) {
	var firstErr error
	str := func(e hcl.Expression) string {
		if e == nil || firstErr != nil {
			return ""
		}
		v, err := evalString(e, st, args.Cty)
		firstErr = err
		return v
	}
	switch item.Kind {
	case "text":
		return mcp.TextContent(str(item.Text)), firstErr
	case "image", "audio":
		return mcp.ContentBlock{Type: item.Kind, Data: str(item.Data), MimeType: str(item.MimeType)}, firstErr
	case "resource_link":
		link := &mcp.Resource{URI: str(item.URI), Name: str(item.Name), MimeType: str(item.MimeType), Description: str(item.Description)}
		return mcp.ContentBlock{Type: mcp.ContentResourceLink, Link: link}, firstErr
	}
	c := &mcp.ResourceContents{URI: str(item.URI), MimeType: str(item.MimeType), Text: str(item.Text), Blob: str(item.Blob)}
	return mcp.ContentBlock{Type: mcp.ContentResource, Resource: c}, firstErr
}

// checkOutput validates structured content against the tool's output
// schema, as the protocol requires of servers that declare one.
func (s *Server) checkOutput(ctx context.Context, tool *dispatch.Tool, out *outcome) string {
	if out.isError || out.structured == nil || !tool.OutputDeclared {
		return ""
	}
	validator, err := tool.OutputValidator()
	if validator == nil || err != nil {
		return ""
	}
	value := jsonValue(out.structured)
	if absurd := absurdNumbers(value); len(absurd) > 0 {
		// Checked first, as in arguments: the schema library would expand
		// such a number exactly, at a cost the backend's answer chooses.
		s.log.WarnContext(ctx, "structured answer holds numbers of absurd size", "tool", tool.Name)
		return "The answer holds numbers too large to check against the tool's output schema:\n" + renderViolations(absurd, "answer", "field") +
			"\nThis is a problem of the backend's answer, not of the arguments."
	}
	err = validator.Validate(value)
	if err != nil {
		s.log.WarnContext(ctx, "structured answer does not match the output schema", "tool", tool.Name, "error", err)
		return "The answer does not match the tool's output schema:\n" + violations(err, "answer", "field") +
			"\nThis is a problem of the server's configuration or of the backend, not of the arguments."
	}
	return ""
}

func (s *Server) argError(ctx context.Context, name string, err error) *mcp.CallToolResult {
	var p *argProblem
	if errors.As(err, &p) {
		return errorResult(p.msg)
	}
	s.log.ErrorContext(ctx, "argument handling failed", "target", name, "error", err)
	return errorResult("The arguments could not be checked (the details are in the server log).")
}

// adapterRequest is what an adapter gets for one call. What it sends the
// client while it runs (progress, log lines such as a command's stderr)
// is redacted like everything else the server writes.
func adapterRequest(ctx context.Context, req *mcp.Request, st *state, args *callArgs) *adapter.Request {
	ar := &adapter.Request{Args: args.Cty, ArgsJSON: args.JSON, Static: st.table.Static, Header: req.Header}
	own := callSecrets(ctx)
	ar.Progress = func(progress, total float64, message string) {
		_ = req.Notifier.Progress(context.Background(), progress, total, redact(message, own, st.secrets))
	}
	ar.Log = func(level string, data any) {
		_ = req.Notifier.Log(context.Background(), level, "mcpdecl", redactData(data, own, st.secrets))
	}
	return ar
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.TextContent(msg)}, IsError: true}
}

// toolResult shapes an outcome as a tools/call result: media as an image,
// audio or embedded blob, text as text, structured values as
// structuredContent (with a text copy, as the spec recommends).
func toolResult(out *outcome) (*mcp.CallToolResult, error) {
	r := &mcp.CallToolResult{IsError: out.isError, Content: make([]mcp.ContentBlock, 0, 2)}
	if out.media != nil {
		r.Content = append(r.Content, mediaBlock(out.media))
	}
	if out.structured != nil {
		b, err := out.structuredJSON()
		if err != nil {
			return nil, err
		}
		r.StructuredContent = b
	}
	if out.text != "" || out.media == nil {
		r.Content = append(r.Content, mcp.TextContent(out.text))
	}
	return r, nil
}

func mediaBlock(m *adapter.Media) mcp.ContentBlock {
	data := base64.StdEncoding.EncodeToString(m.Data)
	switch {
	case hasPrefix(m.MimeType, "image/"):
		return mcp.ContentBlock{Type: mcp.ContentImage, Data: data, MimeType: m.MimeType}
	case hasPrefix(m.MimeType, "audio/"):
		return mcp.ContentBlock{Type: mcp.ContentAudio, Data: data, MimeType: m.MimeType}
	}
	return mcp.ContentBlock{Type: mcp.ContentResource, Resource: &mcp.ResourceContents{URI: "mcpdecl://result", MimeType: m.MimeType, Blob: data}}
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
