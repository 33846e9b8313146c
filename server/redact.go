package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/jsonenc"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// redacted stands where a sensitive value would have been written
// (dispatch.RedactText writes it).
const redacted = "(sensitive)"

// Sensitive values are replaced by "(sensitive)" in everything the server
// writes: sensitive variables wherever they would reach the log or the
// model (answers included: a variable is the server's own secret);
// sensitive arguments in the log and in error messages (the model gave
// them, and an answer that repeats one is the backend's data).

// callSecretsKey carries a call's sensitive argument texts in its context,
// for the log handler.
type callSecretsKey struct{}

func withCallSecrets(ctx context.Context, texts []string) context.Context {
	if len(texts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, callSecretsKey{}, texts)
}

func callSecrets(ctx context.Context) []string {
	texts, _ := ctx.Value(callSecretsKey{}).([]string)
	return texts
}

// redact replaces each secret of each list (each longest first) in s.
func redact(s string, lists ...[]string) string {
	for _, list := range lists {
		s = dispatch.RedactText(s, list)
	}
	return s
}

// sensitiveArgTexts lists the texts of a call's sensitive arguments, read
// from the raw arguments so that they are known even when the arguments
// are invalid.
func sensitiveArgTexts(a *dispatch.Args, raw json.RawMessage) []string {
	var names []string
	for _, arg := range a.List {
		if arg.Sensitive {
			names = append(names, arg.Name)
		}
	}
	if len(names) == 0 || len(raw) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	var out []string
	for _, name := range names {
		out = append(out, jsonTexts(obj[name])...)
	}
	return dispatch.LongestFirst(out)
}

// jsonTexts lists the strings and numbers inside a JSON value, as they
// may appear in a message.
func jsonTexts(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if len(x) >= dispatch.MinSecretLen {
				out = append(out, x)
			}
		case json.Number:
			if len(x) >= dispatch.MinSecretLen {
				out = append(out, string(x))
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// redactResult replaces secrets in the text of an error result.
func redactResult(r *mcp.CallToolResult, lists ...[]string) {
	for i := range r.Content {
		if r.Content[i].Type == mcp.ContentText {
			r.Content[i].Text = redact(r.Content[i].Text, lists...)
		}
	}
}

// redactError replaces secrets in a protocol error's message.
func redactError(err error, lists ...[]string) error {
	var e *mcp.Error
	if !errors.As(err, &e) {
		return err
	}
	if msg := redact(e.Message, lists...); msg != e.Message {
		c := *e
		c.Message = msg
		return &c
	}
	return err
}

// redactingHandler is a slog.Handler that redacts the server's sensitive
// variables, and the sensitive arguments of the call being logged, from
// every message and attribute.
type redactingHandler struct {
	inner   slog.Handler
	secrets func() []string
}

func (h redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	global, call := h.secrets(), callSecrets(ctx)
	if len(global) == 0 && len(call) == 0 {
		return h.inner.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, redact(r.Message, call, global), r.PC)
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
		return slog.String(a.Key, redact(v.String(), lists...))
	case slog.KindGroup:
		group := v.Group()
		out := make([]any, len(group))
		for i, g := range group {
			out[i] = redactAttr(g, lists...)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		text := fmt.Sprint(v.Any())
		if r := redact(text, lists...); r != text {
			return slog.String(a.Key, r)
		}
	}
	return a
}

// redactAnswer replaces sensitive variables in everything a tool result
// carries: text blocks, and the strings of its structured content (which
// is decoded and encoded again only when it holds one).
func redactAnswer(r *mcp.CallToolResult, secrets []string) {
	redactResult(r, secrets)
	if len(r.StructuredContent) == 0 || !holdsAny(r.StructuredContent, secrets) {
		return
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(r.StructuredContent))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return
	}
	if b, err := jsonenc.Marshal(redactStrings(v, secrets)); err == nil {
		r.StructuredContent = b
	}
}

func holdsAny(b []byte, secrets []string) bool {
	for _, s := range secrets {
		if len(s) >= dispatch.MinSecretLen && bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// redactStrings redacts the strings (keys included) of a decoded JSON
// value, which belongs to this call alone.
func redactStrings(v any, secrets []string) any {
	switch x := v.(type) {
	case string:
		return redact(x, secrets)
	case []any:
		for i, e := range x {
			x[i] = redactStrings(e, secrets)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[redact(k, secrets)] = redactStrings(e, secrets)
		}
		return out
	}
	return v
}

// redactData redacts a log notification's data: a string as text, any
// other value through its printed form when that holds a secret.
func redactData(data any, lists ...[]string) any {
	if s, ok := data.(string); ok {
		return redact(s, lists...)
	}
	if text := fmt.Sprint(data); redact(text, lists...) != text {
		return redact(text, lists...)
	}
	return data
}
