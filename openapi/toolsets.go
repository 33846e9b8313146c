package openapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// maxToolsetDescription caps a toolset's description taken from the
// document.
const maxToolsetDescription = 300

// readTags keeps the descriptions of the document's tags.
func readTags(api *API, tags []*base.Tag) {
	for _, t := range tags {
		if t == nil || t.Description == "" {
			continue
		}
		if api.TagDescriptions == nil {
			api.TagDescriptions = map[string]string{}
		}
		api.TagDescriptions[t.Name] = t.Description
	}
}

// maxToolsetName is the longest toolset name the language accepts.
const maxToolsetName = 64

// toolsets writes a toolset block per tag of the operations, in the order
// tags first appear, each listing the tools (names[i] is ops[i]'s) of
// the operations with that tag. Tags that differ only in case are one.
// The toolsets an operation's MCP extensions name (x-mcp toolsets,
// x-speakeasy-mcp scopes) count as tags of it.
func (g *gen) toolsets(w *writer, names []string) {
	type set struct {
		tag     string
		tools   []string
		fromExt bool // no operation has the tag; an MCP extension names it
	}
	var order []*set
	byTag := map[string]*set{}
	for i, op := range g.ops {
		tags := len(op.Tags)
		for j, tag := range append(slices.Clip(op.Tags), op.MCP.Toolsets...) {
			k := strings.ToLower(strings.TrimSpace(tag))
			if k == "" {
				continue
			}
			s := byTag[k]
			if s == nil {
				s = &set{tag: tag, fromExt: true}
				byTag[k] = s
				order = append(order, s)
			}
			if j < tags && s.fromExt {
				s.tag, s.fromExt = tag, false
			}
			if len(s.tools) == 0 || s.tools[len(s.tools)-1] != names[i] {
				s.tools = append(s.tools, names[i])
			}
		}
	}
	setNames := newNamer(maxToolsetName)
	for _, s := range order {
		base := snake(cleanLine(s.tag))
		if base == "" {
			base = "tag"
		}
		w.blank()
		w.open("toolset", setNames.unique(base))
		desc := text(g.api.TagDescriptions[s.tag], maxToolsetDescription)
		if desc == "" {
			desc = fmt.Sprintf("The operations the document tags %q.", oneLine(s.tag))
			if s.fromExt {
				desc = fmt.Sprintf("The operations the document's MCP extensions put in %q.", oneLine(s.tag))
			}
		}
		w.attr("description", str(desc))
		w.attr("tools", stringList(s.tools))
		w.close()
	}
}
