package mcp

import (
	"encoding/json"
	"strconv"
)

// result serializes an era-neutral payload for the request's era. Modern results get resultType, the serverInfo
// _meta and, when cacheable, ttlMs/cacheScope. Legacy results get none of
// them: strict legacy clients reject the modern fields (csharp-sdk #1721).
func (c *call) result(payload any, cacheable bool, hint *CacheHint, handlerMeta json.RawMessage) ([]byte, *Error) {
	b, buf, err := encodePayload(payload)
	defer releaseScratch(buf, b)
	if err != nil {
		return nil, Errorf(CodeInternalError, "encoding result: %v", err)
	}
	return c.wrap(b, buf != nil, cacheable, hint, handlerMeta), nil
}

// wrap is result for an encoded payload b; scratch says b is a reused
// buffer, to be copied.
func (c *call) wrap(b []byte, scratch, cacheable bool, hint *CacheHint, handlerMeta json.RawMessage) []byte {
	if c.req.Era != EraModern {
		if len(handlerMeta) > 0 {
			return splice(b, field("_meta", handlerMeta))
		}
		if scratch {
			return c.endAnswer(append(c.startAnswer(len(b)), b...))
		}
		return b
	}
	meta := resultMeta(handlerMeta, c.s.serverMeta(c.info), nil)
	out := c.startAnswer(len(b) + len(meta) + 96)
	out = append(out, `{"resultType":"complete"`...)
	if cacheable {
		ttl, scope := c.info.CacheTTLMs, c.info.CacheScope
		if hint != nil {
			ttl, scope = hint.TTLMs, hint.Scope
		}
		if scope != "private" {
			scope = "public"
		}
		out = append(out, `,"ttlMs":`...)
		out = strconv.AppendInt(out, max(ttl, 0), 10)
		out = append(out, `,"cacheScope":"`+scope+`"`...)
	}
	out = append(out, `,"_meta":`...)
	out = append(out, meta...)
	if rest := b[1:]; firstByte(rest) != '}' {
		out = append(out, ',')
		return c.endAnswer(append(out, rest...))
	}
	return c.endAnswer(append(out, '}'))
}

// startAnswer begins the complete response around a result of n bytes,
// so that the result is written once instead of being copied again into
// the envelope; endAnswer closes it. Without an id there is no envelope.
func (c *call) startAnswer(n int) []byte {
	id := c.in.msg.ID
	if id == nil {
		return make([]byte, 0, n)
	}
	out := make([]byte, 0, n+len(id)+len(`{"jsonrpc":"2.0","id":,"result":}`))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	return append(out, `,"result":`...)
}

func (c *call) endAnswer(out []byte) []byte {
	if c.in.msg.ID == nil {
		return out
	}
	c.whole = true
	return append(out, '}')
}

func field(name string, v json.RawMessage) []byte {
	b := make([]byte, 0, len(name)+len(v)+3)
	b = strconv.AppendQuote(b, name)
	b = append(b, ':')
	return append(b, v...)
}

// splice inserts pre-encoded `"key":value` members at the start of a JSON
// object. Payload types carry no resultType/ttlMs/cacheScope/_meta members of
// their own, so no key can be duplicated.
func splice(obj []byte, fields ...[]byte) []byte {
	n := len(obj)
	for _, f := range fields {
		n += len(f) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '{')
	for i, f := range fields {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, f...)
	}
	rest := obj[1:] // after '{'
	if firstByte(rest) != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// shapeCallTool applies the per-era rules for tools/call results.
func (c *call) shapeCallTool(r *CallToolResult) ([]byte, *Error) {
	if r.InputRequired != nil {
		return c.inputRequired(r.InputRequired, "tools/call")
	}
	if r.Task != nil {
		return c.createTaskResult(r.Task)
	}
	out := *r
	out.Content = shapeContent(out.Content, c.req)
	if c.req.Era == EraLegacy {
		out.StructuredContent = legacyStructured(&out, c.req.ProtocolVersion)
	}
	// Written directly rather than through result's any, which would
	// move the copy to the heap.
	buf := scratch.Get().(*[]byte)
	b, err := out.appendJSON((*buf)[:0])
	defer releaseScratch(buf, b)
	if err != nil {
		return nil, Errorf(CodeInternalError, "encoding result: %v", err)
	}
	return c.wrap(b, true, false, nil, r.Meta), nil
}

