package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The reference decoder is the encoding/json one DecodeMessage replaced:
// the body decoded into a struct, then params decoded again into the
// params struct. DecodeMessage must give the same message, params and
// errors for every input.

type refWireMessage struct {
	JSONRPC string `json:"jsonrpc"`
	ID      rawRef `json:"id,omitempty"`
	Method  string `json:"method,omitempty"`
	Params  rawRef `json:"params,omitempty"`
	Result  rawRef `json:"result,omitempty"`
	Error   rawRef `json:"error,omitempty"`
}

func refDecodeMessage(b []byte) (*Message, json.RawMessage, *Error) {
	var w refWireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		if !json.Valid(b) {
			return nil, nil, ladderErr(CodeParseError, "parse error: body is not valid JSON")
		}
		if IsBatch(b) {
			return nil, nil, ladderErr(CodeInvalidRequest, "invalid request: JSON-RPC batches are not accepted here")
		}
		return nil, nil, ladderErr(CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
	}
	m := &Message{JSONRPC: w.JSONRPC, ID: json.RawMessage(w.ID), Method: w.Method,
		Params: json.RawMessage(w.Params), Result: json.RawMessage(w.Result), Error: json.RawMessage(w.Error)}
	id := m.ID
	if id != nil && !refValidID(id) {
		return nil, nil, ladderErr(CodeInvalidRequest, "invalid request: id must be a string or an integer")
	}
	if m.JSONRPC != "2.0" {
		return nil, id, ladderErr(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if m.Method == "" {
		if id == nil || (m.Result == nil) == (m.Error == nil) {
			return nil, id, ladderErr(CodeInvalidRequest, "invalid request: missing method")
		}
		return m, id, nil
	}
	if m.Result != nil || m.Error != nil {
		return nil, id, ladderErr(CodeInvalidRequest, "invalid request: a request cannot carry result or error")
	}
	if m.Params != nil && firstByte(m.Params) != '{' {
		return nil, id, ladderErr(CodeInvalidRequest, "invalid request: params must be an object")
	}
	return m, id, nil
}

func refValidID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		var s string
		return json.Unmarshal(id, &s) == nil
	}
	_, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil
}

func refDecodeParams(raw json.RawMessage, p *params) *Error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		var onlyMeta struct {
			Meta *requestMeta `json:"_meta"`
		}
		_ = json.Unmarshal(raw, &onlyMeta)
		*p = params{Meta: onlyMeta.Meta}
		return InvalidParams("invalid params: %v", err)
	}
	return nil
}

// decodeMismatch compares DecodeMessage with the reference on one body and
// describes the first difference ("" when they agree).
func decodeMismatch(body []byte) string {
	in := append([]byte(nil), body...)
	m, id, e := DecodeMessage(in)
	rm, rid, re := refDecodeMessage(body)
	if !bytes.Equal(in, body) {
		return "DecodeMessage changed its input"
	}
	if d := errDiff(e, re); d != "" {
		return d
	}
	if !rawEqual(id, rid) {
		return fmt.Sprintf("id %q, reference %q", id, rid)
	}
	if (m == nil) != (rm == nil) {
		return fmt.Sprintf("message %v, reference %v", m, rm)
	}
	if m == nil {
		return ""
	}
	if m.JSONRPC != rm.JSONRPC || m.Method != rm.Method {
		return fmt.Sprintf("jsonrpc/method %q %q, reference %q %q", m.JSONRPC, m.Method, rm.JSONRPC, rm.Method)
	}
	for _, f := range [][3]any{{"id", m.ID, rm.ID}, {"params", m.Params, rm.Params}, {"result", m.Result, rm.Result}, {"error", m.Error, rm.Error}} {
		if !rawEqual(f[1].(json.RawMessage), f[2].(json.RawMessage)) {
			return fmt.Sprintf("%s %q, reference %q", f[0], f[1], f[2])
		}
	}
	if m.IsResponse() {
		return ""
	}
	if !m.paramsRead {
		return "params of a request left unread"
	}
	var rp params
	rperr := refDecodeParams(rm.Params, &rp)
	if d := errDiff(m.paramsErr, rperr); d != "" {
		return "params: " + d
	}
	if !paramsEqual(&m.params, &rp) {
		return fmt.Sprintf("params %s, reference %s", dumpParams(&m.params), dumpParams(&rp))
	}
	if mt := m.params.Meta; mt != nil && firstByte(mt.ClientCapabilities) == '{' {
		if d := capsMismatch(mt.ClientCapabilities); d != "" {
			return d
		}
	}
	if mt := m.params.Meta; mt != nil && mt.LogLevel != nil {
		var lvl string
		rok := json.Unmarshal(mt.LogLevel, &lvl) == nil && validLogLevel(lvl)
		if got, e := mt.parseLogLevel(); (e == nil) != rok || rok && got != lvl {
			return fmt.Sprintf("log level %q %v, reference %q %v", got, e, lvl, rok)
		}
	}
	return argsMismatch(m.params.Arguments)
}

