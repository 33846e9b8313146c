package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Message is one decoded JSON-RPC 2.0 message. The body is read exactly
// once: the envelope and, for a request, its params in the same pass;
// Params, Result and the error also stay raw for the parts a method reads
// itself (go-sdk re-parses bodies up to six times, its main measured
// cost).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`

	// params is what DecodeMessage read of Params (when paramsRead),
	// with paramsErr the -32602 to report for them after the ladder.
	params     params
	meta       requestMeta // where params.Meta points
	paramsErr  *Error
	paramsRead bool
}

// IsNotification reports a message with a method and no id.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsRequest reports a message with a method and an id.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsResponse reports a message without a method: a client's answer to a
// server→client request (legacy only).
func (m *Message) IsResponse() bool { return m.Method == "" }

// DecodeMessage decodes one JSON-RPC message. It returns -32700 when b is not
// JSON and -32600 when it is JSON but not a JSON-RPC 2.0 message. A batch
// (array) is -32600 here; [IsBatch] lets transports that accept 2025-03-26
// batches look first. When the id was readable it is returned with the error
// so the error response can carry it.
//
// It reads b as encoding/json would decode it into the message struct
// (keys matched case-insensitively, the last of duplicate keys winning,
// null leaving a string as it is) but in one pass and without reflection;
// FuzzDecodeMatchesReference compares the two.
//
// The raw parts of the message point into b instead of copying it (a 4 MiB
// body would otherwise be held three times), so b must not change afterwards.
func DecodeMessage(b []byte) (*Message, json.RawMessage, *Error) {
	m := new(Message)
	d := msgDecoder{r: jsonReader{b: b}, m: m}
	if !d.message() {
		return nil, nil, ladderErr(CodeParseError, "parse error: body is not valid JSON")
	}
	if d.wrongType {
		if IsBatch(b) {
			return nil, nil, ladderErr(CodeInvalidRequest, "invalid request: JSON-RPC batches are not accepted here")
		}
		return nil, nil, ladderErr(CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
	}
	if d.paramsWrong {
		// Rare: let encoding/json word the -32602 and recover _meta.
		m.params = params{}
		m.paramsErr = decodeParams(m.Params, &m.params)
	}
	m.paramsRead = m.Params == nil || m.Params[0] == '{'
	id := m.ID
	if id != nil && !validID(id) {
		return nil, nil, ladderErr(CodeInvalidRequest, "invalid request: id must be a string or an integer")
	}
	if m.JSONRPC != "2.0" {
		return nil, id, ladderErr(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if m.Method == "" {
		// A response needs an id and exactly one of result/error.
		if id == nil || (m.Result == nil) == (m.Error == nil) {
			return nil, id, ladderErr(CodeInvalidRequest, "invalid request: missing method")
		}
		return m, id, nil
	}
	if m.Result != nil || m.Error != nil {
		return nil, id, ladderErr(CodeInvalidRequest, "invalid request: a request cannot carry result or error")
	}
	if m.Params != nil && firstByte(m.Params) != '{' {
		return nil, id, ladderErr(CodeInvalidRequest, "invalid request: params must be an object")
	}
	return m, id, nil
}

// rawRef is json.RawMessage without the copy: it points into the buffer
// being decoded, which the caller owns and leaves unchanged (encoding/json
// hands Unmarshalers a slice of its input).
type rawRef []byte

func (r *rawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// IsBatch reports whether b is a JSON array (a JSON-RPC batch).
func IsBatch(b []byte) bool { return firstByte(b) == '[' }

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// validID accepts a JSON string or an integer; null, fractions, exponents,
// booleans, objects and arrays are rejected (an id is never null).
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		r := jsonReader{b: id}
		_, _, ok := r.str()
		return ok && r.atEnd()
	}
	_, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil
}

// idKey normalises an id for map lookups (cancellation, pending server
// requests): strings by their decoded value, integers by their digits, so
// "1" and 1 stay distinct.
func idKey(id json.RawMessage) string {
	if len(id) > 0 && id[0] == '"' {
		r := jsonReader{b: id}
		if lit, plain, ok := r.str(); ok && r.atEnd() {
			return "s:" + unquote(lit, plain)
		}
	}
	return "n:" + string(bytes.TrimSpace(id))
}

// encodeResult builds {"jsonrpc":"2.0","id":…,"result":…} by appending, which
// avoids a reflective marshal of the envelope on every response.
func encodeResult(id, result json.RawMessage) []byte {
	b := make([]byte, 0, len(result)+len(id)+36)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// encodeError builds an error response; the id is omitted when unknown.
func encodeError(id json.RawMessage, e *Error) []byte {
	w := e.wire()
	b := make([]byte, 0, len(w)+len(id)+36)
	b = append(b, `{"jsonrpc":"2.0",`...)
	if id != nil {
		b = append(b, `"id":`...)
		b = append(b, id...)
		b = append(b, ',')
	}
	b = append(b, `"error":`...)
	b = append(b, w...)
	return append(b, '}')
}

// encodeNotification builds a server notification; params may be nil.
func encodeNotification(method string, params any) []byte {
	b := []byte(`{"jsonrpc":"2.0","method":`)
	b = strconv.AppendQuote(b, method)
	if params != nil {
		p, err := json.Marshal(params)
		if err == nil {
			b = append(b, `,"params":`...)
			b = append(b, p...)
		}
	}
	return append(b, '}')
}

// encodeRequest builds a server→client request (legacy sessions only).
func encodeRequest(id json.RawMessage, method string, params any) ([]byte, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	b := []byte(`{"jsonrpc":"2.0","id":`)
	b = append(b, id...)
	b = append(b, `,"method":`...)
	b = strconv.AppendQuote(b, method)
	b = append(b, `,"params":`...)
	b = append(b, p...)
	return append(b, '}'), nil
}
