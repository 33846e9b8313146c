package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/jsondec"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// stateTTL bounds how long a modern client may take to answer.
const stateTTL = 15 * time.Minute

// elicitAnswer is the user's answer: action is "accept", "decline" or
// "cancel"; content is the filled-in form (accept only).
type elicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// wireQuestion is a question as sent: its method and params.
type wireQuestion struct {
	q      *dispatch.Question
	method string
	params any
}

func buildQuestion(st *state, q *dispatch.Question, args *callArgs) (wireQuestion, error) {
	switch q.Kind {
	case "elicit":
		message, err := evalString(q.Message, st, args.Cty)
		if err != nil {
			return wireQuestion{}, fmt.Errorf("the question to the user could not be built: %w", err)
		}
		return wireQuestion{q, "elicitation/create", map[string]any{"message": message, "requestedSchema": q.Schema}}, nil
	case "sample":
		params, err := samplingParams(st, q, args)
		return wireQuestion{q, "sampling/createMessage", params}, err
	}
	return wireQuestion{q, "roots/list", map[string]any{}}, nil
}

func samplingParams(st *state, q *dispatch.Question, args *callArgs) (map[string]any, error) {
	prompt, err := evalString(q.Prompt, st, args.Cty)
	if err != nil {
		return nil, fmt.Errorf("the prompt for the model could not be built: %w", err)
	}
	params := map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": prompt}}},
		"maxTokens": q.MaxTokens,
	}
	if q.SystemPrompt != nil {
		system, err := evalString(q.SystemPrompt, st, args.Cty)
		if err != nil {
			return nil, fmt.Errorf("the system prompt could not be built: %w", err)
		}
		params["systemPrompt"] = system
	}
	return params, nil
}

// ask obtains the answers to a tool's questions, by key. Instead of answers
// it may return a result to send: a modern input_required result, or an
// error result the model can act on. err is a protocol error.
func (s *Server) ask(ctx context.Context, req *mcp.Request, st *state, tool *dispatch.Tool, p *mcp.CallToolParams, args *callArgs) (map[string]json.RawMessage, *mcp.CallToolResult, error) {
	answers, input, failure, err := s.askQuestions(ctx, req, st, "tool "+tool.Name, tool.Questions, p.MRTR, args)
	switch {
	case err != nil:
		return nil, nil, err
	case input != nil:
		return nil, &mcp.CallToolResult{InputRequired: input}, nil
	case failure != "":
		return nil, errorResult(failure), nil
	}
	return answers, nil, nil
}

// askQuestions asks questions of the client before a tool call or a
// prompt: by a server→client request for 2025 clients, by input_required
// for 2026-07-28 ones. It returns the answers by key, or the input_required
// outcome to send, or a failure written for the model; err is a protocol
// error.
func (s *Server) askQuestions(ctx context.Context, req *mcp.Request, st *state, name string, qs []*dispatch.Question, mrtr mcp.MRTR, args *callArgs) (map[string]json.RawMessage, *mcp.InputRequired, string, error) {
	if req.Era == mcp.EraModern {
		return s.askModern(req, st, name, qs, mrtr, args)
	}
	answers := map[string]json.RawMessage{}
	for _, q := range byRound(qs) {
		wq, err := buildQuestion(st, q, args)
		if err != nil {
			return nil, nil, err.Error(), nil
		}
		raw, err := req.Notifier.Request(ctx, wq.method, wq.params)
		if errors.Is(err, mcp.ErrNoBackChannel) {
			return nil, nil, "This must ask the client first (" + wq.method + "), and this connection cannot carry the request. Use stdio, or an HTTP session (serve --legacy-sessions), or a client speaking MCP 2026-07-28.", nil
		}
		if err != nil {
			return nil, nil, "The client could not answer " + wq.method + ": " + err.Error(), nil
		}
		answers[q.Key] = raw
	}
	return answers, nil, "", nil
}

