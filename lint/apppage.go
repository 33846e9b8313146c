package lint

import (
	"bytes"
	"strings"
	"unicode/utf8"

	xhtml "golang.org/x/net/html"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// The csp lists of an app block, which the page's references need.
const (
	listResource = "resource_domains"
	listConnect  = "connect_domains"
	listFrame    = "frame_domains"
	listBaseURI  = "base_uri_domains"
	// listNone marks what the policy blocks whatever the lists say
	// (plugins, form submissions).
	listNone = ""
)

// pageRef is one place where a page loads something, connects somewhere
// or navigates: what refers (an element's attribute, a call in a script),
// the URL as written, and the csp list that must allow its origin.
type pageRef struct {
	what, url, list string
	// at is the byte offset of the URL in the page.
	at int
}

// loadingAttrs maps an element to its attributes that load or send
// something, and the list that allows them.
var loadingAttrs = map[string]map[string]string{
	"script": {"src": listResource},
	"link":   {"href": listResource},
	"img":    {"src": listResource, "srcset": listResource},
	"source": {"src": listResource, "srcset": listResource},
	"video":  {"src": listResource, "poster": listResource},
	"audio":  {"src": listResource},
	"track":  {"src": listResource},
	"input":  {"src": listResource},
	"iframe": {"src": listFrame},
	"frame":  {"src": listFrame},
	"base":   {"href": listBaseURI},
	"embed":  {"src": listNone},
	"object": {"data": listNone},
	"form":   {"action": listNone},
}

// loadingRels are the link relations whose href the browser fetches.
var loadingRels = []string{"stylesheet", "icon", "preload", "modulepreload", "prefetch", "apple-touch-icon"}

// scriptCall finds URLs given to the calls of a script that fetch code
// (import) or connect (fetch, WebSocket, EventSource, sendBeacon,
// XMLHttpRequest's open): group 1 is the call, group 2 the URL. new URL is
// left out: it only parses a string (bundled libraries resolve ids against
// such bases) and the URL it makes reaches fetch, which is what loads.
var scriptCall = lazyregexp.New("\\b(fetch|WebSocket|EventSource|sendBeacon|import|\\.open\\s*\\(\\s*[\"'`][A-Za-z]+[\"'`]\\s*,)\\s*\\(?\\s*[\"'`]((?:(?:https?|wss?):)?//[^\"'`\\s]+)")

// scriptImport finds static imports of bindings: import x from "URL"
// (scriptCall finds import "URL" and import("URL")).
var scriptImport = lazyregexp.New("\\b(from)\\s*[\"']((?:https?:)?//[^\"'\\s]+)")

// cssURL finds url(...) and @import in style sheets and style attributes.
var cssURL = lazyregexp.New(`(?i)(url\(|@import)\s*["']?((?:https?:)?//[^"')\s;]+)`)

// quotedURL finds any quoted absolute URL (in an import map).
var quotedURL = lazyregexp.New(`"((?:https?:)?//[^"\s]+)"`)

// pageRefs lists the references of a page, in order.
func pageRefs(page string) []pageRef {
	var refs []pageRef
	z := xhtml.NewTokenizer(strings.NewReader(page))
	offset := 0
	textKind := "" // what the next text token is: "script", "importmap", "style" or ""
	for {
		tt := z.Next()
		raw := z.Raw()
		switch tt {
		case xhtml.ErrorToken:
			return refs
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, attrs := tagOf(z)
			refs = append(refs, tagRefs(name, attrs, raw, offset)...)
			textKind = ""
			switch {
			case name == "script" && attrs["src"] == "" && attrs["type"] == "importmap":
				textKind = "importmap"
			case name == "script" && attrs["src"] == "":
				textKind = "script"
			case name == "style":
				textKind = "style"
			}
		case xhtml.TextToken:
			refs = append(refs, textRefs(textKind, string(raw), offset)...)
		default:
			textKind = ""
		}
		offset += len(raw)
	}
}

func tagOf(z *xhtml.Tokenizer) (string, map[string]string) {
	name, more := z.TagName()
	attrs := map[string]string{}
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if _, dup := attrs[string(k)]; !dup {
			attrs[string(k)] = string(v)
		}
	}
	return string(name), attrs
}

// tagRefs lists the references of one start tag; raw is the tag as
// written, at offset in the page.
func tagRefs(name string, attrs map[string]string, raw []byte, offset int) []pageRef {
	var refs []pageRef
	add := func(what, url, list string) {
		at := offset
		if i := bytes.Index(raw, []byte(url)); i >= 0 {
			at += i
		}
		refs = append(refs, pageRef{what: what, url: url, list: list, at: at})
	}
	for attr, list := range loadingAttrs[name] {
		v := strings.TrimSpace(attrs[attr])
		if v == "" || name == "link" && !relLoads(attrs["rel"]) {
			continue
		}
		what := "The <" + name + " " + attr + ">"
		if attr == "srcset" {
			for _, cand := range strings.Split(v, ",") {
				if f := strings.Fields(cand); len(f) > 0 {
					add(what, f[0], list)
				}
			}
			continue
		}
		add(what, v, list)
	}
	if style := attrs["style"]; style != "" {
		for _, m := range cssURL.FindAllStringSubmatch(style, -1) {
			add("A "+cssWhat(m[1])+" in a style attribute", m[2], listResource)
		}
	}
	sortRefs(refs)
	return refs
}

