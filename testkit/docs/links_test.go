// Package docs_test checks the repository's Markdown as a reader meets
// it: every link into the repository reaches a file, and every #anchor a
// heading of the file it names, with the anchors GitHub makes.
package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, from this package's folder.
const root = "../.."

// markdownFiles are the documents a reader follows links in.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md found (%v)", err)
	}
	return append(files, docs...)
}

var (
	heading = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*\s*$`)
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fence   = regexp.MustCompile("^\\s*(```|~~~)")
)

// anchors lists the anchors GitHub gives the headings of a Markdown text:
// lower case, punctuation dropped, spaces as hyphens, and -1, -2… for a
// repeated one. Headings inside code blocks are not headings.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		m := heading.FindStringSubmatch(line)
		if inFence || m == nil {
			continue
		}
		slug := slugOf(m[1])
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

func slugOf(title string) string {
	// Inline code and links keep their text.
	title = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(title, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func TestLinksReachTheirTarget(t *testing.T) {
	texts := map[string]string{}
	read := func(path string) (string, bool) {
		if text, ok := texts[path]; ok {
			return text, true
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return "", false
		}
		texts[path] = string(b)
		return string(b), true
	}
	checked := 0
	for _, file := range markdownFiles(t) {
		text, _ := read(file)
		inFence := false
		for n, line := range strings.Split(text, "\n") {
			if fence.MatchString(line) {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), path)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: the link %q names %s, which does not exist", rel(file), n+1, target, rel(dest))
						continue
					}
				}
				checked++
				if anchor == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				destText, _ := read(dest)
				if !anchors(destText)[anchor] {
					t.Errorf("%s:%d: the link %q names the anchor #%s, which no heading of %s makes", rel(file), n+1, target, anchor, rel(dest))
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d links were checked: the link pattern no longer finds them", checked)
	}
}

func rel(path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}

func TestAnchorsAsGitHubMakesThem(t *testing.T) {
	got := anchors("# Title\n## 6.4 env() and allow_env\n```\n# not a heading\n```\n## Title\n### `mcpdecl test` runs\n")
	for _, want := range []string{"title", "64-env-and-allow_env", "title-1", "mcpdecl-test-runs"} {
		if !got[want] {
			t.Errorf("anchor %q missing from %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block made an anchor")
	}
}

// TestGoVersionAsREADMESays: README names the Go version go.mod asks for.
func TestGoVersionAsREADMESays(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	want := "needs Go " + string(m[1]) + " or newer"
	if !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q (go.mod's go line is %s)", want, m[1])
	}
}

// TestHostSnippetsUseAbsolutePaths: the host configurations README shows
// name the binary by its absolute path, since desktop hosts often start
// servers without the shell's PATH.
func TestHostSnippetsUseAbsolutePaths(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	commands := regexp.MustCompile(`"command":\s*"([^"]*)"`).FindAllStringSubmatch(string(readme), -1)
	if len(commands) < 3 {
		t.Fatalf("README.md shows %d host commands, want the three hosts' snippets", len(commands))
	}
	for _, c := range commands {
		if !strings.HasPrefix(c[1], "/") {
			t.Errorf("README.md starts a server with %q: give an absolute path", c[1])
		}
	}
}
