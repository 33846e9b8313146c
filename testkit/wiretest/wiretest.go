// Package wiretest checks what an MCP server sends, for tests: the official
// schemas of each revision (JSON Schema files, one folder per revision),
// and taps that see every message a server sends over HTTP or stdio and
// validate it against the schema of the revision its request spoke.
// It is imported by tests only.
package wiretest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// specDir finds the official schemas vendored in the repository's
// testdata, located from this file, so that every test package that
// imports wiretest finds them wherever it runs.
func specDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "mcp-spec")
}

var schemas struct {
	once sync.Once
	err  error
	c    map[string]*jsonschema.Compiler
	mu   sync.Mutex
	sch  map[string]*jsonschema.Schema
}

func loadSchemas() error {
	schemas.once.Do(func() {
		schemas.c = map[string]*jsonschema.Compiler{}
		schemas.sch = map[string]*jsonschema.Schema{}
		for _, rev := range mcp.KnownVersions() {
			f, err := os.Open(filepath.Join(specDir(), rev, "schema.json"))
			if err != nil {
				schemas.err = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(f)
			f.Close()
			if err != nil {
				schemas.err = fmt.Errorf("%s: %w", rev, err)
				return
			}
			c := jsonschema.NewCompiler()
			// The library's uri-template check parses the template as a URL
			// and so rejects RFC 6570 templates with a variable in the host
			// ("greet://{name}"); check the RFC's grammar instead.
			c.RegisterFormat(&jsonschema.Format{Name: "uri-template", Validate: func(v any) error {
				s, ok := v.(string)
				if !ok {
					return nil
				}
				_, err := uritemplate.New(s)
				return err
			}})
			if err := c.AddResource("mcp://"+rev+"/schema.json", doc); err != nil {
				schemas.err = err
				return
			}
			schemas.c[rev] = c
		}
	})
	return schemas.err
}

// RequireSchemas loads the schemas, failing the test when the vendored
// folder is missing (it is part of the repository).
func RequireSchemas(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(specDir()); err != nil {
		t.Fatalf("official MCP schemas not found at %s (%v)", specDir(), err)
	}
	if err := loadSchemas(); err != nil {
		t.Fatalf("loading schemas: %v", err)
	}
}

func schemaFor(rev, def string) (*jsonschema.Schema, error) {
	if err := loadSchemas(); err != nil {
		return nil, err
	}
	defs := "$defs"
	if rev == mcp.Version20250326 || rev == mcp.Version20250618 {
		defs = "definitions"
	}
	key := rev + "#" + def
	schemas.mu.Lock()
	defer schemas.mu.Unlock()
	if s := schemas.sch[key]; s != nil {
		return s, nil
	}
	c := schemas.c[rev]
	if c == nil {
		return nil, fmt.Errorf("no schema for revision %q", rev)
	}
	s, err := c.Compile("mcp://" + rev + "/schema.json#/" + defs + "/" + def)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", key, err)
	}
	schemas.sch[key] = s
	return s, nil
}

func validateAgainst(rev, def string, v []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(v))
	if err != nil {
		return fmt.Errorf("%s: not JSON: %v\n%s", def, err, v)
	}
	s, err := schemaFor(rev, def)
	if err != nil {
		return err
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s %s: schema violation: %v\nmessage: %s", rev, def, err, v)
	}
	return nil
}

// resultDefs maps a request method to its result definition.
var resultDefs = map[string]string{
	"server/discover": "DiscoverResult", "initialize": "InitializeResult",
	"tools/list": "ListToolsResult", "tools/call": "CallToolResult",
	"resources/list": "ListResourcesResult", "resources/templates/list": "ListResourceTemplatesResult",
	"resources/read": "ReadResourceResult", "prompts/list": "ListPromptsResult",
	"prompts/get": "GetPromptResult", "completion/complete": "CompleteResult",
	"ping": "EmptyResult", "logging/setLevel": "EmptyResult",
	"resources/subscribe": "EmptyResult", "resources/unsubscribe": "EmptyResult",
	"subscriptions/listen": "SubscriptionsListenResult",
}

