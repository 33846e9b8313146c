package server

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/observe/logs"
)

// redactingHandler is a slog.Handler that redacts the server's sensitive
// variables, the sensitive arguments of the call being logged, and any
// bearer credential ("Bearer <token>"), from every message and attribute;
// it also adds the request and trace ids of the call being logged.
type redactingHandler struct {
	inner   slog.Handler
	secrets func() []string
}

func (h redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	if attrs := logs.RequestAttrs(ctx); attrs != nil {
		r = r.Clone()
		r.AddAttrs(attrs...)
	}
	global, call := h.secrets(), dispatch.CallSecrets(ctx)
	if len(global) == 0 && len(call) == 0 && !mentionsBearer(r) {
		return h.inner.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, redactBearer(rule.RedactEach(r.Message, call, global)), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a, call, global))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	global := h.secrets()
	for i, a := range attrs {
		attrs[i] = redactAttr(a, global)
	}
	return redactingHandler{inner: h.inner.WithAttrs(attrs), secrets: h.secrets}
}

func (h redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{inner: h.inner.WithGroup(name), secrets: h.secrets}
}

// redactAttr redacts a string, an error or anything printed as text.
func redactAttr(a slog.Attr, lists ...[]string) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, redactBearer(rule.RedactEach(v.String(), lists...)))
	case slog.KindGroup:
		group := v.Group()
		out := make([]any, len(group))
		for i, g := range group {
			out[i] = redactAttr(g, lists...)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		text := fmt.Sprint(v.Any())
		if r := redactBearer(rule.RedactEach(text, lists...)); r != text {
			return slog.String(a.Key, r)
		}
	}
	return a
}
