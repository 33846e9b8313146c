package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/regularfile"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// checkApps reports apps no tool links to (MCPD505) and what an app's
// page refers to that its policy blocks (MCPD601).
func (c *checker) checkApps() {
	linked := map[string]bool{}
	for _, t := range c.table.Tools {
		if t.UI != nil && t.UI.ResourceURI != "" {
			linked[t.UI.ResourceURI] = true
		}
	}
	for _, a := range c.cfg.Apps {
		r := c.items.resources[keyOf(a.DeclRange)]
		if r == nil || r.App == nil {
			continue
		}
		if !linked[r.URI] {
			c.report(CodeUnusedApp, a.Lint, a.NameRange,
				"No tool shows its results in the app %q (%s); hosts open an app when a tool linked to it is called. Link it from that tool with ui { app = %q }, or remove the app.",
				a.Name, r.URI, a.Name)
		}
		c.checkPage(a, r)
	}
}

// checkPage reports each reference of an app's page that its policy
// blocks: at the reference in the page's file, or at the html attribute
// for an inline page.
func (c *checker) checkPage(a *lang.App, r *table.Resource) {
	page, file := r.App.Page, ""
	if r.File != "" {
		b, err := regularfile.Read(r.File)
		if err != nil {
			return // the compiler reported it
		}
		page, file = string(b), r.File
	}
	for _, ref := range pageRefs(page) {
		detail := blocked(ref, r.App.CSP)
		if detail == "" {
			continue
		}
		line, col := lineCol(page, ref.at)
		subject := hcl.Range{}
		if file != "" {
			subject = hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: col, Byte: ref.at},
				End: hcl.Pos{Line: line, Column: col + len(ref.url), Byte: ref.at + len(ref.url)}}
		} else if a.HTML != nil {
			subject = a.HTML.Expr.Range()
			detail = fmt.Sprintf("At line %d, column %d of the page: %s", line, col, lowerFirst(detail))
		}
		c.report(CodeAppBlockedOrigin, a.Lint, subject, "%s", detail)
	}
}

// blocked says what the policy of an app with csp does to ref and what to
// do, or "" when it allows it.
func blocked(ref pageRef, csp table.AppCSP) string {
	scheme, host, remote, relative := refOrigin(ref.url)
	switch {
	case ref.list == listNone && (remote || relative):
		return fmt.Sprintf("%s refers to %q, which every app's policy blocks (plugins and form submissions are never allowed). "+
			"Send the data with a tool call from a script instead.", ref.what, ref.url)
	case relative:
		return fmt.Sprintf("%s refers to %q, a relative URL: the page is sent as text and runs with no address of its own, so it loads nothing. "+
			"Put the content in the page, or load it from an origin listed in csp { %s }.", ref.what, ref.url, ref.list)
	case !remote:
		return ""
	}
	declared := map[string][]string{listResource: csp.Resource, listConnect: csp.Connect, listFrame: csp.Frame, listBaseURI: csp.BaseURI}[ref.list]
	if allowedBy(declared, scheme, host) {
		return ""
	}
	origin := originToAdd(scheme, host)
	return fmt.Sprintf("%s refers to %s, whose origin is not in the app's csp %s, so the browser blocks it. "+
		"Add %q to csp { %s = [...] }, or remove the reference.", ref.what, ref.url, ref.list, origin, ref.list)
}

// originToAdd is the origin a csp list needs for scheme and host (wss
// and ws connections are allowed by https and http origins).
func originToAdd(scheme, host string) string {
	switch scheme {
	case "wss":
		scheme = "https"
	case "ws":
		scheme = "http"
	}
	return scheme + "://" + host
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}
