package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
)

// pendingCalls are server→client requests awaiting the client's answer,
// by request id. A session's own table numbers its requests; the table
// shared by all signed (stateless) sessions of an HTTP handler uses
// random ids, so that no client can answer a request sent to another.
type pendingCalls struct {
	random bool
	nextID atomic.Int64
	mu     sync.Mutex
	calls  map[string]chan *Message
}

func newPendingCalls(random bool) *pendingCalls {
	return &pendingCalls{random: random, calls: map[string]chan *Message{}}
}

func (pc *pendingCalls) newID() json.RawMessage {
	if pc.random {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		return json.RawMessage(strconv.Quote("srv-" + hex.EncodeToString(b)))
	}
	return json.RawMessage(strconv.Quote("srv-" + strconv.FormatInt(pc.nextID.Add(1), 10)))
}

// call sends a request through send and waits for the answer that
// deliver hands over for the same owner, or for ctx to end. owner is the
// session's random part: in the table shared by signed sessions, an
// answer posted under another session is not taken even with the id.
func (pc *pendingCalls) call(ctx context.Context, owner string, send func([]byte) error, method string, params any) (json.RawMessage, error) {
	id := pc.newID()
	b, err := encodeRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	ch := make(chan *Message, 1)
	key := owner + "\x00" + idKey(id)
	pc.mu.Lock()
	pc.calls[key] = ch
	pc.mu.Unlock()
	defer func() {
		pc.mu.Lock()
		delete(pc.calls, key)
		pc.mu.Unlock()
	}()
	if err := send(b); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			var e Error
			if json.Unmarshal(m.Error, &e) != nil {
				return nil, errors.New("mcp: malformed error response from client")
			}
			return nil, &e
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver routes a client response to the waiting call; it reports false
// for an unknown id.
func (pc *pendingCalls) deliver(owner string, m *Message) bool {
	pc.mu.Lock()
	ch := pc.calls[owner+"\x00"+idKey(m.ID)]
	pc.mu.Unlock()
	if ch == nil {
		return false
	}
	select {
	case ch <- m:
	default:
	}
	return true
}
