package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC 2.0 error codes, and the protocol's own.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
)

// maxMessage bounds one message's body: no editor sends a configuration
// file of this size, and a wrong Content-Length must not make us
// allocate gigabytes.
const maxMessage = 64 << 20

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// response is what we send back; Result is always present on success
// (null included), as JSON-RPC requires.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
	Error   *rpcError       `json:"error,omitempty"`
}

// errorResponse has no result member, which JSON-RPC forbids beside error.
type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *rpcError       `json:"error"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// errFraming is a message whose header could not be read: the stream
// goes on after it, with the next header.
type errFraming struct{ reason string }

func (e errFraming) Error() string { return e.reason }

// reader reads Content-Length framed messages.
type reader struct {
	r *bufio.Reader
}

func newReader(r io.Reader) *reader { return &reader{r: bufio.NewReaderSize(r, 64<<10)} }

// read returns the next message's body. An io error (io.EOF at the end
// of input) ends the stream; errFraming is one bad message, skipped.
func (r *reader) read() ([]byte, error) {
	header, err := textproto.NewReader(r.r).ReadMIMEHeader()
	if err != nil && len(header) == 0 {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, io.EOF
		}
		return nil, errFraming{"unreadable header: " + err.Error()}
	}
	cl := header.Get("Content-Length")
	if cl == "" {
		return nil, errFraming{"a message without Content-Length"}
	}
	n, err := strconv.Atoi(strings.TrimSpace(cl))
	if err != nil || n < 0 {
		return nil, errFraming{fmt.Sprintf("Content-Length %q is not a length", cl)}
	}
	if n > maxMessage {
		if _, err := io.CopyN(io.Discard, r.r, int64(n)); err != nil {
			return nil, io.EOF
		}
		return nil, errFraming{fmt.Sprintf("a message of %d bytes, over the limit of %d", n, maxMessage)}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, io.EOF
	}
	return body, nil
}

// writer writes framed messages, one at a time from any goroutine.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := fmt.Fprintf(w.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = w.w.Write(body)
	return err
}

func (w *writer) reply(id json.RawMessage, result any, err error) error {
	if err == nil {
		return w.write(response{JSONRPC: "2.0", ID: id, Result: result})
	}
	var re *rpcError
	if !errors.As(err, &re) {
		re = &rpcError{Code: codeInternalError, Message: err.Error()}
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	return w.write(errorResponse{JSONRPC: "2.0", ID: id, Error: re})
}

func (w *writer) notify(method string, params any) error {
	return w.write(notification{JSONRPC: "2.0", Method: method, Params: params})
}

// idKey is a request id as a map key: ids are numbers or strings, and
// "1" and 1 are different ids.
func idKey(id json.RawMessage) string { return string(id) }
