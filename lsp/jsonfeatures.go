package lsp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpdecl/mcpdecl/langschema"
)

// isJSONSyntax says a file is read with the JSON syntax, as lang reads it.
func isJSONSyntax(path string) bool { return strings.HasSuffix(path, ".json") }

// jsonHover answers hover in the JSON syntax as in the native one: the
// reference text on a property name (a block's type or label, an
// attribute), and inside a string value what args.NAME, steps.NAME or a
// function called names.
func jsonHover(doc *document, offset int) *hoverResult {
	j := readJSONSyntax(doc.text.src, offset, nil)
	blocks := enclosing(j.body, offset)
	inString := func(at int) (string, bool) { return j.nativeBefore(j.at(at), at) }
	if _, ok := inString(offset); ok {
		if h := argHover(doc, blocks, offset); h != nil {
			return h
		}
		if h := stepHover(doc, blocks, offset); h != nil {
			return h
		}
		return functionHover(doc, offset, inString)
	}
	return referenceHover(doc.text, j.body, blocks, offset)
}

// declarations are the top-level blocks whose names completion offers
// anywhere: variables, locals, backends and the auth block's claims.
func declarations(key string) bool {
	return key == "variable" || key == "locals" || key == "backend" || key == "auth"
}

// jsonCompletion completes in the JSON syntax: inside a string value
// what the native syntax completes inside the same string, and where a
// property name goes the blocks and attributes of the block around the
// cursor (or, among a block type's labels, the backend kinds and names),
// each inserted as a quoted key with its colon.
func (s *Server) jsonCompletion(doc *document, offset int) []completionItem {
	j := readJSONSyntax(doc.text.src, offset, nil)
	spot := j.at(offset)
	blocks := enclosing(j.body, offset)
	if before, ok := j.nativeBefore(spot, offset); ok {
		return s.completeAt(doc, before, blocks)
	}
	if !spot.inKey || spot.object == nil {
		return nil
	}
	key := j.keyEdit(doc.text, spot, offset)
	object, ok := j.objects[spot.object]
	switch {
	case !ok:
		return nil // an attribute's value: its keys are the user's
	case object.body:
		if len(blocks) > 0 && blocks[len(blocks)-1] != object.block {
			return nil
		}
		return bodyItems(blocks, key)
	case len(object.labels) > 0:
		return nil // only a block type's first label is a name of its own kind
	}
	var names []string
	detail, kind := "backend kind", itemEnum
	switch {
	case object.node.Type == "backend":
		names = langschema.Kinds()
	case slices.Contains(langschema.Kinds(), object.node.Type):
		names = slices.Sorted(slices.Values(s.namesOf(doc).backends[object.node.Type]))
		detail, kind = `backend "`+object.node.Type+`"`, itemValue
	default:
		return nil
	}
	value := jsonBlockValue(object.node.Labels[min(1, len(object.node.Labels)):])
	out := make([]completionItem, 0, len(names))
	for _, n := range names {
		out = append(out, key.apply(completionItem{Label: n, Kind: kind, Detail: detail}, value))
	}
	return out
}

// keyEdit is how a property name is written at the cursor: over the key
// being typed (its quotes included), with the colon when none follows,
// and a comma when another property follows.
type keyEdit struct {
	rng       Range
	quoted    bool
	hasColon  bool
	needComma bool
}

func (j *jsonSyntax) keyEdit(t *text, spot jsonSpot, offset int) *keyEdit {
	from, to := offset, offset
	k := &keyEdit{}
	if spot.key != nil {
		from, to = spot.key.start, spot.key.end
		k.quoted = spot.key.kind == '"'
	}
	k.rng = Range{Start: t.position(from), End: t.position(to)}
	after := strings.TrimLeft(j.src[to:], " \t\r\n")
	k.hasColon = strings.HasPrefix(after, ":")
	k.needComma = strings.HasPrefix(after, `"`)
	return k
}

// apply makes item insert its label as a key; value is the snippet that
// follows the colon ("" for none). The cursor ends where the value goes,
// before the comma added.
func (k *keyEdit) apply(item completionItem, value string) completionItem {
	name := strconv.Quote(item.Label)
	text := name
	if !k.hasColon {
		if k.needComma && value == "" {
			value = "$0"
		}
		if value != "" {
			item.InsertTextFormat = snippetFormat
			text = snippetEscaper.Replace(name)
		}
		text += ": " + value
		if k.needComma {
			text += ","
		}
	}
	item.InsertText = ""
	item.TextEdit = &textEdit{Range: k.rng, NewText: text}
	if k.quoted {
		item.FilterText = name
	}
	return item
}

// snippetEscaper keeps a name's $, } and \ literal in a snippet.
var snippetEscaper = strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`)

// jsonBlockValue is the snippet of a block's value after its key: an
// object per label still to write, then the body.
func jsonBlockValue(labels []string) string {
	body := "{\n$0\n}"
	for i := len(labels) - 1; i >= 0; i-- {
		body = "{\n\"${" + strconv.Itoa(i+1) + ":" + labels[i] + "}\": " + body + "\n}"
	}
	// Indent each nesting by a tab; the editor adjusts tabs to its own
	// indentation.
	var b strings.Builder
	depth := 0
	for i, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "}") {
			depth--
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(strings.Repeat("\t", max(depth, 0)) + line)
		if strings.HasSuffix(line, "{") {
			depth++
		}
	}
	return b.String()
}