func relLoads(rel string) bool {
	for _, r := range strings.Fields(strings.ToLower(rel)) {
		for _, l := range loadingRels {
			if r == l {
				return true
			}
		}
	}
	return false
}

// textRefs lists the references in the text of a script or style element.
func textRefs(kind, text string, offset int) []pageRef {
	var refs []pageRef
	find := func(re *lazyregexp.Regexp, what func(call string) string, list func(call string) string) {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			call, url := "", text[m[len(m)-2]:m[len(m)-1]]
			if len(m) > 4 {
				call = text[m[2]:m[3]]
			}
			refs = append(refs, pageRef{what: what(call), url: url, list: list(call), at: offset + m[len(m)-2]})
		}
	}
	switch kind {
	case "script":
		find(scriptCall, func(call string) string {
			switch {
			case strings.HasPrefix(call, ".open"):
				return "An XMLHttpRequest.open() call in a script"
			case call == "import":
				return "An import in a script"
			}
			return "A " + strings.Join(strings.Fields(call), " ") + "() call in a script"
		}, func(call string) string {
			if call == "import" {
				return listResource
			}
			return listConnect
		})
		find(scriptImport, func(string) string { return "An import in a script" }, func(string) string { return listResource })
	case "importmap":
		find(quotedURL, func(string) string { return "An import map" }, func(string) string { return listResource })
	case "style":
		find(cssURL, func(call string) string { return "A " + cssWhat(call) + " in a style sheet" }, func(string) string { return listResource })
	}
	sortRefs(refs)
	return refs
}

// cssWhat names what cssURL found: url() or @import.
func cssWhat(match string) string {
	if strings.HasPrefix(strings.ToLower(match), "url") {
		return "url()"
	}
	return "@import"
}

func sortRefs(refs []pageRef) {
	for i := 1; i < len(refs); i++ {
		for j := i; j > 0 && refs[j].at < refs[j-1].at; j-- {
			refs[j], refs[j-1] = refs[j-1], refs[j]
		}
	}
}

// lineCol is the 1-based line and column (in characters) of a byte
// offset in text.
func lineCol(text string, at int) (line, col int) {
	at = min(at, len(text))
	before := text[:at]
	line = strings.Count(before, "\n") + 1
	start := strings.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCountInString(before[start:]) + 1
}

// refOrigin splits a URL as written into the scheme and host[:port] of
// its origin; remote is false for what is not fetched from an origin
// (data:, blob:, about:, javascript:, fragments), relative for a URL
// without scheme or host.
func refOrigin(url string) (scheme, host string, remote, relative bool) {
	u := strings.TrimSpace(url)
	if strings.HasPrefix(u, "//") {
		u = "https:" + u
	}
	s, rest, ok := strings.Cut(u, "://")
	if !ok {
		if i := strings.IndexByte(u, ':'); i > 0 && !strings.ContainsAny(u[:i], "/?#") {
			return "", "", false, false // data:, blob:, mailto:, javascript: ...
		}
		return "", "", false, !strings.HasPrefix(u, "#") && u != ""
	}
	s = strings.ToLower(s)
	if s != "http" && s != "https" && s != "ws" && s != "wss" {
		return "", "", false, false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if strings.Trim(strings.ToLower(rest), "abcdefghijklmnopqrstuvwxyz0123456789.-:[]") != "" {
		// Built at run time (https://${host}/): the origin is not known.
		return "", "", false, false
	}
	return s, strings.ToLower(rest), rest != "", false
}

// allowedBy reports whether one of the declared origins allows scheme and
// host as a Content Security Policy does: an http source also allows
// https, ws and wss go with http and https, "*." matches any subdomain,
// and a port left out is the scheme's default.
func allowedBy(declared []string, scheme, host string) bool {
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	}
	name, port := splitPort(host, scheme)
	for _, d := range declared {
		ds, dh, _ := strings.Cut(strings.ToLower(d), "://")
		if ds != scheme && !(ds == "http" && scheme == "https") {
			continue
		}
		dname, dport := splitPort(dh, ds)
		if dport != port && !(ds == "http" && scheme == "https" && dport == "80" && port == "443") {
			continue
		}
		if dname == name || strings.HasPrefix(dname, "*.") && strings.HasSuffix(name, dname[1:]) {
			return true
		}
	}
	return false
}

// splitPort splits host[:port], giving the scheme's default port when
// there is none.
func splitPort(host, scheme string) (name, port string) {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		return host[:i], host[i+1:]
	}
	if scheme == "http" {
		return host, "80"
	}
	return host, "443"
}
