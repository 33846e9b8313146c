package english

import "testing"

func TestA(t *testing.T) {
	for word, want := range map[string]string{
		"arg": "an arg", "tool": "a tool", "http": "an http", "HTTP": "an HTTP", "sql": "an sql",
		"shell": "a shell", "URI": "a URI", "uri": "a uri", "object": "an object", "list of string": "a list of string",
		"OPTIONS": "an OPTIONS", "GET": "a GET", "HEAD": "a HEAD", "image": "an image", "audio": "an audio",
		"resource_link": "a resource_link", "unique": "a unique", "items": "an items", "annotations": "an annotations",
		"postgres": "a postgres", "mysql": "a mysql", "result": "a result", "auth": "an auth", "number": "a number",
	} {
		if got := A(word); got != want {
			t.Errorf("A(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "byte", "1 byte"}, {2, "byte", "2 bytes"}, {0, "error", "0 errors"}, {1, "warning", "1 warning"},
		{3, "process", "3 processes"}, {2, "entry", "2 entries"}, {2, "key", "2 keys"},
		{2, "resource template", "2 resource templates"}, {1, "resource template", "1 resource template"},
		{4, "match", "4 matches"}, {2, "child", "2 children"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
