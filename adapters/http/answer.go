package httpadapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/jsondec"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// failureExcerpt is how much of a failed answer's body Failure quotes.
const failureExcerpt = 300

// Kinds of answer body.
const (
	kindEmpty = iota
	kindJSON
	kindText
	kindMedia
)

// result describes an answer.
//
// The body is read by its Content-Type: JSON (application/json and
// +json) is decoded, text (text/*, XML, YAML, JavaScript, form-encoded) is
// a string, and anything else, images and audio included, is Media with its
// MIME type. An answer without a Content-Type is JSON if it parses as JSON,
// text if it is UTF-8, and application/octet-stream otherwise.
//
// Fields: status (int), headers (lower-case names, values joined with
// ", "), body (the decoded JSON, or the text; nil for media and empty
// answers), text (the body as it came, as a string; empty for media).
// Result.Text is the same text, except that pretty-printed JSON is
// compacted.
func (a *Action) result(rt *runtime, ans *answer, req *adapter.Request) *adapter.Result {
	if res := a.answerOnly(rt, ans, req); res != nil {
		return res
	}
	res := &adapter.Result{}
	headers := make(map[string]string, len(ans.header))
	for k, vs := range ans.header {
		headers[lowerName(k)] = strings.Join(vs, ", ")
	}
	var body any
	var text, raw string // Result.Text, and the text field

	mt, params, _ := mime.ParseMediaType(ans.header.Get("Content-Type"))
	kind := classify(mt, ans.data)
	if kind == kindJSON {
		raw = ans.text()
		v, err := jsondec.Decode(raw)
		if err != nil {
			if mt != "" {
				logf(req, "warning", "%s %s: the answer says it is %s but is not valid JSON (%s); it is passed on as text", a.Method, a.PathSource, mt, err)
			}
			kind = kindText
		} else {
			body = v
			text = compactText(raw)
			if obj, ok := v.(map[string]any); ok {
				res.Structured = obj
			}
		}
	}
	switch kind {
	case kindText:
		// body is only ever decoded JSON: null for a text answer, so that
		// `body?.title ?? ...` falls back instead of failing on a string.
		text = decodeText(ans.data, params["charset"])
		body, raw = nil, text
	case kindMedia:
		if mt == "" {
			mt = "application/octet-stream"
		}
		res.Media = &adapter.Media{MimeType: mt, Data: ans.data}
	}
	res.Text = text
	if kind == kindEmpty && ans.status >= 200 && ans.status <= 299 {
		// Say what happened rather than nothing (a DELETE's 204).
		res.Text = "The API answered " + statusLine(ans) + " with no content."
		if ans.status == http.StatusNoContent {
			res.Text = "The API answered 204 No Content: done, nothing to show."
		}
	}
	res.Fields = map[string]any{
		"status":  ans.status,
		"headers": headers,
		"body":    body,
		"text":    raw,
	}
	rt.scrubAnswer(res, ans.token)
	if ans.status < 200 || ans.status > 299 {
		res.Failure = rule.Redact(failure(ans, kind, mt, res.Text), append(secretParts(ans.token), rt.secrets...))
	}
	return res
}

// answerOnly is the result of a 2xx JSON answer when nothing reads its
// fields (req.AnswerOnly) and nothing needs scrubbing (no credential of
// the backend's could be repeated in it): the JSON is checked, not
// decoded, and is the text and, for an object, the structured content as
// it came (compacted when pretty-printed). Any other answer, or one whose
// bytes are not valid UTF-8, gets the general result (nil here).
func (a *Action) answerOnly(rt *runtime, ans *answer, req *adapter.Request) *adapter.Result {
	if !req.AnswerOnly || ans.status < 200 || ans.status > 299 || len(rt.answerSecrets) > 0 || ans.token != "" {
		return nil
	}
	if classify(mediaType(ans.header), ans.data) != kindJSON {
		return nil
	}
	raw := ans.text()
	if !utf8.ValidString(raw) {
		return nil
	}
	text, ok := compactJSON(raw)
	if !ok {
		return nil
	}
	res := &adapter.Result{Text: text}
	if first := strings.TrimLeft(text, " \t\r\n"); first != "" && first[0] == '{' {
		res.StructuredJSON = json.RawMessage(first)
	}
	return res
}

// mediaType is the answer's media type in lower case without parameters
// ("" when it has none or it does not parse). The usual one is taken as
// it is: mime.ParseMediaType builds a map of parameters on every call.
func mediaType(h http.Header) string {
	ct := headerValue(h, "Content-Type")
	if ct == "application/json" {
		return ct
	}
	mt, _, _ := mime.ParseMediaType(ct)
	return mt
}