// capsMismatch compares decodeClientCaps with encoding/json.
func capsMismatch(raw []byte) string {
	var caps, rcaps ClientCapabilities
	ok := decodeClientCaps(raw, &caps)
	rok := json.Unmarshal(raw, &rcaps) == nil
	if ok != rok || ok && !reflect.DeepEqual(caps, rcaps) {
		return fmt.Sprintf("client capabilities %v %+v, reference %v %+v", ok, caps, rok, rcaps)
	}
	return ""
}

// argsMismatch compares objectMember with a map decoded by encoding/json.
func argsMismatch(args []byte) string {
	if len(args) == 0 {
		return ""
	}
	var argv map[string]rawRef
	_ = json.Unmarshal(args, &argv)
	for k, v := range argv {
		if got, found := objectMember(args, k); !found || !bytes.Equal(got, v) {
			return fmt.Sprintf("argument %q: %q %v, reference %q", k, got, found, v)
		}
	}
	if got, found := objectMember(args, "\x00absent"); found {
		return fmt.Sprintf("absent argument found: %q", got)
	}
	return ""
}

func errDiff(e, re *Error) string {
	switch {
	case e == nil && re == nil:
		return ""
	case e == nil || re == nil:
		return fmt.Sprintf("error %v, reference %v", e, re)
	case e.Code != re.Code || e.Message != re.Message || e.ladder != re.ladder || !reflect.DeepEqual(e.Data, re.Data):
		return fmt.Sprintf("error %+v, reference %+v", *e, *re)
	}
	return ""
}