// legacyTaskDefs are the result definitions of 2025-11-25's tasks methods.
var legacyTaskDefs = map[string]string{
	"tasks/get": "GetTaskResult", "tasks/cancel": "CancelTaskResult",
	"tasks/list": "ListTasksResult", "tasks/result": "CallToolResult",
}

// modernErrorDefs maps codes to the typed error definitions of 2026-07-28.
var modernErrorDefs = map[int]string{
	mcp.CodeParseError: "ParseError", mcp.CodeInvalidRequest: "InvalidRequestError",
	mcp.CodeMethodNotFound: "MethodNotFoundError", mcp.CodeInvalidParams: "InvalidParamsError",
	mcp.CodeInternalError: "InternalError", mcp.CodeHeaderMismatch: "HeaderMismatchError",
	mcp.CodeMissingRequiredClientCapability: "MissingRequiredClientCapabilityError",
	mcp.CodeUnsupportedProtocolVersion:      "UnsupportedProtocolVersionError",
}

// wholeMessageErrors are 2026-07-28 error definitions of a whole response.
var wholeMessageErrors = map[string]bool{
	"UnsupportedProtocolVersionError": true, "HeaderMismatchError": true,
	"MissingRequiredClientCapabilityError": true,
}

// CheckSent validates one message the server sent in answer to (or during)
// a request of method, served under revision rev, and returns every
// problem: the whole message against JSONRPCMessage, results against the
// method's definition, notifications against ServerNotification, modern
// errors against their typed definitions; legacy results must carry no
// modern field.
func CheckSent(rev, method string, msg []byte) []error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if mcp.IsBatch(msg) {
		add(validateAgainst(mcp.Version20250326, "JSONRPCMessage", msg))
		var elems []json.RawMessage
		_ = json.Unmarshal(msg, &elems)
		for _, e := range elems {
			errs = append(errs, CheckSent(mcp.Version20250326, "", e)...)
		}
		return errs
	}
	var m struct {
		ID     json.RawMessage            `json:"id"`
		Method string                     `json:"method"`
		Result map[string]json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	var raw struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(msg, &raw)
	if err := json.Unmarshal(msg, &m); err != nil {
		return []error{fmt.Errorf("server sent non-JSON: %v\n%s", err, msg)}
	}
	era := mcp.VersionEra(rev)
	if era == mcp.EraUnknown || (m.Error != nil && m.ID == nil && era == mcp.EraLegacy && rev != mcp.Version20251125) {
		rev = mcp.Version20260728 // id-less errors only validate where id is optional
		era = mcp.EraModern
	}
	add(validateAgainst(rev, "JSONRPCMessage", msg))
	switch {
	case m.Method == "notifications/tasks" && era == mcp.EraModern:
		// The tasks extension's notification is not in the revision's
		// schema; the tests assert its fields.
	case m.Method != "" && m.ID == nil:
		add(validateAgainst(rev, "ServerNotification", msg))
	case m.Method != "":
		add(validateAgainst(rev, "ServerRequest", msg))
	case m.Error != nil:
		if era == mcp.EraModern {
			def := modernErrorDefs[m.Error.Code]
			switch {
			case def == "":
				add(fmt.Errorf("modern error with unexpected code %d: %s", m.Error.Code, msg))
			case wholeMessageErrors[def]:
				add(validateAgainst(rev, def, msg))
			default:
				add(validateAgainst(rev, def, raw.Error))
			}
		}
	case m.Result != nil:
		def := resultDefs[method]
		if era == mcp.EraLegacy && legacyTaskDefs[method] != "" {
			def = legacyTaskDefs[method]
		}
		if method == "tools/call" && m.Result["task"] != nil && era == mcp.EraLegacy {
			def = "CreateTaskResult"
		}
		if era == mcp.EraModern && (string(m.Result["resultType"]) == `"task"` || strings.HasPrefix(method, "tasks/")) {
			// The tasks extension's shapes are not part of the revision's
			// schema; the tests assert them field by field.
			def = ""
		}
		res, _ := json.Marshal(m.Result)
		if string(m.Result["resultType"]) == `"input_required"` {
			def = "InputRequiredResult"
		}
		if def != "" {
			add(validateAgainst(rev, def, res))
		}
		if era == mcp.EraLegacy {
			for _, k := range []string{`"resultType"`, `"ttlMs"`, `"cacheScope"`, mcp.MetaServerInfo} {
				if strings.Contains(string(res), k) {
					add(fmt.Errorf("legacy (%s) %s result carries modern field %s: %s", rev, method, k, res))
				}
			}
		}
	}
	return errs
}