// askModern works round by round: answers so far travel in the signed
// requestState, new ones in inputResponses (keys not asked are ignored).
// When a round is still unanswered it returns input_required for it.
func (s *Server) askModern(req *mcp.Request, st *state, name string, qs []*dispatch.Question, p mcp.MRTR, args *callArgs) (map[string]json.RawMessage, *mcp.InputRequired, string, error) {
	binding := stateBinding(name, args.JSON)
	answers := map[string]json.RawMessage{}
	if p.RequestState != "" {
		prior, err := s.openState(p.RequestState, binding, time.Now())
		if err != nil {
			return nil, nil, "", mcp.InvalidParams("requestState refused: %s", err)
		}
		answers = prior
	}
	if len(p.InputResponses) > 0 {
		var responses map[string]json.RawMessage
		if err := json.Unmarshal(p.InputResponses, &responses); err != nil {
			return nil, nil, "", mcp.InvalidParams("inputResponses is not an object: %s", err)
		}
		// Only the round the state says is next may be answered: answers
		// to later rounds, sent without the signed state of the earlier
		// ones, would skip their questions.
		for _, q := range nextRound(qs, answers) {
			if r, ok := responses[q.Key]; ok {
				answers[q.Key] = r
			}
		}
	}
	pending := nextRound(qs, answers)
	if len(pending) == 0 {
		return answers, nil, "", nil
	}
	asked := askable(pending, req.ClientCapabilities)
	if len(asked) == 0 {
		asked = pending // none can be answered: the protocol layer answers -32021
	} else {
		for _, q := range pending {
			if !slices.Contains(asked, q) {
				answers[q.Key] = json.RawMessage("null") // skipped: the client cannot answer it
			}
		}
	}
	ir := &mcp.InputRequired{InputRequests: map[string]mcp.InputRequest{}, RequestState: s.sealState(binding, answers, time.Now().Add(stateTTL))}
	for _, q := range asked {
		wq, err := buildQuestion(st, q, args)
		if err != nil {
			return nil, nil, err.Error(), nil
		}
		ir.InputRequests[q.Key] = mcp.InputRequest{Method: wq.method, Params: mustJSON(wq.params)}
	}
	return nil, ir, "", nil
}

// byRound orders questions by round, keeping the written order within one.
func byRound(qs []*dispatch.Question) []*dispatch.Question {
	out := append([]*dispatch.Question(nil), qs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Round < out[j].Round })
	return out
}

// nextRound returns the unanswered questions of the first round that has
// any.
func nextRound(qs []*dispatch.Question, answers map[string]json.RawMessage) []*dispatch.Question {
	var out []*dispatch.Question
	round := 0
	for _, q := range byRound(qs) {
		if _, ok := answers[q.Key]; ok {
			continue
		}
		if round != 0 && q.Round != round {
			break
		}
		round = q.Round
		out = append(out, q)
	}
	return out
}

// askable keeps the questions the client declared it can answer.
func askable(qs []*dispatch.Question, caps mcp.ClientCapabilities) []*dispatch.Question {
	var out []*dispatch.Question
	for _, q := range qs {
		ok := q.Kind == "elicit" && caps.Elicitation != nil || q.Kind == "sample" && caps.Sampling != nil || q.Kind == "roots" && caps.Roots != nil
		if ok {
			out = append(out, q)
		}
	}
	return out
}

// decodeAnswers turns the answers into what result and error programs
// see: answers.<key> for each, and elicit, sample and roots for the first
// of each kind. A declined elicitation gives instead the error result that
// ends the call.
func decodeAnswers(qs []*dispatch.Question, answers map[string]json.RawMessage) (map[string]any, *mcp.CallToolResult, error) {
	byKey := map[string]any{}
	fields := map[string]any{"answers": byKey}
	for _, q := range qs {
		v, instead, err := decodeQuestionAnswer(q, answers[q.Key])
		if instead != nil || err != nil {
			return nil, instead, err
		}
		byKey[q.Key] = v
		if _, seen := fields[q.Kind]; !seen {
			fields[q.Kind] = v
		}
	}
	return fields, nil, nil
}

