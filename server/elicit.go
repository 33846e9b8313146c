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

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// elicitKey names the elicitation among a modern result's inputRequests.
const elicitKey = "elicit"

// stateTTL bounds how long a modern client may take to answer.
const stateTTL = 15 * time.Minute

// elicitAnswer is the user's answer: action is "accept", "decline" or
// "cancel"; content is the filled-in form (accept only).
type elicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// elicit obtains the user's answer to a tool's elicit block. It returns the
// answer, or a result to send instead: a modern input_required result, or
// an error result the model can act on. err is a protocol error.
func (s *Server) elicit(ctx context.Context, req *mcp.Request, st *state, tool *dispatch.Tool, p *mcp.CallToolParams, args *callArgs) (*elicitAnswer, *mcp.CallToolResult, error) {
	message, err := evalString(tool.Elicit.Message, st, args.Cty)
	if err != nil {
		return nil, errorResult("The question to the user could not be built: " + err.Error()), nil
	}
	params := map[string]any{"message": message, "requestedSchema": tool.Elicit.Schema}
	if req.Era == mcp.EraModern {
		return s.elicitModern(tool, p, args, params)
	}
	raw, err := req.Notifier.Request(ctx, "elicitation/create", params)
	if errors.Is(err, mcp.ErrNoBackChannel) {
		return nil, errorResult("This tool must ask the user a question first, and this connection cannot carry the question. Use stdio, or an HTTP session (serve --legacy-sessions), or a client speaking MCP 2026-07-28."), nil
	}
	if err != nil {
		return nil, errorResult("The user could not be asked: " + err.Error()), nil
	}
	return decodeAnswer(raw)
}

// elicitModern returns input_required the first time and reads the answer
// on the retry, after checking that the echoed state is ours, fresh, and
// for this very tool and these arguments.
func (s *Server) elicitModern(tool *dispatch.Tool, p *mcp.CallToolParams, args *callArgs, params map[string]any) (*elicitAnswer, *mcp.CallToolResult, error) {
	binding := stateBinding(tool.Name, args.JSON)
	if p.RequestState == "" || len(p.InputResponses) == 0 {
		ir := &mcp.InputRequired{
			InputRequests: map[string]mcp.InputRequest{elicitKey: {Method: "elicitation/create", Params: mustJSON(params)}},
			RequestState:  s.signState(binding, time.Now().Add(stateTTL)),
		}
		return nil, &mcp.CallToolResult{InputRequired: ir}, nil
	}
	if err := s.verifyState(p.RequestState, binding, time.Now()); err != nil {
		return nil, nil, mcp.InvalidParams("requestState refused: %s", err)
	}
	var responses map[string]json.RawMessage
	if err := json.Unmarshal(p.InputResponses, &responses); err != nil || responses[elicitKey] == nil {
		return nil, nil, mcp.InvalidParams("inputResponses must hold the answer under %q", elicitKey)
	}
	return decodeAnswer(responses[elicitKey])
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