// Log collects what a tap saw: every server message with the revision
// it was validated under, and every problem found.
type Log struct {
	inflight sync.WaitGroup // HTTP exchanges still being recorded
	mu       sync.Mutex
	problems []error
	seen     map[string]int // "rev method" → messages checked
	msgs     []SentMessage
}

// SentMessage is one server message with the request it answered.
type SentMessage struct {
	Rev, Method string
	Body        json.RawMessage
}

func (l *Log) Record(rev, method string, msg []byte) {
	errs := CheckSent(rev, method, msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string]int{}
	}
	l.seen[rev+" "+method]++
	l.problems = append(l.problems, errs...)
	l.msgs = append(l.msgs, SentMessage{rev, method, append(json.RawMessage(nil), msg...)})
}

func (l *Log) Begin() { l.inflight.Add(1) }
func (l *Log) End()   { l.inflight.Done() }

// Verify reports the problems and asserts that messages of every wanted
// "rev method" pair were seen, so a test cannot pass by checking nothing.
func (l *Log) Verify(t *testing.T, want ...string) {
	t.Helper()
	// A client may read a response before the tap has recorded it.
	done := make(chan struct{})
	go func() { l.inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Error("HTTP exchanges still open after 10s; their messages are not checked")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, err := range l.problems {
		t.Error(err)
	}
	for _, w := range want {
		if l.seen[w] == 0 {
			t.Errorf("no server message checked for %q; saw %v", w, l.seen)
		}
	}
}

// All returns every message seen, in order.
func (l *Log) All() []SentMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]SentMessage(nil), l.msgs...)
}

// Messages returns the messages sent for method under rev.
func (l *Log) Messages(rev, method string) []json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []json.RawMessage
	for _, m := range l.msgs {
		if m.Rev == rev && m.Method == method {
			out = append(out, m.Body)
		}
	}
	return out
}

// clientMsg is what the taps read from a client message.
type clientMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
		Meta            struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