func decodeQuestionAnswer(q *dispatch.Question, raw json.RawMessage) (any, *mcp.CallToolResult, error) {
	skipped := len(raw) == 0 || string(raw) == "null"
	switch q.Kind {
	case "elicit":
		if skipped {
			return map[string]any{"action": "unsupported", "content": map[string]any{}}, nil, nil
		}
		if instead := absurdAnswer(q, raw); instead != nil {
			return nil, instead, nil
		}
		a, instead, err := decodeAnswer(raw)
		if a == nil {
			return nil, instead, err
		}
		if instead, err := checkContent(q, a.Content); instead != nil || err != nil {
			return nil, instead, err
		}
		return map[string]any{"action": a.Action, "content": a.Content}, nil, nil
	case "sample":
		if skipped {
			return map[string]any{"text": "", "model": "", "role": "", "stop_reason": "unsupported"}, nil, nil
		}
		v, err := decodeSample(raw)
		return v, nil, err
	}
	if skipped {
		return []any{}, nil, nil
	}
	var r struct {
		Roots []any `json:"roots"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, nil, mcp.InvalidParams("the roots answer is not valid: %s", err)
	}
	return r.Roots, nil, nil
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

// stateBinding is what a request state vouches for: the tool and a digest
// of its arguments.
func stateBinding(tool string, args map[string]any) string {
	sum := sha256.Sum256(mustJSON(args))
	return tool + "\x00" + base64.RawURLEncoding.EncodeToString(sum[:])
}

// sealState returns "<payload>.<mac>": the payload (base64 JSON of the
// expiry and the answers so far) cannot be changed, nor moved to another
// tool or other arguments, without the server's key.
func (s *Server) sealState(binding string, answers map[string]json.RawMessage, expires time.Time) string {
	payload := base64.RawURLEncoding.EncodeToString(mustJSON(struct {
		Exp     int64                      `json:"e"`
		Answers map[string]json.RawMessage `json:"a"`
	}{expires.Unix(), answers}))
	return payload + "." + base64.RawURLEncoding.EncodeToString(s.mac(payload, binding))
}

// openState checks a state and returns the answers it carries.
func (s *Server) openState(state, binding string, now time.Time) (map[string]json.RawMessage, error) {
	payload, mac, ok := strings.Cut(state, ".")
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if !ok || err != nil || !hmac.Equal(got, s.mac(payload, binding)) {
		return nil, errors.New("it was not issued by this server for this call")
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var st struct {
		Exp     int64                      `json:"e"`
		Answers map[string]json.RawMessage `json:"a"`
	}
	if err != nil || json.Unmarshal(raw, &st) != nil {
		return nil, errors.New("it is malformed")
	}
	if now.Unix() > st.Exp {
		return nil, errors.New("it has expired; call the tool again")
	}
	if st.Answers == nil {
		st.Answers = map[string]json.RawMessage{}
	}
	return st.Answers, nil
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

// checkContent holds an accepted answer's content to the question's
// requested schema before anything runs: a client that returns something
// else (a number for a text field) must not trigger the call.
func checkContent(q *dispatch.Question, content map[string]any) (*mcp.CallToolResult, error) {
	validator, err := q.ContentValidator()
	if validator == nil || err != nil {
		return nil, err
	}
	b, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	v, err := jsondec.DecodeNumbers(string(b))
	if err != nil {
		return nil, err
	}
	if err := validator.Validate(v); err != nil {
		return errorResult("The answer to the question \"" + q.Key + "\" does not fit what was asked, so nothing was done:\n" +
			violations(err, "answer", "field") + "\nAsk again."), nil
	}
	return nil, nil
}

// absurdAnswer refuses an answer with numbers of absurd size, as
// arguments are, before anything else reads it.
func absurdAnswer(q *dispatch.Question, raw json.RawMessage) *mcp.CallToolResult {
	v, err := jsondec.DecodeNumbers(string(raw))
	if err != nil {
		return nil // decodeAnswer says what is wrong
	}
	content := v
	if m, ok := v.(map[string]any); ok {
		content = m["content"]
	}
	if absurd := absurdNumbers(content); len(absurd) > 0 {
		return errorResult("The answer to the question \"" + q.Key + "\" does not fit what was asked, so nothing was done:\n" +
			renderViolations(absurd, "answer", "field") + "\nAsk again.")
	}
	return nil
}

func decodeAnswer(raw json.RawMessage) (*elicitAnswer, *mcp.CallToolResult, error) {
	var a elicitAnswer
	// Numbers as json.Number: the digits the user gave reach the answer
	// (12345678901234567.89, 304.80); programs convert where they compute.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		return nil, nil, mcp.InvalidParams("the elicitation answer is not valid: %s", err)
	}
	switch a.Action {
	case "accept":
		if a.Content == nil {
			a.Content = map[string]any{}
		}
		return &a, nil, nil
	case "decline", "cancel":
		past := map[string]string{"decline": "declined", "cancel": "cancelled"}[a.Action]
		return nil, errorResult(fmt.Sprintf("The user did not agree (%s), so nothing was done. Ask the user what they want instead.", past)), nil
	}
	return nil, nil, mcp.InvalidParams("unknown elicitation action %q", a.Action)
}
