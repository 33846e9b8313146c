package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// stateTTL bounds how long a modern client may take to answer.
const stateTTL = 15 * time.Minute

// needInput carries a modern input_required outcome out of a call: the
// answers come in a later request.
type needInput struct{ input *mcp.InputRequired }

func (e *needInput) Error() string { return "input required" }

// askQuestions asks a call's questions of the client: by a server→client
// request for 2025 clients, by input_required for 2026-07-28 ones (a
// *needInput error). It returns the answers by key; a failure for the
// model is a *dispatch.AskFailure; other errors are protocol errors.
func (s *Server) askQuestions(ctx context.Context, req *mcp.Request, a *dispatch.Asking, mrtr mcp.MRTR) (map[string]json.RawMessage, error) {
	if req.Era == mcp.EraModern {
		return s.askModern(ctx, req, a, mrtr)
	}
	answers := map[string]json.RawMessage{}
	for _, q := range byRound(a.Questions) {
		method, params, err := a.Build(q)
		if err != nil {
			return nil, &dispatch.AskFailure{Message: err.Error()}
		}
		raw, err := req.Notifier.Request(ctx, method, params)
		if errors.Is(err, mcp.ErrNoBackChannel) {
			return nil, &dispatch.AskFailure{Message: "This must ask the client first (" + method + "), and this connection cannot carry the request: over HTTP a 2025 client must send the session id it got from initialize and accept text/event-stream answers; or use stdio, or a client speaking MCP 2026-07-28."}
		}
		var undeclared *mcp.Error
		if errors.As(err, &undeclared) && undeclared.Code == mcp.CodeMissingRequiredClientCapability {
			return nil, undeclared // a protocol error, as for a 2026-07-28 client
		}
		if err != nil {
			return nil, &dispatch.AskFailure{Message: "The client could not answer " + method + ": " + err.Error()}
		}
		answers[q.Key] = raw
	}
	return answers, nil
}

// askModern works round by round: answers so far travel in the sealed
// requestState, new ones in inputResponses (keys not asked are ignored).
// When a round is still unanswered it returns input_required for it.
func (s *Server) askModern(ctx context.Context, req *mcp.Request, a *dispatch.Asking, p mcp.MRTR) (map[string]json.RawMessage, error) {
	qs := a.Questions
	binding := stateBinding(ctx, req, a.Target, a.Args)
	answers := map[string]json.RawMessage{}
	if p.RequestState != "" {
		prior, err := s.openState(p.RequestState, binding, time.Now())
		if err != nil {
			return nil, mcp.InvalidParams("requestState refused: %s", err)
		}
		answers = prior
	}
	if len(p.InputResponses) > 0 {
		var responses map[string]json.RawMessage
		if err := json.Unmarshal(p.InputResponses, &responses); err != nil {
			return nil, mcp.InvalidParams("inputResponses is not an object: %s", err)
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
		return answers, nil
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
		method, params, err := a.Build(q)
		if err != nil {
			return nil, &dispatch.AskFailure{Message: err.Error()}
		}
		ir.InputRequests[q.Key] = mcp.InputRequest{Method: method, Params: mustJSON(params)}
	}
	return nil, &needInput{ir}
}

// byRound orders questions by round, keeping the written order within one.
func byRound(qs []*table.Question) []*table.Question {
	out := append([]*table.Question(nil), qs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Round < out[j].Round })
	return out
}