// serverMsg is what the taps read from a server message.
type serverMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	} `json:"params"`
	Result struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"result"`
}

// HTTPTap wraps an MCP HTTP handler and validates every message it sends:
// JSON bodies and every SSE event, under the revision of the request (its
// _meta claim, else its MCP-Protocol-Version header, else 2025-03-26).
type HTTPTap struct {
	Next http.Handler
	Log  *Log
}

func (h *HTTPTap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.Log.Begin()
	defer h.Log.End()
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	var cm clientMsg
	_ = json.Unmarshal(body, &cm)
	rev := cm.Params.Meta.ProtocolVersion
	if rev == "" {
		rev = r.Header.Get("MCP-Protocol-Version")
	}
	if rev == "" && cm.Method == "initialize" {
		rev = cm.Params.ProtocolVersion
	}
	if rev == "" {
		rev = mcp.Version20250326
	}
	rec := &recorder{ResponseWriter: w}
	h.Next.ServeHTTP(rec, r)
	if r.Method != http.MethodPost || len(rec.buf.Bytes()) == 0 {
		return
	}
	for _, msg := range SplitHTTPMessages(rec.Header().Get("Content-Type"), rec.buf.Bytes()) {
		msgRev, method := rev, cm.Method
		var sm serverMsg
		_ = json.Unmarshal(msg, &sm)
		if cm.Method == "initialize" && sm.Result.ProtocolVersion != "" {
			msgRev = sm.Result.ProtocolVersion
		}
		if sm.Method != "" { // a notification on the request's stream
			method = sm.Method
		}
		h.Log.Record(msgRev, method, msg)
	}
}

// recorder copies a response body while passing it through (and flushing
// it, so SSE streams stay live).
type recorder struct {
	http.ResponseWriter
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.mu.Lock()
	r.buf.Write(b)
	r.mu.Unlock()
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// SplitHTTPMessages returns the JSON-RPC messages of a response body: the
// body itself, or the data of each SSE event.
func SplitHTTPMessages(contentType string, body []byte) [][]byte {
	if !strings.HasPrefix(contentType, "text/event-stream") {
		return [][]byte{bytes.TrimSpace(body)}
	}
	var out [][]byte
	for _, ev := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		var data []string
		for _, line := range strings.Split(ev, "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(d, " "))
			}
		}
		if len(data) > 0 && strings.TrimSpace(strings.Join(data, "")) != "" {
			out = append(out, []byte(strings.Join(data, "\n")))
		}
	}
	return out
}

// StdioTap sits on both directions of a stdio connection: it remembers the
// method and revision of each client request and validates every line the
// server writes under that revision. Notifications are validated under the
// modern revision when they carry a subscriptionId, else under the legacy
// revision the session negotiated.
type StdioTap struct {
	log    *Log
	mu     sync.Mutex
	reqs   map[string]clientMsg
	legacy string // negotiated by initialize
}

func NewStdioTap(log *Log) *StdioTap {
	return &StdioTap{log: log, reqs: map[string]clientMsg{}, legacy: mcp.Version20251125}
}

// clientWriter wraps the pipe to the server's stdin.
func (s *StdioTap) ClientWriter(w io.WriteCloser) io.WriteCloser {
	return &lineTap{w: w, line: s.fromClient}
}

// serverReader wraps the pipe from the server's stdout.
func (s *StdioTap) ServerReader(r io.ReadCloser) io.ReadCloser {
	return &lineTap{r: r, line: s.fromServer}
}

func (s *StdioTap) fromClient(line []byte) {
	var cm clientMsg
	if json.Unmarshal(line, &cm) != nil || cm.ID == nil || cm.Method == "" {
		return
	}
	s.mu.Lock()
	s.reqs[string(cm.ID)] = cm
	s.mu.Unlock()
}

func (s *StdioTap) fromServer(line []byte) {
	var sm serverMsg
	if err := json.Unmarshal(line, &sm); err != nil {
		s.log.Record(mcp.Version20260728, "", line) // reports the non-JSON line
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sm.Method != "" { // a notification or request from the server
		rev := s.legacy
		if _, ok := sm.Params.Meta[mcp.MetaSubscriptionID]; ok {
			rev = mcp.Version20260728
		}
		s.log.Record(rev, sm.Method, line)
		return
	}
	cm, ok := s.reqs[string(sm.ID)]
	if !ok {
		s.log.Record(mcp.Version20260728, "", line)
		return
	}
	delete(s.reqs, string(sm.ID))
	rev := cm.Params.Meta.ProtocolVersion
	switch {
	case rev != "":
	case cm.Method == "initialize" && sm.Result.ProtocolVersion != "":
		rev = sm.Result.ProtocolVersion
		s.legacy = rev
	case cm.Method == "initialize":
		rev = cm.Params.ProtocolVersion
	default:
		rev = s.legacy
	}
	s.log.Record(rev, cm.Method, line)
}

// lineTap passes bytes through in either direction and calls line for every
// complete newline-terminated line.
type lineTap struct {
	r    io.ReadCloser
	w    io.WriteCloser
	mu   sync.Mutex
	buf  []byte
	line func([]byte)
}

func (l *lineTap) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.feed(p[:n])
	return n, err
}

func (l *lineTap) Write(p []byte) (int, error) {
	l.feed(p)
	return l.w.Write(p)
}

func (l *lineTap) feed(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return
		}
		line := bytes.TrimSpace(l.buf[:i])
		l.buf = l.buf[i+1:]
		if len(line) > 0 {
			l.line(append([]byte(nil), line...))
		}
	}
}

func (l *lineTap) Close() error {
	if l.r != nil {
		return l.r.Close()
	}
	return l.w.Close()
}
