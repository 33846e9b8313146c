package openapi

import (
	"net/url"
	"strings"
)

// Redacted is how a document location is shown: in the generated file's
// first comment, in --list and in every error. A URL's user information,
// query and fragment are where tokens travel (user:token@host,
// ?access_token=, #access_token=), so they are replaced by "redacted"; a
// file path is shown as given.
func Redacted(loc string) string {
	if !IsURL(loc) {
		return cleanLine(loc)
	}
	u, err := url.Parse(loc)
	if err != nil {
		// Unparsable: show no more than the scheme and the host part.
		rest := loc[strings.Index(loc, "://")+3:]
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = "redacted@" + rest[i+1:]
		}
		return cleanLine(loc[:strings.Index(loc, "://")+3] + rest + "/...")
	}
	return cleanLine(redactURL(u).String())
}

func redactURL(u *url.URL) *url.URL {
	r := *u
	if r.User != nil {
		r.User = url.User("redacted")
	}
	if r.RawQuery != "" || r.ForceQuery {
		r.RawQuery, r.ForceQuery = "redacted", false
	}
	if r.Fragment != "" {
		r.Fragment, r.RawFragment = "redacted", ""
	}
	return &r
}

// secretsOf lists the parts of a document URL that must appear in no
// message: they are replaced wherever a library quotes them back.
func secretsOf(loc string) []string {
	u, err := url.Parse(loc)
	if err != nil || !IsURL(loc) {
		return nil
	}
	var out []string
	if u.User != nil {
		out = append(out, u.User.String(), u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p, url.QueryEscape(p))
		}
	}
	if u.RawQuery != "" {
		out = append(out, u.RawQuery)
		for _, vs := range u.Query() {
			for _, v := range vs {
				out = append(out, v, url.QueryEscape(v))
			}
		}
	}
	if u.Fragment != "" {
		out = append(out, u.Fragment, u.EscapedFragment())
	}
	var kept []string
	for _, s := range out {
		if len(s) >= 3 { // shorter values would blank ordinary words
			kept = append(kept, s)
		}
	}
	return kept
}

func scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		s = strings.ReplaceAll(s, sec, "redacted")
	}
	return s
}

// cleanText makes document text safe to show on a terminal and in a
// client: escape sequences (CSI, OSC such as OSC 52, which writes the
// clipboard) are removed whole, and the other C0 and C1 controls, DEL and
// the bidirectional controls (which make text read differently from what
// it is) are dropped. Newlines and tabs are kept.
func cleanText(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x1b || r == 0x90 || r == 0x98 || r == 0x9b || r == 0x9d || r == 0x9e || r == 0x9f:
			i = skipEscape(rs, i)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cleanLine is cleanText on one line: newlines and tabs become spaces.
func cleanLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' || r == 0x2028 || r == 0x2029 || r == 0x85 {
			return ' '
		}
		return r
	}, cleanText(s))
}

func isClean(s string) bool {
	for _, r := range s {
		if r != '\n' && r != '\t' && isControl(r) {
			return false
		}
	}
	return true
}

// isControl: C0, DEL, C1, and the bidirectional formatting characters
// (ALM, LRM, RLM, the embeddings and overrides U+202A-E, the isolates
// U+2066-9).
func isControl(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// skipEscape returns the index of the last rune of the escape sequence
// starting at i: ESC [ ... final byte (CSI), ESC ] / P / X / ^ / _ ...
// terminated by BEL or ESC \ (OSC, DCS and the other strings), their C1
// forms, or ESC and one more character.
func skipEscape(rs []rune, i int) int {
	intro := rs[i]
	if intro == 0x1b {
		if i+1 >= len(rs) {
			return i
		}
		i++
		switch rs[i] {
		case '[':
			intro = 0x9b
		case ']', 'P', 'X', '^', '_':
			intro = 0x9d
		default:
			return i // a two-character escape
		}
	}
	if intro == 0x9b { // CSI: parameters and intermediates, then a final byte 0x40-0x7e
		for i+1 < len(rs) {
			i++
			if rs[i] >= 0x40 && rs[i] <= 0x7e {
				return i
			}
			if rs[i] < 0x20 || rs[i] > 0x7e {
				return i - 1
			}
		}
		return i
	}
	// A string: up to BEL, ST (ESC \ or U+009C), or the end of the line.
	for i+1 < len(rs) {
		i++
		switch {
		case rs[i] == 0x07 || rs[i] == 0x9c:
			return i
		case rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '\\':
			return i + 1
		case rs[i] == '\n':
			return i - 1
		}
	}
	return i
}
