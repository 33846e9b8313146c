package mcp

import (
	"encoding/json"
	"sync"

	"github.com/mcpdecl/mcpdecl/internal/jsonenc"
)

// appender is a payload that writes its own JSON. encoding/json would
// validate and re-compact every pre-encoded part (structured content and
// each content block) and escape text through reflection; a tool result
// is the largest message a server sends, so it is written directly.
type appender interface {
	appendJSON(dst []byte) ([]byte, error)
}

// encodePayload is json.Marshal for result payloads, direct for the ones
// that write themselves. Those are written into a reused buffer (buf),
// valid until releaseScratch; the caller copies what it keeps.
func encodePayload(payload any) (b []byte, buf *[]byte, err error) {
	a, ok := payload.(appender)
	if !ok {
		b, err = json.Marshal(payload)
		return b, nil, err
	}
	buf = scratch.Get().(*[]byte)
	b, err = a.appendJSON((*buf)[:0])
	return b, buf, err
}

// releaseScratch gives back a buffer of encodePayload (nil: none), b being
// what was written into it.
func releaseScratch(buf *[]byte, b []byte) {
	if buf != nil && cap(b) <= maxScratch {
		*buf = b[:0]
		scratch.Put(buf)
	}
}

// maxScratch bounds the buffers kept for reuse.
const maxScratch = 1 << 20

var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// appendJSON writes the result as encoding/json would. StructuredContent
// is written as it is: it must be valid, compact JSON.
func (r *CallToolResult) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"content":`...)
	if r.Content == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range r.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = r.Content[i].appendJSON(dst); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	}
	if len(r.StructuredContent) > 0 {
		dst = append(dst, `,"structuredContent":`...)
		dst = append(dst, r.StructuredContent...)
	}
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}'), nil
}

// appendJSON writes a text block directly and any other kind through its
// MarshalJSON.
func (c *ContentBlock) appendJSON(dst []byte) ([]byte, error) {
	if c.Type != ContentText || c.Annotations != nil || len(c.Meta) > 0 {
		b, err := json.Marshal(c)
		return append(dst, b...), err
	}
	dst = append(dst, `{"type":"text","text":`...)
	dst = jsonenc.AppendString(dst, c.Text)
	return append(dst, '}'), nil
}
