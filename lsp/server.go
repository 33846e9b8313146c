package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Server is one language server session.
type Server struct {
	// Debounce is how long diagnostics wait after the last change of a
	// configuration before it is checked again (default 100 ms): typing
	// sends a change per key, and checking each would waste the CPU on
	// text that is about to change.
	Debounce time.Duration
	// Version is the server version initialize names.
	Version string
	// Index answers definition, references, rename and semantic tokens
	// when set (see hooks.go).
	Index Index

	out  *writer
	docs *documents
	diag *diagnoser

	mu          sync.Mutex
	inflight    map[string]context.CancelFunc
	initialized bool // initialize was received: the protocol refuses requests before it
	shutdown    bool
	wg          sync.WaitGroup
}

// ErrNoShutdown is Run's error when the client sent exit without
// shutdown first (exit status 1, as the protocol asks).
var ErrNoShutdown = errors.New("exit without shutdown")

// handler answers one request.
type handler func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

// requests are the methods answered with a result; notifications (below)
// change the session and get no answer.
var requests = map[string]handler{
	"initialize":                  (*Server).initialize,
	"shutdown":                    func(*Server, context.Context, json.RawMessage) (any, error) { return nil, nil },
	"textDocument/formatting":     (*Server).formatting,
	"textDocument/documentSymbol": (*Server).documentSymbol,
	"textDocument/hover":          (*Server).hover,
	"textDocument/completion":     (*Server).completion,
	"textDocument/codeAction":     (*Server).codeAction,
}

// Run serves the protocol on in and out until the client sends exit or
// in ends. It returns nil after shutdown and exit, ErrNoShutdown after an
// exit alone, and the read error when in ends first.
func (s *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.out = &writer{w: out}
	s.docs = newDocuments()
	s.inflight = map[string]context.CancelFunc{}
	debounce := s.Debounce
	if debounce == 0 {
		debounce = 100 * time.Millisecond
	}
	s.diag = newDiagnoser(s.docs, s.out, debounce)
	defer s.diag.stop()
	defer s.wg.Wait()
	r := newReader(in)
	for {
		body, err := r.read()
		var framing errFraming
		switch {
		case errors.As(err, &framing):
			_ = s.out.reply(nil, nil, &rpcError{Code: codeParseError, Message: framing.reason})
			continue
		case err != nil:
			return err
		}
		if done, err := s.handle(ctx, body); done {
			return err
		}
	}
}

// handle takes one message; done says the session is over.
func (s *Server) handle(ctx context.Context, body []byte) (done bool, err error) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		_ = s.out.reply(nil, nil, &rpcError{Code: codeParseError, Message: "the message is not JSON: " + err.Error()})
		return false, nil
	}
	switch {
	case m.Method == "" && m.ID != nil && (m.Result != nil || m.Error != nil):
		return false, nil // a response: we send no requests that need one
	case m.Method == "":
		_ = s.out.reply(m.ID, nil, &rpcError{Code: codeInvalidRequest, Message: "a message with neither method nor id"})
		return false, nil
	case m.ID == nil:
		return s.notified(m)
	}
	s.request(ctx, m)
	return false, nil
}

// notified applies a notification at once, in order.
func (s *Server) notified(m message) (bool, error) {
	switch m.Method {
	case "exit":
		s.mu.Lock()
		ok := s.shutdown
		s.mu.Unlock()
		if !ok {
			return true, ErrNoShutdown
		}
		return true, nil
	case "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			s.mu.Lock()
			if cancel, ok := s.inflight[idKey(p.ID)]; ok {
				cancel()
			}
			s.mu.Unlock()
		}
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave":
		if err := s.documentEvent(m.Method, m.Params); err != nil {
			s.logf("%s: %v", m.Method, err)
		}
	}
	return false, nil // initialized, $/setTrace and the unknown ones: nothing to do
}

// request runs a request on its own goroutine, cancellable by
// $/cancelRequest, and replies when it ends.
func (s *Server) request(ctx context.Context, m message) {
	s.mu.Lock()
	if s.shutdown && m.Method != "shutdown" {
		s.mu.Unlock()
		_ = s.out.reply(m.ID, nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shut down; only exit is accepted"})
		return
	}
	if !s.initialized && m.Method != "initialize" {
		s.mu.Unlock()
		_ = s.out.reply(m.ID, nil, &rpcError{Code: codeServerNotInitialized, Message: "send initialize first"})
		return
	}
	switch m.Method {
	case "initialize":
		s.initialized = true
	case "shutdown":
		s.shutdown = true
	}
	h, ok := requests[m.Method]
	if !ok {
		h, ok = s.indexRequest(m.Method)
	}
	if !ok {
		s.mu.Unlock()
		_ = s.out.reply(m.ID, nil, &rpcError{Code: codeMethodNotFound, Message: "mcpdecl lsp does not answer " + m.Method})
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	key := idKey(m.ID)
	s.inflight[key] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		result, err := s.call(ctx, h, m.Params)
		if ctx.Err() != nil && err == nil {
			err = &rpcError{Code: codeRequestCancelled, Message: "cancelled"}
		}
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
		cancel()
		_ = s.out.reply(m.ID, result, err)
	}()
}

// call runs h; a panic becomes an internal error, so that a bug in one
// feature costs one answer, not the session.
func (s *Server) call(ctx context.Context, h handler, params json.RawMessage) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &rpcError{Code: codeInternalError, Message: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	return h(s, ctx, params)
}

// logf sends a line to the client's log (window/logMessage, type Log).
func (s *Server) logf(format string, args ...any) {
	_ = s.out.notify("window/logMessage", map[string]any{"type": 4, "message": fmt.Sprintf(format, args...)})
}

// decode reads params into v, or says what is wrong with them.
func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return nil
}
