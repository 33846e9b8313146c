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

// cursorPrefix versions the cursor format. Cursors are opaque to clients
// (§A10), base64url so that they survive any transport unescaped.
const cursorPrefix = "mcpdecl.v1:"

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(offset)))
}

func decodeCursor(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[len(cursorPrefix):]))
	return n, err == nil && n > 0
}

// page cuts one page out of the handler's full, deterministically ordered
// list. An invalid cursor is -32602 (§A10). A cursor past the end (the list
// shrank between pages) yields an empty last page rather than an error.
func page[T any](items []T, c *call) ([]T, string, *Error) {
	lo := 0
	if c.p.Cursor != nil {
		n, ok := decodeCursor(*c.p.Cursor)
		if !ok {
			return nil, "", InvalidParams("invalid cursor")
		}
		lo = min(n, len(items))
	}
	size := c.s.pageSize
	hi := min(lo+size, len(items))
	next := ""
	if hi < len(items) {
		next = encodeCursor(hi)
	}
	out := items[lo:hi]
	if out == nil {
		out = []T{}
	}
	return out, next, nil
}

func runListTools(ctx context.Context, c *call) ([]byte, *Error) {
	all, err := c.s.h.ListTools(ctx, c.req)
	if err != nil {
		return nil, asError(err)
	}
	items, next, e := page(all, c)
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
	items, next, e := page(all, c)
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
	items, next, e := page(all, c)
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
	items, next, e := page(all, c)
	if e != nil {
		return nil, e
	}
	return c.result(struct {
		Prompts    []Prompt `json:"prompts"`
		NextCursor string   `json:"nextCursor,omitempty"`
	}{shapePrompts(items, c.req), next}, true, nil, nil)
}