// legacyStructured keeps structuredContent only where the revision has it
// (2025-06-18+) and only as an object. When it must go, a text copy is kept
// so the data still reaches the model (IBM context-forge #6575's policy).
func legacyStructured(r *CallToolResult, version string) json.RawMessage {
	sc := r.StructuredContent
	if len(sc) == 0 || (atLeast(version, Version20250618) && firstByte(sc) == '{') {
		return sc
	}
	for _, b := range r.Content {
		if b.Type == ContentText {
			return nil
		}
	}
	r.Content = append(r.Content, TextContent(string(sc)))
	return nil
}

// inputRequired serializes an MRTR outcome. Modern clients get an
// InputRequiredResult, after checking that every embedded request kind was
// declared in this request's clientCapabilities (-32021 otherwise). Legacy
// clients cannot receive one: tools/call becomes an isError result, the
// others an internal error; handlers wanting legacy elicitation use
// Notifier.Request on sessions that have a back channel.
func (c *call) inputRequired(ir *InputRequired, method string) ([]byte, *Error) {
	if len(ir.InputRequests) == 0 && ir.RequestState == "" {
		return nil, Errorf(CodeInternalError, "handler returned an empty input_required result")
	}
	if c.req.Era != EraModern {
		if method == "tools/call" {
			return c.result(&CallToolResult{IsError: true, Content: []ContentBlock{
				TextContent("this tool needs further input, which this client session cannot provide"),
			}}, false, nil, nil)
		}
		return nil, Errorf(CodeInternalError, "%s needs further input, which this client session cannot provide", method)
	}
	if e := checkInputCaps(ir, c.req.ClientCapabilities); e != nil {
		return nil, e
	}
	b, err := json.Marshal(ir)
	if err != nil {
		return nil, Errorf(CodeInternalError, "encoding input requests: %v", err)
	}
	return splice(b, []byte(`"resultType":"input_required"`),
		field("_meta", c.s.serverMeta(c.info))), nil
}

// checkInputCaps enforces "send only request kinds the client declared".
func checkInputCaps(ir *InputRequired, caps ClientCapabilities) *Error {
	var need ClientCapabilities
	missing := false
	for _, r := range ir.InputRequests {
		switch r.Method {
		case "elicitation/create":
			if caps.Elicitation == nil {
				need.Elicitation, missing = json.RawMessage("{}"), true
			}
		case "sampling/createMessage":
			if caps.Sampling == nil {
				need.Sampling, missing = json.RawMessage("{}"), true
			}
		case "roots/list":
			if caps.Roots == nil {
				need.Roots, missing = json.RawMessage("{}"), true
			}
		}
	}
	if missing {
		return MissingClientCapability(need)
	}
	return nil
}

// shapeError applies per-era error rules. Modern never carries -32002 or
// -32042 (retired) nor an undefined code in the reserved -32020…-32099 range
// (retired or reserved codes); a legacy -32002 is kept as is. The caller's error is
// never mutated, since handlers may return shared values.
func shapeError(e *Error, era Era) *Error {
	if era != EraModern {
		return e
	}
	switch {
	case e.Code == CodeResourceNotFound || e.Code == -32042:
		c := *e
		c.Code = CodeInvalidParams
		return &c
	case e.Code <= -32020 && e.Code >= -32099 && e.Code != CodeHeaderMismatch &&
		e.Code != CodeMissingRequiredClientCapability && e.Code != CodeUnsupportedProtocolVersion:
		c := *e
		c.Code = CodeInternalError
		return &c
	}
	return e
}

// serverMeta returns the pre-encoded {"io.modelcontextprotocol/serverInfo":…}
// object, re-encoded only when the handler hands out a new ServerInfo.
func (s *Server) serverMeta(info *ServerInfo) json.RawMessage {
	if c := s.metaCache.Load(); c != nil && c.info == info {
		return c.meta
	}
	b, _ := json.Marshal(map[string]Implementation{MetaServerInfo: info.Implementation})
	s.metaCache.Store(&metaEntry{info: info, meta: b})
	return b
}

// metaEntry caches serverMeta for one ServerInfo pointer.
type metaEntry struct {
	info *ServerInfo
	meta json.RawMessage
}
