package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// Keys of the questions among a modern result's inputRequests.
const (
	elicitKey = "elicit"
	sampleKey = "sample"
)

// stateTTL bounds how long a modern client may take to answer.
const stateTTL = 15 * time.Minute

// elicitAnswer is the user's answer: action is "accept", "decline" or
// "cancel"; content is the filled-in form (accept only).
type elicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// question is one server→client request a tool needs answered first:
// kind is elicitKey or sampleKey (how the answer is read), key is its name
// on the wire (configurable, default the kind).
type question struct {
	kind, key, method string
	params            any
}

// questions builds what a tool asks the client before its call.
func questions(st *state, tool *dispatch.Tool, args *callArgs) ([]question, error) {
	var out []question
	if e := tool.Elicit; e != nil {
		message, err := evalString(e.Message, st, args.Cty)
		if err != nil {
			return nil, fmt.Errorf("the question to the user could not be built: %w", err)
		}
		out = append(out, question{elicitKey, e.Key, "elicitation/create", map[string]any{"message": message, "requestedSchema": e.Schema}})
	}
	if sm := tool.Sample; sm != nil {
		params, err := samplingParams(st, sm, args)
		if err != nil {
			return nil, err
		}
		out = append(out, question{sampleKey, sm.Key, "sampling/createMessage", params})
	}
	return out, nil
}

func samplingParams(st *state, sm *dispatch.Sample, args *callArgs) (map[string]any, error) {
	prompt, err := evalString(sm.Prompt, st, args.Cty)
	if err != nil {
		return nil, fmt.Errorf("the prompt for the model could not be built: %w", err)
	}
	params := map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": prompt}}},
		"maxTokens": sm.MaxTokens,
	}
	if sm.SystemPrompt != nil {
		system, err := evalString(sm.SystemPrompt, st, args.Cty)
		if err != nil {
			return nil, fmt.Errorf("the system prompt could not be built: %w", err)
		}
		params["systemPrompt"] = system
	}
	return params, nil
}

// ask obtains the answers to a tool's questions, keyed like the
// questions. Instead of answers it may return a result to send: a modern
// input_required result, or an error result the model can act on. err is a
// protocol error.
func (s *Server) ask(ctx context.Context, req *mcp.Request, st *state, tool *dispatch.Tool, p *mcp.CallToolParams, args *callArgs) (map[string]json.RawMessage, *mcp.CallToolResult, error) {
	qs, err := questions(st, tool, args)
	if err != nil {
		return nil, errorResult(err.Error()), nil
	}
	if req.Era == mcp.EraModern {
		return s.askModern(tool, p, args, qs)
	}
	answers := map[string]json.RawMessage{}
	for _, q := range qs {
		raw, err := req.Notifier.Request(ctx, q.method, q.params)
		if errors.Is(err, mcp.ErrNoBackChannel) {
			return nil, errorResult("This tool must ask the client first (" + q.method + "), and this connection cannot carry the request. Use stdio, or an HTTP session (serve --legacy-sessions), or a client speaking MCP 2026-07-28."), nil
		}
		if err != nil {
			return nil, errorResult("The client could not answer " + q.method + ": " + err.Error()), nil
		}
		answers[q.kind] = raw
	}
	return answers, nil, nil
}

// askModern returns input_required the first time and reads the answers
// on the retry, after checking that the echoed state is ours, fresh, and
// for this very tool and these arguments.
func (s *Server) askModern(tool *dispatch.Tool, p *mcp.CallToolParams, args *callArgs, qs []question) (map[string]json.RawMessage, *mcp.CallToolResult, error) {
	binding := stateBinding(tool.Name, args.JSON)
	if p.RequestState == "" || len(p.InputResponses) == 0 {
		ir := &mcp.InputRequired{InputRequests: map[string]mcp.InputRequest{}, RequestState: s.signState(binding, time.Now().Add(stateTTL))}
		for _, q := range qs {
			ir.InputRequests[q.key] = mcp.InputRequest{Method: q.method, Params: mustJSON(q.params)}
		}
		return nil, &mcp.CallToolResult{InputRequired: ir}, nil
	}
	if err := s.verifyState(p.RequestState, binding, time.Now()); err != nil {
		return nil, nil, mcp.InvalidParams("requestState refused: %s", err)
	}
	var responses map[string]json.RawMessage
	if err := json.Unmarshal(p.InputResponses, &responses); err != nil {
		return nil, nil, mcp.InvalidParams("inputResponses is not an object: %s", err)
	}
	answers := map[string]json.RawMessage{}
	for _, q := range qs {
		if responses[q.key] == nil {
			// Ask again rather than fail: the client may have answered
			// under a wrong key or not at all.
			return s.askModern(tool, &mcp.CallToolParams{}, args, qs)
		}
		answers[q.kind] = responses[q.key]
	}
	return answers, nil, nil
}