// rawEqual compares raw values, absent (nil) differing from present.
func rawEqual(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

func paramsEqual(a, b *params) bool {
	if (a.Meta == nil) != (b.Meta == nil) || (a.Cursor == nil) != (b.Cursor == nil) {
		return false
	}
	if a.Meta != nil && !(rawEqual(a.Meta.ProtocolVersion, b.Meta.ProtocolVersion) &&
		rawEqual(a.Meta.ClientCapabilities, b.Meta.ClientCapabilities) && rawEqual(a.Meta.ClientInfo, b.Meta.ClientInfo) &&
		rawEqual(a.Meta.LogLevel, b.Meta.LogLevel) && rawEqual(a.Meta.ProgressToken, b.Meta.ProgressToken)) {
		return false
	}
	if a.Cursor != nil && *a.Cursor != *b.Cursor {
		return false
	}
	return a.Name == b.Name && a.URI == b.URI && a.RequestState == b.RequestState && a.Level == b.Level &&
		a.ProtocolVersion == b.ProtocolVersion && rawEqual(a.Arguments, b.Arguments) &&
		rawEqual(a.Notifications, b.Notifications) && rawEqual(a.InputResponses, b.InputResponses) &&
		rawEqual(a.RequestID, b.RequestID) && rawEqual(a.Capabilities, b.Capabilities) && rawEqual(a.ClientInfo, b.ClientInfo)
}

func dumpParams(p *params) string {
	s := fmt.Sprintf("%+v", *p)
	if p.Meta != nil {
		s += fmt.Sprintf(" meta=%+v", *p.Meta)
	}
	if p.Cursor != nil {
		s += fmt.Sprintf(" cursor=%q", *p.Cursor)
	}
	return s
}

// decodeSeeds are bodies on the edges of encoding/json's rules.
var decodeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$META}}`,
	`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$META}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/logLevel":"info","progressToken":"p1"},"inputResponses":{"a":{"action":"accept"}},"requestState":"st"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc","cursor":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":7}}`,
	`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},$META}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{},"error":{}}`,
	`{"jsonrpc":"2.0","id":1,"result":null,"params":5}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`,
	`{"jsonrpc":"2.0","id":1,"method":7}`,
	`{"jsonrpc":"2.0","id":1,"method":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","method":null}`,
	`{"jsonrpc":2,"id":1,"method":"ping"}`,
	`{"JSONRPC":"2.0","ID":1,"Method":"ping","PARAMS":{"NAME":"x","_Meta":{"ProgressToken":3}}}`,
	`{"jſonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToKen":1}}}`,
	`{"\u006asonrpc":"2.0","id":1,"\u006dethod":"tools/call","params":{"n\u0061me":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"a\"b\u00e9\ud83d\ude00"}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\xfe\"}}",
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"\xffname\":\"x\"}}",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1,"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":5,"name":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":[],"name":true}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1},"_meta":null,"_meta":{}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"a":1,"b":"x","a":null,"\u0063":[],"\ud800":2}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":[1]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/logLevel":"in\u0066o"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/logLevel":null}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/logLevel":"debug"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","tracestate":"a=b","traceparent":7}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"TraceParent":"x","tracestate":null}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"sampling":null,"Elicitation":{"form":{}},"experimental":{"a":1,"a":2},"experimental":{"b":null},"extensions":null,"tasks":[1],"other":5}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"experimental":{"a":1},"experimental":null,"extensions":{}}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"experimental":[]}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensionſ":5}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"uri":"b"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1},"params":{"uri":"b"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":[1,2.5e3,-0.1,true,false,null,{"y":"z"}]}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","extra":[1,{"a":"\u0000"}]}`,
	` {"jsonrpc" : "2.0" , "id" : 1 , "method" : "ping" } `,
	`{"jsonrpc":"2.0","id":1,"method":"ping"}x`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"}{}`,
	`{"jsonrpc":"2.0","id":01,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping",}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping\u12"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\tng\"}",
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `[]`, `[`, `null`, `nul`, `"x"`, `1`, `true`, `{}`, ``, ` `, "\x00",
}

func TestDecodeMatchesReference(t *testing.T) {
	bodies := []string{}
	for _, s := range decodeSeeds {
		bodies = append(bodies, expand(s))
	}
	// encoding/json's nesting limit is 10,000, wherever the nesting is.
	for _, n := range []int{9998, 9999, 10000, 10001} {
		bodies = append(bodies, strings.Repeat("[", n)+strings.Repeat("]", n))
		bodies = append(bodies, `{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":`+
			strings.Repeat(`{"a":`, n-2)+"1"+strings.Repeat("}", n-2)+"}}")
		bodies = append(bodies, `{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":`+
			strings.Repeat("[", n-3)+strings.Repeat("]", n-3)+"}}}")
	}
	for _, b := range bodies {
		if d := decodeMismatch([]byte(b)); d != "" {
			t.Errorf("%.200q: %s", b, d)
		}
	}
}

// FuzzDecodeMatchesReference holds DecodeMessage to the encoding/json
// decoder it replaced: the same message and params, or the same error.
func FuzzDecodeMatchesReference(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(expand(s))
	}
	f.Fuzz(func(t *testing.T, body string) {
		if d := decodeMismatch([]byte(body)); d != "" {
			t.Fatalf("%q: %s", body, d)
		}
	})
}
