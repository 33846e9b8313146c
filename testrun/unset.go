package testrun

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// placeholderPrefix starts the value env() has in a test for a variable
// that is not set.
const placeholderPrefix = "mcpdecl-test-unset-"

// Placeholder is the value of env("NAME") in a test when NAME is not set
// and env() gives no default: a clearly fake value, so that the
// configuration compiles and mocked or replayed requests run without the
// real credential. It never reaches a real server: a request or a
// database connection that would carry it fails the test instead (see
// needsEnv).
func Placeholder(name string) string { return placeholderPrefix + name }

var placeholderRE = lazyregexp.New(regexp.QuoteMeta(placeholderPrefix) + `([A-Za-z0-9_]+)`)

// unsetIn lists, sorted and once each, the variables whose placeholders
// appear in the texts.
func unsetIn(texts ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range texts {
		if !strings.Contains(t, placeholderPrefix) {
			continue
		}
		for _, m := range placeholderRE.FindAllStringSubmatch(t, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		}
	}
	sort.Strings(out)
	return out
}

// unsetInRequest lists the unset variables whose placeholders a request
// carries: in its URL, its headers or its body, or in the credentials of
// its backend (which may travel encoded, as a Basic header does).
func unsetInRequest(req *http.Request, body []byte, creds []string) []string {
	texts := append([]string{req.URL.String(), string(body)}, creds...)
	for _, vs := range req.Header {
		texts = append(texts, vs...)
	}
	return unsetIn(texts...)
}

// needsEnv says that something of a test needs the real values of unset
// variables, and what to do: set them, or do instead.
func needsEnv(what string, names []string, instead string) string {
	return fmt.Sprintf("%s needs %s, and %s not set (the test has only the placeholder %q, which is never sent to a real server): set %s, or %s",
		what, envCalls(names), isAre(names), Placeholder(names[0]), strings.Join(names, " and "), instead)
}

// envCalls writes names as env() calls: env("A") and env("B").
func envCalls(names []string) string {
	var calls []string
	for _, n := range names {
		calls = append(calls, fmt.Sprintf("env(%q)", n))
	}
	return strings.Join(calls, " and ")
}

// isAre is "A is" or "A and B are".
func isAre(names []string) string {
	if len(names) == 1 {
		return names[0] + " is"
	}
	return strings.Join(names, " and ") + " are"
}

// unsetNames hands out placeholders for env() in a test and remembers
// for which variables.
type unsetNames struct {
	mu    sync.Mutex
	names map[string]bool
}

func (u *unsetNames) placeholder(name string) (string, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.names == nil {
		u.names = map[string]bool{}
	}
	u.names[name] = true
	return Placeholder(name), true
}

func (u *unsetNames) list() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for n := range u.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// testCompile is opts as tests compile with: an env() of a variable that
// is not set gets its placeholder, unless the caller decided otherwise.
// Validation (no LookupEnv) reads nothing and is left as it is.
func testCompile(opts table.Options, u *unsetNames) table.Options {
	if opts.LookupEnv != nil && opts.UnsetEnv == nil {
		opts.UnsetEnv = u.placeholder
	}
	return opts
}

// unsetNotes point, when a configuration did not compile for its tests,
// at each env() that got a placeholder and that an error may come from
// (the error quotes the placeholder, or stands where env() is called): a
// value such as a base_url may need a real one.
func unsetNotes(cfg *lang.Config, diags hcl.Diagnostics, names []string) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, n := range names {
		at := envCallRange(cfg, n)
		if !blamed(diags, n, at) {
			continue
		}
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Environment variable not set",
			Detail: fmt.Sprintf("%s is not set, so env(%q) has the placeholder %q in tests. If an error here comes from that value, set %s for the tests (or give env() a default that fits, as env(%q, \"...\")).",
				n, n, Placeholder(n), n, n),
			Subject: at,
		})
	}
	return out
}

// blamed reports whether an error may come from the placeholder of name,
// called at at.
func blamed(diags hcl.Diagnostics, name string, at *hcl.Range) bool {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if strings.Contains(d.Summary+d.Detail, Placeholder(name)) {
			return true
		}
		if s := d.Subject; s != nil && at != nil && s.Filename == at.Filename && s.Start.Byte <= at.Start.Byte && at.End.Byte <= s.End.Byte {
			return true
		}
	}
	return false
}

// envCallRange is where the configuration first calls env(name), or nil.
func envCallRange(cfg *lang.Config, name string) *hcl.Range {
	if cfg == nil {
		return nil
	}
	var files []string
	for f := range cfg.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	pattern := lazyregexp.New(`env\(\s*"` + regexp.QuoteMeta(name) + `"`)
	for _, f := range files {
		src := cfg.Files[f].Bytes
		loc := pattern.FindIndex(src)
		if loc == nil {
			continue
		}
		line := bytes.Count(src[:loc[0]], []byte("\n")) + 1
		col := loc[0] - bytes.LastIndexByte(src[:loc[0]], '\n')
		start := hcl.Pos{Line: line, Column: col, Byte: loc[0]}
		end := hcl.Pos{Line: line, Column: col + loc[1] - loc[0], Byte: loc[1]}
		return &hcl.Range{Filename: f, Start: start, End: end}
	}
	return nil
}