// statusLine is the status code and its reason, as in "204 No Content".
func statusLine(ans *answer) string {
	if reason := http.StatusText(ans.status); reason != "" {
		return strconv.Itoa(ans.status) + " " + reason
	}
	return strconv.Itoa(ans.status)
}

// failure says what a non-2xx answer was: "The API answered 404 Not
// Found: <the body's first 300 bytes on one line>".
func failure(ans *answer, kind int, mt, text string) string {
	reason := http.StatusText(ans.status)
	if reason == "" {
		reason = strings.TrimSpace(strings.TrimPrefix(ans.reason, strconv.Itoa(ans.status)))
	}
	msg := "The API answered " + strconv.Itoa(ans.status)
	if reason != "" {
		msg += " " + reason
	}
	switch kind {
	case kindEmpty:
		msg += "."
	case kindMedia:
		msg += fmt.Sprintf(" with %s of %s.", english.Count(len(ans.data), "byte"), mt)
	default:
		msg += ": " + oneLine(text, failureExcerpt)
	}
	if ra := ans.header.Get("Retry-After"); ra != "" && (ans.status == http.StatusTooManyRequests || ans.status == http.StatusServiceUnavailable) {
		if len(ra) > 40 {
			ra = ra[:40]
		}
		msg += " (It asked to retry after " + oneLine(ra, 40) + ".)"
	}
	return msg
}

// oneLine collapses white space and cuts s to at most n bytes, on a rune
// boundary, marking the cut with "…".
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func classify(mt string, data []byte) int {
	switch {
	case len(data) == 0:
		return kindEmpty
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return kindJSON
	case isText(mt):
		return kindText
	case mt == "":
		if json.Valid(data) {
			return kindJSON
		}
		if utf8.Valid(data) {
			return kindText
		}
	}
	return kindMedia
}

func isText(mt string) bool {
	if strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") || strings.HasSuffix(mt, "+yaml") {
		return true
	}
	switch mt {
	case "application/xml", "application/yaml", "application/x-yaml", "application/javascript",
		"application/x-www-form-urlencoded", "application/x-ndjson", "application/jsonl",
		"application/graphql", "application/sql", "application/csv":
		return true
	}
	return false
}

// decodeText returns the body as UTF-8: ISO-8859-1 is converted, other
// invalid bytes become U+FFFD.
func decodeText(data []byte, charset string) string {
	if utf8.Valid(data) {
		return string(data)
	}
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
		var sb strings.Builder
		sb.Grow(len(data) * 2)
		for _, c := range data {
			sb.WriteRune(rune(c))
		}
		return sb.String()
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}

// compactText is a JSON answer as text: as it came when it is on one line,
// else compacted (pretty-printed answers spend the model's tokens on white
// space).
func compactText(data string) string {
	if strings.IndexByte(data, '\n') < 0 {
		return data
	}
	text, _ := compactJSON(data)
	return text
}

// compactJSON is compactText for an answer not yet checked: ok is false,
// and data comes back as it is, when data is not valid JSON. An answer
// whose only line feeds are around the value (as json.Encoder ends every
// value with one) is trimmed instead of copied through json.Compact.
func compactJSON(data string) (text string, ok bool) {
	valid, loose := scanJSON(data)
	switch {
	case !valid:
		return data, false
	case strings.IndexByte(data, '\n') < 0:
		return data, true
	case !loose:
		return strings.Trim(data, " \t\r\n"), true
	}
	var buf bytes.Buffer
	buf.Grow(len(data))
	if json.Compact(&buf, []byte(data)) != nil {
		return data, false
	}
	return buf.String(), true
}

// commonHeaders maps frequent canonical header names to lower case
// without allocating.
var commonHeaders = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{
		"Content-Type", "Content-Length", "Date", "Server", "Etag", "Last-Modified",
		"Cache-Control", "Expires", "Vary", "Connection", "Keep-Alive", "Transfer-Encoding",
		"Content-Encoding", "Location", "Retry-After", "Set-Cookie", "Link", "Age",
		"Access-Control-Allow-Origin", "Strict-Transport-Security", "X-Request-Id",
		"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset",
	} {
		m[n] = strings.ToLower(n)
	}
	return m
}()

func lowerName(k string) string {
	if l, ok := commonHeaders[k]; ok {
		return l
	}
	return strings.ToLower(k)
}
