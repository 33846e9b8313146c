package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"sync/atomic"

	"github.com/mcpdecl/mcpdecl/mcp"
)

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
	// tracer, when the call is traced, gives the ids of the span a line
	// is written in, which replace the caller's trace id.
	tracer Tracer
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

// withRequestLog gives ctx the identity of the request req in the log.
func withRequestLog(ctx context.Context, req *mcp.Request) context.Context {
	rl := &requestLog{Context: ctx, seq: requestSeq.Add(1)}
	if req != nil && req.Header != nil {
		rl.trace = traceID(req.Header.Get("traceparent"))
	}
	return rl
}

// requestLogAttrs are the attributes of the request ctx belongs to, if any.
func requestLogAttrs(ctx context.Context) []slog.Attr {
	rl, ok := ctx.Value(requestLogKey{}).(*requestLog)
	if !ok {
		return nil
	}
	attrs := []slog.Attr{slog.String("request_id", processTag+"-"+strconv.FormatUint(rl.seq, 10))}
	if rl.tracer != nil {
		if trace, span := rl.tracer.LogIDs(ctx); trace != "" {
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
