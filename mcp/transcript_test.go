package mcp

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the -- server -- sections of testdata/transcripts")

// TestTranscripts replays raw JSON-RPC transcripts over stdio and over HTTP.
// Each archive has a `-- client --` file (one message per line; blank lines
// and #-comments ignored) and a `-- server --` file with every message the
// server must send, in order, normalized (sorted keys). Both transports must
// produce the same transcript; every message is schema-checked.
func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/transcripts/*.txtar")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := parseTxtar(data)
			client := section(ar, "client")
			stdio := runTranscriptStdio(t, client)
			web := runTranscriptHTTP(t, client)
			if d := cmp.Diff(withoutPushCapabilities(t, stdio), web); d != "" {
				t.Errorf("stdio and HTTP transcripts differ (-stdio, its initialize without push capabilities, +http):\n%s", d)
			}
			got := strings.Join(stdio, "\n") + "\n"
			if *update {
				setSection(ar, "server", got)
				if err := os.WriteFile(file, formatTxtar(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if d := cmp.Diff(string(section(ar, "server")), got); d != "" {
				t.Errorf("server transcript mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// archive is the txtar format (a comment, then `-- name --` files). A few
// lines of our own keep the transcripts independent of go.mod churn in
// golang.org/x/tools, which rogpeppe/go-internal/txtar now wraps.
type archive struct {
	Comment []byte
	Files   []archiveFile
}

type archiveFile struct {
	Name string
	Data []byte
}

func parseTxtar(data []byte) *archive {
	ar := &archive{}
	cur := &ar.Comment
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		if name, ok := strings.CutPrefix(trimmed, "-- "); ok && strings.HasSuffix(name, " --") {
			ar.Files = append(ar.Files, archiveFile{Name: strings.TrimSuffix(name, " --")})
			cur = &ar.Files[len(ar.Files)-1].Data
			continue
		}
		*cur = append(*cur, line...)
	}
	return ar
}

func formatTxtar(ar *archive) []byte {
	out := append([]byte(nil), ar.Comment...)
	for _, f := range ar.Files {
		out = append(out, "-- "+f.Name+" --\n"...)
		out = append(out, f.Data...)
	}
	return out
}

func section(ar *archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func setSection(ar *archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, archiveFile{Name: name, Data: []byte(data)})
}

// clientLine is one client message plus what the runner needs to know.
type clientLine struct {
	raw      string
	id       json.RawMessage
	method   string
	modernV  string // _meta protocolVersion, if any
	name     string // params.name or params.uri
	isSimple bool   // a notification or response: nothing to wait for
}

func clientLines(t *testing.T, data []byte) []clientLine {
	var out []clientLine
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		l = expand(l)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
				Meta struct {
					V string `json:"io.modelcontextprotocol/protocolVersion"`
				} `json:"_meta"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(l), &m)
		out = append(out, clientLine{raw: l, id: m.ID, method: m.Method, modernV: m.Params.Meta.V,
			name: m.Params.Name + m.Params.URI, isSimple: m.ID == nil || m.Method == ""})
	}
	return out
}

// normalize re-encodes a message with sorted keys so goldens are stable.
func normalize(t *testing.T, b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("server sent invalid JSON %s: %v", b, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(buf.String())
}

// withoutPushCapabilities is a stdio transcript as HTTP must answer it: a
// signed 2025 session lives for one request, so its initialize result
// promises no list_changed and no resources/updated; nothing else differs.
func withoutPushCapabilities(t *testing.T, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		res, _ := m["result"].(map[string]any)
		caps, _ := res["capabilities"].(map[string]any)
		if _, ok := res["protocolVersion"]; !ok || caps == nil {
			out[i] = l
			continue
		}
		for _, kind := range []string{"tools", "prompts", "resources"} {
			if c, ok := caps[kind].(map[string]any); ok {
				delete(c, "listChanged")
				delete(c, "subscribe")
			}
		}
		b, _ := json.Marshal(m)
		out[i] = normalize(t, b)
	}
	return out
}

// revTracker knows which revision each request is served under, like a
// client does: _meta for modern, the negotiated version for legacy.
type revTracker struct{ legacy string }

func (r *revTracker) rev(l clientLine) string {
	if l.modernV != "" {
		return l.modernV
	}
	if l.method == "server/discover" || l.method == "subscriptions/listen" || r.legacy == "" && l.method == "" {
		return ""
	}
	if r.legacy == "" {
		return Version20250326
	}
	return r.legacy
}

func (r *revTracker) observe(l clientLine, msg []byte) {
	if l.method == "initialize" && l.modernV == "" {
		var m struct {
			Result struct {
				V string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Result.V != "" {
			r.legacy = m.Result.V
		}
	}
}

func runTranscriptStdio(t *testing.T, data []byte) []string {
	s, _ := newTestServer(&Options{PageSize: 2})
	c := startStdio(t, s)
	var rt revTracker
	var out []string
	for _, l := range clientLines(t, data) {
		c.send(l.raw)
		if l.isSimple && !strings.HasPrefix(l.raw, "[") && json.Valid([]byte(l.raw)) {
			continue
		}
		for { // read until the response to this line
			b := <-c.lines
			checkSent(t, rt.rev(l), l.method, b)
			rt.observe(l, b)
			out = append(out, normalize(t, b))
			var m resp
			_ = json.Unmarshal(b, &m)
			if m.Method == "" {
				break
			}
		}
	}
	for _, b := range c.closeAndDrain() {
		out = append(out, normalize(t, []byte(b)))
	}
	return out
}

func runTranscriptHTTP(t *testing.T, data []byte) []string {
	s, _ := newTestServer(&Options{PageSize: 2})
	h := s.HTTPHandler(nil)
	var rt revTracker
	var out []string
	for _, l := range clientLines(t, data) {
		hd := http.Header{}
		switch {
		case l.modernV != "":
			hd = hdr(HeaderProtocolVersion, l.modernV, HeaderMethod, l.method)
			if nameRequired[l.method] {
				hd.Set(HeaderName, l.name)
			}
		case rt.legacy != "" && rt.legacy != Version20250326:
			hd.Set(HeaderProtocolVersion, rt.legacy)
		}
		rec := doHTTP(t, h, "POST", hd, l.raw)
		for _, b := range messages(t, rec.Header().Get("Content-Type"), rec.Body.Bytes()) {
			checkSent(t, rt.rev(l), l.method, b)
			rt.observe(l, b)
			out = append(out, normalize(t, b))
		}
	}
	return out
}
