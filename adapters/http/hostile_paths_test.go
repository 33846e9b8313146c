package httpadapter

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// TestHostileUnicodeSeparators: characters that servers normalising
// Unicode (NFKC) or mapping to a legacy code page ("best fit") turn into
// "/", "\" or dots are refused in a path value like the ASCII ones, as
// they are and percent-encoded; ordinary non-ASCII text still passes.
func TestHostileUnicodeSeparators(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileEnv(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s/api" }
http "api" {
  path = "/files/${args.isbn}"
}`, srv.URL), nil)
	for value, refuse := range map[string]string{
		"..\uFF0Fadmin":  `holds a "/"`,  // FULLWIDTH SOLIDUS
		"..\u2215admin":  `holds a "/"`,  // DIVISION SLASH
		"..\uFF3Cadmin":  `holds a "\\"`, // FULLWIDTH REVERSE SOLIDUS
		"..\uFE68admin":  `holds a "\\"`, // SMALL REVERSE SOLIDUS
		"..%EF%BC%8Fa":   `holds a "/"`,
		"\uFF0E\uFF0E":   `a path segment would be ".."`, // FULLWIDTH FULL STOP
		"\u2025":         `a path segment would be ".."`, // TWO DOT LEADER
		"%EF%BC%8E.":     `a path segment would be ".."`,
		"\uFE52\uFE52;x": `a path segment would be ".."`, // SMALL FULL STOP
	} {
		before := srv.count()
		_, err := c.invoke(0, args(map[string]cty.Value{"isbn": cty.StringVal(value)}), nil)
		var ce *adapter.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, refuse) {
			t.Errorf("%q: error = %v, want a CallError with %q", value, err, refuse)
		}
		if got := srv.requests()[before:]; len(got) != 0 {
			t.Errorf("%q: the request was sent: %v", value, got)
		}
	}
	for value, want := range map[string]string{
		"caf\u00e9":    "/api/files/caf%C3%A9",
		"\u00bd":       "/api/files/%C2%BD",
		"\u65e5\u672c": "/api/files/%E6%97%A5%E6%9C%AC",
	} {
		before := srv.count()
		if _, err := c.invoke(0, args(map[string]cty.Value{"isbn": cty.StringVal(value)}), nil); err != nil {
			t.Errorf("%q: %v", value, err)
			continue
		}
		if got := srv.requests()[before:]; len(got) != 1 || got[0].URI != want {
			t.Errorf("%q: server saw %v, want %s", value, got, want)
		}
	}
}
