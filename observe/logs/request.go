package logs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"sync/atomic"
)

// SpanIDs gives the trace and span ids, in hex, of the span in ctx, so
// that a traced call's lines name the span they are written in (the
// server's Tracer does).
type SpanIDs interface {
	LogIDs(ctx context.Context) (traceID, spanID string)
}

// requestLog identifies one request in every log line of its call: the
// request id, unique across processes (a random tag of the process and a
// sequence number), and the trace id of the caller's W3C traceparent, or
// when the server traces, the ids of the span the line is written in. It
// is the call's context itself (one allocation), and becomes attributes
// only when a line is written.
type requestLog struct {
	context.Context
	seq   uint64
	trace string
	// spans, when the call is traced, gives the ids of the span a line
	// is written in, which replace the caller's trace id.
	spans SpanIDs
}

type requestLogKey struct{}

// Value answers the key of requestLog with itself.
func (rl *requestLog) Value(key any) any {
	if key == (requestLogKey{}) {
		return rl
	}
	return rl.Context.Value(key)
}

var (
	requestSeq atomic.Uint64
	processTag = randomTag()
)

func randomTag() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// WithRequest gives ctx the identity of a new request in the log: a
// request id unique across processes and, when traceparent (the
// request's W3C header, "" when none) is well formed, its trace id.
func WithRequest(ctx context.Context, traceparent string) context.Context {
	return &requestLog{Context: ctx, seq: requestSeq.Add(1), trace: traceID(traceparent)}
}

// TraceSpans makes the lines of the request ctx belongs to carry the ids
// of the span they are written in, from spans, in place of the caller's
// trace id.
func TraceSpans(ctx context.Context, spans SpanIDs) {
	if rl, ok := ctx.Value(requestLogKey{}).(*requestLog); ok {
		rl.spans = spans
	}
}

// RequestAttrs are the log attributes of the request ctx belongs to
// (request_id, and trace_id and span_id when known), or nil outside one.
func RequestAttrs(ctx context.Context) []slog.Attr {
	rl, ok := ctx.Value(requestLogKey{}).(*requestLog)
	if !ok {
		return nil
	}
	attrs := []slog.Attr{slog.String("request_id", processTag+"-"+strconv.FormatUint(rl.seq, 10))}
	if rl.spans != nil {
		if trace, span := rl.spans.LogIDs(ctx); trace != "" {
			return append(attrs, slog.String("trace_id", trace), slog.String("span_id", span))
		}
	}
	if rl.trace != "" {
		attrs = append(attrs, slog.String("trace_id", rl.trace))
	}
	return attrs
}

// traceID is the trace id of a W3C traceparent header
// ("00-<32 hex>-<16 hex>-<2 hex>"), or "" when the header is absent or
// malformed: a caller's header is logged only in that checked shape.
func traceID(tp string) string {
	if len(tp) < 55 || tp[2] != '-' || tp[35] != '-' || tp[52] != '-' || tp[:2] == "ff" {
		return ""
	}
	id := tp[3:35]
	if !lowerHex(tp[:2]) || !lowerHex(id) || !lowerHex(tp[36:52]) || !lowerHex(tp[53:55]) || id == "00000000000000000000000000000000" {
		return ""
	}
	if tp[:2] == "00" && len(tp) != 55 {
		return ""
	}
	return id
}

func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// RequestID is the request id of the request ctx belongs to (the
// request_id of its log lines), or "" outside one.
func RequestID(ctx context.Context) string {
	rl, ok := ctx.Value(requestLogKey{}).(*requestLog)
	if !ok {
		return ""
	}
	return processTag + "-" + strconv.FormatUint(rl.seq, 10)
}
