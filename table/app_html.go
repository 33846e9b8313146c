package table

import (
	"bytes"
	"strings"

	xhtml "golang.org/x/net/html"
)

// InjectCSP returns page with a Content-Security-Policy meta element as
// the first element of its head (a head is added when the page has none
// before its content), so that the policy holds before anything in the
// page loads or runs. A policy the page declares itself still applies
// too: browsers enforce every policy, so the page can only narrow it.
//
// A leading byte order mark is dropped: in a page handed to the frame as
// text, nothing decodes it away, so it would be the document's first
// text, which closes the head before the policy and makes browsers ignore
// it.
func InjectCSP(page, policy string) string {
	page = strings.TrimPrefix(page, "\ufeff")
	meta := `<meta http-equiv="Content-Security-Policy" content="` + attrEscaper.Replace(policy) + `">`
	at, inHead := headInsertion(page)
	var b strings.Builder
	b.Grow(len(page) + len(meta) + len("<head></head>"))
	b.WriteString(page[:at])
	if inHead {
		b.WriteString(meta)
	} else {
		b.WriteString("<head>" + meta + "</head>")
	}
	b.WriteString(page[at:])
	return b.String()
}

// attrEscaper escapes text for a double-quoted attribute value. The
// policy is built from checked origins and fixed keywords, which hold none
// of these characters; escaping keeps it so whatever the policy holds.
var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

// headInsertion finds where the meta element goes: just after the <head>
// start tag when the page has one before any content, else before the
// first thing that is not a doctype, a comment, white space or the <html>
// start tag (inHead false: a head must be written around it).
func headInsertion(page string) (at int, inHead bool) {
	z := xhtml.NewTokenizer(strings.NewReader(page))
	offset := 0
	lastComment := -1 // where the comment just read starts
	for {
		tt := z.Next()
		raw := len(z.Raw())
		switch tt {
		case xhtml.ErrorToken: // the end of the page, or no more to understand
			if lastComment >= 0 {
				// A comment the end of the page may have cut off: the
				// policy goes before it, not into it.
				return lastComment, false
			}
			return offset, false
		case xhtml.DoctypeToken:
			if !bytes.HasSuffix(z.Raw(), []byte(">")) {
				return offset, false // cut off by the end of the page
			}
		case xhtml.CommentToken:
			lastComment = offset
			offset += raw
			continue
		case xhtml.TextToken:
			if len(bytes.TrimLeft(z.Raw(), " \t\r\n\f")) > 0 {
				return offset, false
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "html":
			case "head":
				return offset + raw, true
			default:
				return offset, false
			}
		default:
			return offset, false
		}
		lastComment = -1
		offset += raw
	}
}
