package dispatch

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpdecl/mcpdecl/internal/jsondec"
	"github.com/mcpdecl/mcpdecl/table"
)

// The table's side of asking the client: writing each question from the
// arguments, and reading the answers into what the programs see. Sending
// the questions and carrying answers between requests is the protocol's.

// elicitAnswer is the user's answer: action is "accept", "decline" or
// "cancel"; content is the filled-in form (accept only).
type elicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// Question methods, as sent to the client.
const (
	MethodElicit = "elicitation/create"
	MethodSample = "sampling/createMessage"
	MethodRoots  = "roots/list"
)

func buildQuestion(t *table.Table, q *table.Question, args *callArgs) (string, any, error) {
	switch q.Kind {
	case "elicit":
		message, err := evalString(t, q.Message, args.Cty, nil)
		if err != nil {
			return "", nil, fmt.Errorf("the question to the user could not be built: %w", err)
		}
		return MethodElicit, map[string]any{"message": message, "requestedSchema": q.Schema}, nil
	case "sample":
		params, err := samplingParams(t, q, args)
		return MethodSample, params, err
	}
	return MethodRoots, map[string]any{}, nil
}

func samplingParams(t *table.Table, q *table.Question, args *callArgs) (map[string]any, error) {
	prompt, err := evalString(t, q.Prompt, args.Cty, nil)
	if err != nil {
		return nil, fmt.Errorf("the prompt for the model could not be built: %w", err)
	}
	params := map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": prompt}}},
		"maxTokens": q.MaxTokens,
	}
	if q.SystemPrompt != nil {
		system, err := evalString(t, q.SystemPrompt, args.Cty, nil)
		if err != nil {
			return nil, fmt.Errorf("the system prompt could not be built: %w", err)
		}
		params["systemPrompt"] = system
	}
	return params, nil
}

// decodeAnswers turns the answers into what result and error programs
// see: answers.<key> for each, and elicit, sample and roots for the first
// of each kind. A declined elicitation gives instead the error result that
// ends the call.
func decodeAnswers(qs []*table.Question, answers map[string]json.RawMessage) (map[string]any, *ToolResult, error) {
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

func decodeQuestionAnswer(q *table.Question, raw json.RawMessage) (any, *ToolResult, error) {
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
		return nil, nil, callError(InvalidParams, "the roots answer is not valid: "+err.Error())
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
		return nil, callError(InvalidParams, "the sampling answer is not valid: "+err.Error())
	}
	return map[string]any{"text": m.Content.Text, "model": m.Model, "role": m.Role, "stop_reason": m.Stop}, nil
}

// checkContent holds an accepted answer's content to the question's
// requested schema before anything runs: a client that returns something
// else (a number for a text field) must not trigger the call.
func checkContent(q *table.Question, content map[string]any) (*ToolResult, error) {
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
func absurdAnswer(q *table.Question, raw json.RawMessage) *ToolResult {
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

func decodeAnswer(raw json.RawMessage) (*elicitAnswer, *ToolResult, error) {
	var a elicitAnswer
	// Numbers as json.Number: the digits the user gave reach the answer
	// (12345678901234567.89, 304.80); programs convert where they compute.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		return nil, nil, callError(InvalidParams, "the elicitation answer is not valid: "+err.Error())
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
	return nil, nil, callError(InvalidParams, fmt.Sprintf("unknown elicitation action %q", a.Action))
}
