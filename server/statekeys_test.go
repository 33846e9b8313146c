package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// A later round may land on another replica, or arrive after a key
// rotation: a state signed with any key of the list is accepted, a state
// signed with a key that left the list is refused.
func TestRequestStateAcrossReplicasAndRotation(t *testing.T) {
	oldKey := bytes.Repeat([]byte("o"), mcp.MinKeyLen)
	newKey := bytes.Repeat([]byte("n"), mcp.MinKeyLen)
	replica := func(keys ...[]byte) *Server {
		ks, err := mcp.NewKeys(keys)
		if err != nil {
			t.Fatal(err)
		}
		s := staticServer(t, elicitConfig)
		s.stateKeys = ks
		return s
	}
	req := &mcp.Request{Era: mcp.EraModern, Notifier: nopNotifier{}}
	args := json.RawMessage(`{"message":"Who are you?"}`)
	firstRound := func(s *Server) string {
		res, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "test_elicitation", Arguments: args})
		if err != nil || res.InputRequired == nil {
			t.Fatalf("want input_required, got %+v, %v", res, err)
		}
		return res.InputRequired.RequestState
	}
	secondRound := func(s *Server, state string) error {
		p := &mcp.CallToolParams{Name: "test_elicitation", Arguments: args}
		p.RequestState = state
		p.InputResponses = json.RawMessage(`{"elicit":{"action":"accept","content":{"username":"u","email":"u@example.com"}}}`)
		res, err := s.CallTool(context.Background(), req, p)
		if err == nil && (res.IsError || !strings.Contains(res.Content[0].Text, "action=accept")) {
			t.Fatalf("second round gave %+v", res)
		}
		return err
	}

	a, b := replica(oldKey), replica(oldKey)
	if err := secondRound(b, firstRound(a)); err != nil {
		t.Errorf("a replica with the same key refused the state: %v", err)
	}
	rotated := replica(newKey, oldKey)
	if err := secondRound(rotated, firstRound(a)); err != nil {
		t.Errorf("the previous key was refused during the rotation: %v", err)
	}
	if err := secondRound(a, firstRound(rotated)); err == nil {
		t.Error("a replica without the new key accepted a state it signed")
	}
	done := replica(newKey)
	if err := secondRound(done, firstRound(a)); err == nil {
		t.Error("a state signed with a retired key was accepted")
	}
	if err := secondRound(done, firstRound(rotated)); err != nil {
		t.Errorf("the new key's state was refused after the rotation: %v", err)
	}
}
