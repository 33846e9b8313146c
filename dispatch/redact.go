package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/jsonenc"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/table"
)

// Sensitive values are replaced in everything a call writes: sensitive
// variables wherever they would reach the log or the model (answers
// included: a variable is the server's own secret); sensitive arguments in
// the log and in error messages (the model gave them, and an answer that
// repeats one is the backend's data).

// callSecretsKey carries a call's sensitive argument texts in its context,
// for the log.
type callSecretsKey struct{}

// WithCallSecrets returns ctx carrying a call's sensitive argument texts.
func WithCallSecrets(ctx context.Context, texts []string) context.Context {
	if len(texts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, callSecretsKey{}, texts)
}

// CallSecrets returns the sensitive argument texts of the call ctx belongs
// to (longest first), for a log handler to redact.
func CallSecrets(ctx context.Context) []string {
	texts, _ := ctx.Value(callSecretsKey{}).([]string)
	return texts
}

// sensitiveArgTexts lists the texts of a call's sensitive arguments, read
// from the raw arguments so that they are known even when the arguments
// are invalid.
func sensitiveArgTexts(a *table.Args, raw json.RawMessage) []string {
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
	return rule.LongestFirst(out)
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
			if len(x) >= rule.MinSecretLen {
				out = append(out, x)
			}
		case json.Number:
			if len(x) >= rule.MinSecretLen {
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

// redactBlocks replaces secrets in text blocks.
func redactBlocks(blocks []Block, lists ...[]string) {
	for i := range blocks {
		if blocks[i].Kind == KindText {
			blocks[i].Text = rule.RedactEach(blocks[i].Text, lists...)
		}
	}
}

// redactCallError replaces secrets in a CallError's message.
func redactCallError(err error, lists ...[]string) error {
	e, ok := err.(*CallError)
	if !ok {
		return err
	}
	if msg := rule.RedactEach(e.Message, lists...); msg != e.Message {
		c := *e
		c.Message = msg
		return &c
	}
	return err
}

// redactToolResult replaces sensitive variables in everything a tool
// result carries: text blocks, and the strings of its structured content
// (which is decoded and encoded again only when it holds one).
func redactToolResult(r *ToolResult, secrets []string) {
	redactBlocks(r.Content, secrets)
	if len(r.Structured) == 0 || !holdsAny(r.Structured, secrets) {
		return
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(r.Structured))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return
	}
	if b, err := jsonenc.Marshal(redactStrings(v, secrets)); err == nil {
		r.Structured = b
	}
}

func holdsAny(b []byte, secrets []string) bool {
	for _, s := range secrets {
		if len(s) >= rule.MinSecretLen && bytes.Contains(b, []byte(s)) {
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
		return rule.RedactEach(x, secrets)
	case []any:
		for i, e := range x {
			x[i] = redactStrings(e, secrets)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[rule.RedactEach(k, secrets)] = redactStrings(e, secrets)
		}
		return out
	}
	return v
}

// redactData redacts a log notification's data: a string as text, any
// other value through its printed form when that holds a secret.
func redactData(data any, lists ...[]string) any {
	if s, ok := data.(string); ok {
		return rule.RedactEach(s, lists...)
	}
	if text := fmt.Sprint(data); rule.RedactEach(text, lists...) != text {
		return rule.RedactEach(text, lists...)
	}
	return data
}