// applyAnswers turns the answers into what result and error programs see
// (elicit, sample). A declined elicitation ends the call with an error
// result.
func applyAnswers(res *adapter.Result, answers map[string]json.RawMessage) (*adapter.Result, *mcp.CallToolResult, error) {
	fields := map[string]any{}
	if raw, ok := answers[elicitKey]; ok {
		a, instead, err := decodeAnswer(raw)
		if a == nil {
			return nil, instead, err
		}
		fields["elicit"] = map[string]any{"action": a.Action, "content": a.Content}
	}
	if raw, ok := answers[sampleKey]; ok {
		sample, err := decodeSample(raw)
		if err != nil {
			return nil, nil, err
		}
		fields["sample"] = sample
	}
	return withFields(res, fields), nil, nil
}

// decodeSample reads a sampling/createMessage result.
func decodeSample(raw json.RawMessage) (map[string]any, error) {
	var m struct {
		Role    string `json:"role"`
		Model   string `json:"model"`
		Stop    string `json:"stopReason"`
		Content struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, mcp.InvalidParams("the sampling answer is not valid: %s", err)
	}
	return map[string]any{"text": m.Content.Text, "model": m.Model, "role": m.Role, "stop_reason": m.Stop}, nil
}

func decodeAnswer(raw json.RawMessage) (*elicitAnswer, *mcp.CallToolResult, error) {
	var a elicitAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, nil, mcp.InvalidParams("the elicitation answer is not valid: %s", err)
	}
	switch a.Action {
	case "accept":
		if a.Content == nil {
			a.Content = map[string]any{}
		}
		return &a, nil, nil
	case "decline", "cancel":
		return nil, errorResult(fmt.Sprintf("The user did not agree (%s), so nothing was done. Ask the user what they want instead.", a.Action+"d")), nil
	}
	return nil, nil, mcp.InvalidParams("unknown elicitation action %q", a.Action)
}

// stateBinding is what a request state vouches for: the tool and a digest
// of its arguments.
func stateBinding(tool string, args map[string]any) string {
	sum := sha256.Sum256(mustJSON(args))
	return tool + "\x00" + base64.RawURLEncoding.EncodeToString(sum[:])
}

// signState returns "<expiry>.<mac>": the client cannot change what the
// state vouches for without the server's key.
func (s *Server) signState(binding string, expires time.Time) string {
	exp := fmt.Sprint(expires.Unix())
	return exp + "." + base64.RawURLEncoding.EncodeToString(s.mac(exp, binding))
}

func (s *Server) verifyState(state, binding string, now time.Time) error {
	exp, mac, ok := strings.Cut(state, ".")
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if !ok || err != nil || !hmac.Equal(got, s.mac(exp, binding)) {
		return errors.New("it was not issued by this server for this call")
	}
	var unix int64
	if _, err := fmt.Sscan(exp, &unix); err != nil || now.Unix() > unix {
		return errors.New("it has expired; call the tool again")
	}
	return nil
}

func (s *Server) mac(exp, binding string) []byte {
	h := hmac.New(sha256.New, s.stateKey)
	h.Write([]byte(exp + "\x00" + binding))
	return h.Sum(nil)
}

func newStateKey() []byte {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic("server: no randomness for the request-state key: " + err.Error())
	}
	return key
}
