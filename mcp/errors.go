package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// JSON-RPC and MCP error codes used by this package.
const (
	CodeParseError     = -32700 // body is not JSON
	CodeInvalidRequest = -32600 // not a valid JSON-RPC request or notification
	CodeMethodNotFound = -32601 // unknown, removed or ungated method
	CodeInvalidParams  = -32602 // bad params, unknown tool/prompt, bad cursor
	CodeInternalError  = -32603 // server bug or backend failure

	// CodeResourceNotFound is the legacy-only resource-not-found code. Handlers
	// return it via [ResourceNotFound]; modern responses rewrite it to -32602.
	CodeResourceNotFound = -32002

	CodeHeaderMismatch                  = -32020 // HTTP header missing, malformed or ≠ body
	CodeMissingRequiredClientCapability = -32021 // request needs an undeclared client capability
	CodeUnsupportedProtocolVersion      = -32022 // version unknown or not offered
)

// Error is a JSON-RPC error object. It implements error so handlers can return
// it directly; any other error a handler returns becomes -32603.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`

	// ladder marks errors produced by the validation ladder before dispatch;
	// only those get the 4xx statuses the specification requires (handler errors
	// travel in band, as ts-sdk does).
	ladder bool
	// httpReply, when set, gives the HTTP status and headers of the
	// response that carries the error (WithHTTPReply).
	httpReply HTTPReply
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("mcp error %d: %s", e.Code, e.Message)
}

// Errorf builds an *Error with a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidParams reports a protocol-level parameter problem (-32602), such as
// an unknown tool or prompt or a missing required prompt argument. Argument
// validation failures of a tool are NOT protocol errors: return a
// CallToolResult with IsError instead.
func InvalidParams(format string, args ...any) *Error {
	return Errorf(CodeInvalidParams, format, args...)
}

// ResourceNotFound reports a resources/read of an unknown URI. The shaper
// sends it as -32002 to legacy clients and as -32602 with data.uri to modern
// ones, so handlers stay era-neutral.
func ResourceNotFound(uri string) *Error {
	return &Error{Code: CodeResourceNotFound, Message: "resource not found", Data: map[string]string{"uri": uri}}
}

// MissingClientCapability reports -32021 with data.requiredCapabilities.
func MissingClientCapability(required ClientCapabilities) *Error {
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "request requires a client capability that was not declared",
		Data:    map[string]any{"requiredCapabilities": required},
	}
}

func ladderErr(code int, format string, args ...any) *Error {
	e := Errorf(code, format, args...)
	e.ladder = true
	return e
}

// versionErr is the -32022 error with the data shape the 2026-07-28 schema
// requires ({supported, requested}).
func versionErr(requested string, supported []string) *Error {
	return &Error{
		Code:    CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("unsupported protocol version %q", requested),
		Data:    map[string]any{"supported": supported, "requested": requested},
		ladder:  true,
	}
}

// asError converts whatever a handler returned into a wire error.
func asError(err error) *Error {
	if e, ok := err.(*Error); ok && e != nil {
		return e
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}

// HTTPStatus maps an error to the HTTP status of its response. Ladder errors
// follow the specification (400, and 404 for -32601 in the modern era). Errors returned by
// handlers stay in band with 200, except -32601 (modern 404) and -32021 (400)
// whose statuses the specification makes mandatory. Legacy -32601 is never 404, because a
// legacy client reads 404 as "session expired".
func (e *Error) HTTPStatus(modern bool) int {
	switch {
	case e.Code == CodeMethodNotFound && modern:
		return http.StatusNotFound
	case e.Code == CodeMissingRequiredClientCapability && (modern || e.ladder):
		return http.StatusBadRequest
	case e.ladder:
		if e.Code == CodeMethodNotFound {
			return http.StatusOK
		}
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// marshalData keeps encoding failures of caller-supplied Data from producing
// an invalid response: the data is dropped rather than the whole error.
func (e *Error) wire() []byte {
	b, err := json.Marshal(e)
	if err != nil {
		b, _ = json.Marshal(&Error{Code: e.Code, Message: e.Message})
	}
	return b
}
