package httpadapter

import (
	"encoding/json"
	"strings"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// scrubAnswer replaces the backend's credentials wherever an answer
// repeats them (an API echoing the request, a debug endpoint): the model
// never sees what the server authenticates with. The decoded body is
// walked only when the raw answer holds a credential, or a backslash
// behind which a JSON escape could hide one.
func (rt *runtime) scrubAnswer(res *adapter.Result, token string) {
	secrets := rt.answerSecrets
	if token != "" {
		secrets = append(withEscapedForms(secretParts(token)), secrets...)
	}
	if len(secrets) == 0 {
		return
	}
	raw, _ := res.Fields["text"].(string)
	headers, _ := res.Fields["headers"].(map[string]string)
	if !mentions(raw, secrets) && !headersMention(headers, secrets) && !strings.Contains(raw, `\`) {
		return
	}
	for k, v := range headers {
		headers[k] = rule.Redact(v, secrets)
	}
	res.Text = rule.Redact(res.Text, secrets)
	res.Fields["text"] = rule.Redact(raw, secrets)
	if body := res.Fields["body"]; body != nil {
		body = scrubValue(body, secrets)
		res.Fields["body"] = body
		if obj, ok := body.(map[string]any); ok && res.Structured != nil {
			res.Structured = obj
		}
	}
}

// withEscapedForms adds the forms a secret takes inside a JSON string
// (quotes and backslashes escaped, "/" written as "\/"), so that the raw
// text of an answer is cleaned as well as its decoded body. Longer forms
// come first: they hold the shorter ones.
func withEscapedForms(secrets []string) []string {
	var out []string
	for _, sec := range secrets {
		b, _ := json.Marshal(sec)
		quoted := string(b[1 : len(b)-1])
		for _, form := range []string{strings.ReplaceAll(quoted, "/", `\/`), quoted} {
			if form != sec {
				out = append(out, form)
			}
		}
	}
	return append(out, secrets...)
}

func mentions(s string, secrets []string) bool {
	for _, sec := range secrets {
		if len(sec) >= rule.MinSecretLen && strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

func headersMention(h map[string]string, secrets []string) bool {
	for _, v := range h {
		if mentions(v, secrets) {
			return true
		}
	}
	return false
}

// scrubValue redacts every string of a decoded JSON value, keys included,
// changing maps and lists in place (they belong to this answer).
func scrubValue(v any, secrets []string) any {
	switch x := v.(type) {
	case string:
		return rule.Redact(x, secrets)
	case []any:
		for i, e := range x {
			x[i] = scrubValue(e, secrets)
		}
	case map[string]any:
		for k, e := range x {
			if r := rule.Redact(k, secrets); r != k {
				delete(x, k)
				k = r
			}
			x[k] = scrubValue(e, secrets)
		}
	}
	return v
}
