package mcp

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
)

// DefaultPageSize is the number of list items per page when Options.PageSize
// is zero.
const DefaultPageSize = 100

// cursorPrefix versions the cursor format. Cursors are opaque to clients,
// base64url so that they survive any transport unescaped.
const cursorPrefix = "mcpdecl.v2:"

// A cursor is bound to its list: the method it came from and a hash of the
// list's names in order. A cursor of another list, or of this list before
// a reload changed it, would silently skip or repeat items, so both are
// refused with -32602 and the client lists again from the start.
type cursor struct {
	list    string // the list method, e.g. "tools/list"
	version uint64 // listVersion of the list the cursor was cut from
	offset  int
}

func encodeCursor(c cursor) string {
	b := make([]byte, 0, len(cursorPrefix)+len(c.list)+32)
	b = append(b, cursorPrefix...)
	b = append(b, c.list...)
	b = append(b, ':')
	b = strconv.AppendUint(b, c.version, 36)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(c.offset), 10)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, false
	}
	rest, ok := strings.CutPrefix(string(b), cursorPrefix)
	if !ok {
		return cursor{}, false
	}
	i, j := strings.IndexByte(rest, ':'), strings.LastIndexByte(rest, ':')
	if i <= 0 || j <= i {
		return cursor{}, false
	}
	v, err1 := strconv.ParseUint(rest[i+1:j], 36, 64)
	n, err2 := strconv.Atoi(rest[j+1:])
	return cursor{list: rest[:i], version: v, offset: n}, err1 == nil && err2 == nil && n > 0
}

// listVersion hashes the keys of a list in order (FNV-1a), with a separator
// so that ["ab"] and ["a","b"] differ. It is only computed when a list has
// more than one page.
func listVersion[T any](items []T, key func(*T) string) uint64 {
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	for i := range items {
		k := key(&items[i])
		for j := 0; j < len(k); j++ {
			h = (h ^ uint64(k[j])) * prime64
		}
		h = (h ^ 0xff) * prime64
	}
	return h
}

// page cuts one page out of the handler's full, deterministically ordered
// list. An invalid cursor, one of another list and one cut before the list
// changed are -32602.
func page[T any](items []T, c *call, key func(*T) string) ([]T, string, *Error) {
	list := c.in.msg.Method
	size := c.s.pageSize
	lo := 0
	var version uint64
	if c.p.Cursor != nil {
		cur, ok := decodeCursor(*c.p.Cursor)
		if !ok {
			return nil, "", InvalidParams("invalid cursor")
		}
		if cur.list != list {
			return nil, "", InvalidParams("invalid cursor: it belongs to %s, not %s", cur.list, list)
		}
		version = listVersion(items, key)
		if cur.version != version {
			return nil, "", InvalidParams("stale cursor: the list changed since this page; list again from the start")
		}
		lo = min(cur.offset, len(items))
	}
	hi := min(lo+size, len(items))
	next := ""
	if hi < len(items) {
		if c.p.Cursor == nil {
			version = listVersion(items, key)
		}
		next = encodeCursor(cursor{list: list, version: version, offset: hi})
	}
	out := items[lo:hi]
	if out == nil {
		out = []T{}
	}
	return out, next, nil
}

func toolKey(t *Tool) string                 { return t.Name }
func resourceKey(r *Resource) string         { return r.URI }
func templateKey(t *ResourceTemplate) string { return t.URITemplate }
func promptKey(p *Prompt) string             { return p.Name }

func runListTools(ctx context.Context, c *call) ([]byte, *Error) {
	all, err := c.s.h.ListTools(ctx, c.req)
	if err != nil {
		return nil, asError(err)
	}
	items, next, e := page(all, c, toolKey)
	if e != nil {
		return nil, e
	}
	return c.result(struct {
		Tools      []Tool `json:"tools"`
		NextCursor string `json:"nextCursor,omitempty"`
	}{shapeTools(items, c.req), next}, true, nil, nil)
}

func runListResources(ctx context.Context, c *call) ([]byte, *Error) {
	all, err := c.s.h.ListResources(ctx, c.req)
	if err != nil {
		return nil, asError(err)
	}
	items, next, e := page(all, c, resourceKey)
	if e != nil {
		return nil, e
	}
	return c.result(struct {
		Resources  []Resource `json:"resources"`
		NextCursor string     `json:"nextCursor,omitempty"`
	}{shapeResources(items, c.req), next}, true, nil, nil)
}

func runListTemplates(ctx context.Context, c *call) ([]byte, *Error) {
	all, err := c.s.h.ListResourceTemplates(ctx, c.req)
	if err != nil {
		return nil, asError(err)
	}
	items, next, e := page(all, c, templateKey)
	if e != nil {
		return nil, e
	}
	return c.result(struct {
		ResourceTemplates []ResourceTemplate `json:"resourceTemplates"`
		NextCursor        string             `json:"nextCursor,omitempty"`
	}{shapeTemplates(items, c.req), next}, true, nil, nil)
}

func runListPrompts(ctx context.Context, c *call) ([]byte, *Error) {
	all, err := c.s.h.ListPrompts(ctx, c.req)
	if err != nil {
		return nil, asError(err)
	}
	items, next, e := page(all, c, promptKey)
	if e != nil {
		return nil, e
	}
	return c.result(struct {
		Prompts    []Prompt `json:"prompts"`
		NextCursor string   `json:"nextCursor,omitempty"`
	}{shapePrompts(items, c.req), next}, true, nil, nil)
}