// nextRound returns the unanswered questions of the first round that has
// any.
func nextRound(qs []*table.Question, answers map[string]json.RawMessage) []*table.Question {
	var out []*table.Question
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
func askable(qs []*table.Question, caps mcp.ClientCapabilities) []*table.Question {
	var out []*table.Question
	for _, q := range qs {
		ok := q.Kind == "elicit" && caps.Elicitation != nil || q.Kind == "sample" && caps.Sampling != nil || q.Kind == "roots" && caps.Roots != nil
		if ok {
			out = append(out, q)
		}
	}
	return out
}

// statePurpose separates the key that seals request states from the
// others derived from the same state keys.
const statePurpose = "request-state"

// stateBinding is what a request state is bound to: the tool, a digest of
// its arguments, the caller's principal (issuer and subject; "" without
// an auth block) and, for a 2025 session, the session's random part. A
// state sealed for one of them opens for no other, so a state replayed by
// another user, or in another session, is refused.
func stateBinding(ctx context.Context, req *mcp.Request, tool string, args map[string]any) string {
	sum := sha256.Sum256(mustJSON(args))
	return tool + "\x00" + base64.RawURLEncoding.EncodeToString(sum[:]) + "\x00" + principalOf(ctx) + "\x00" + req.Session
}

// stateAnswers is the plaintext of a request state: its expiry (unix
// seconds) and the answers so far.
type stateAnswers struct {
	Exp     int64                      `json:"e"`
	Answers map[string]json.RawMessage `json:"a"`
}

// sealState returns the state to send back with input_required: the
// expiry and the answers so far, encrypted and authenticated with the
// state keys (base64url), so that the client can neither read earlier
// answers in it nor change them, nor move it to another call or caller.
func (s *Server) sealState(binding string, answers map[string]json.RawMessage, expires time.Time) string {
	plain := mustJSON(stateAnswers{expires.Unix(), answers})
	return base64.RawURLEncoding.EncodeToString(s.stateKeys.Seal(statePurpose, plain, []byte(binding)))
}

// maxStateLen bounds a requestState before it is decoded: states carry
// answers of a few rounds, far below this.
const maxStateLen = 1 << 20

// openState checks a state and returns the answers it carries.
func (s *Server) openState(state, binding string, now time.Time) (map[string]json.RawMessage, error) {
	sealed, err := base64.RawURLEncoding.DecodeString(state)
	if len(state) > maxStateLen || err != nil {
		return nil, errors.New("it is malformed")
	}
	raw, err := s.stateKeys.Open(statePurpose, sealed, []byte(binding))
	if err != nil {
		return nil, errors.New("it was not issued by this server for this call and this caller (a state belongs to the user, session, tool and arguments it was issued for)")
	}
	var st stateAnswers
	if json.Unmarshal(raw, &st) != nil {
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

// askInTask asks a running task's questions, a round at a time, through
// the task store: post turns the task input_required with the round's
// questions as its inputRequests, and returns once tasks/update (on any
// replica) has answered them all.
func askInTask(ctx context.Context, req *mcp.Request, a *dispatch.Asking, post tasks.Post) (map[string]json.RawMessage, error) {
	answers := map[string]json.RawMessage{}
	for {
		pending := nextRound(a.Questions, answers)
		if len(pending) == 0 {
			return answers, nil
		}
		asked := askable(pending, req.ClientCapabilities)
		if len(asked) == 0 {
			return nil, &dispatch.AskFailure{Message: "This must ask the client first, and the client that started the task declared none of the capabilities needed (" + kindsOf(pending) + ")."}
		}
		requests := map[string]json.RawMessage{}
		for _, q := range pending {
			if !containsQuestion(asked, q) {
				answers[q.Key] = json.RawMessage("null")
				continue
			}
			method, params, err := a.Build(q)
			if err != nil {
				return nil, &dispatch.AskFailure{Message: err.Error()}
			}
			requests[q.Key] = mustJSON(mcp.InputRequest{Method: method, Params: mustJSON(params)})
		}
		got, err := post(ctx, requests)
		if err != nil {
			return nil, err
		}
		for k, v := range got {
			answers[k] = v
		}
	}
}

func containsQuestion(qs []*table.Question, q *table.Question) bool {
	for _, x := range qs {
		if x == q {
			return true
		}
	}
	return false
}

func kindsOf(qs []*table.Question) string {
	var out []string
	for _, q := range qs {
		out = append(out, map[string]string{"elicit": "elicitation", "sample": "sampling", "roots": "roots"}[q.Kind])
	}
	return strings.Join(out, ", ")
}
