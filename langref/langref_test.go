package langref

import (
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/docs"
)

const sample = "# Doc\n\n## 3. Blocks\n\n### tool\n\n```text\ntool \"<name>\" { ... }\n```\n\n" +
	"<!-- ref: tool -->\nAn MCP tool.\nIt makes one call.\n\n" +
	"| Block | How many | Meaning |\n|---|---|---|\n| `arg` | any | Not an attribute table. |\n\n" +
	"| Attribute | Type | Required | Meaning | Default |\n|---|---|---|---|---|\n" +
	"| `title` | string | no | Human-readable title. | none |\n" +
	"| `pick` | `\"a\" \\| \"b\"` or `x | y` | no | Either. | `\"a\"` |\n\n" +
	"| Attribute | Type | Meaning |\n|---|---|---|\n| `late` | string | A second table is not the block's. |\n\n" +
	"### icon\n\n<!-- ref: icon logo -->\nAn icon.\n\n| Attribute | Meaning |\n|---|---|\n| `src` | The URL. |\n\n" +
	"### backend\n\n<!-- ref: backend.http.auth -->\nOutbound auth.\n\n| Attribute | Meaning |\n|---|---|\n| `bearer` | A token. |\n\n" +
	"<!-- ref: auth -->\nInbound auth.\n\n| Attribute | Meaning |\n|---|---|\n| `resource` | The audience. |\n\n" +
	"### tool\n\n<!-- ref: nothing -->\n"

func TestParseReadsMarkedBlocks(t *testing.T) {
	got := parse(sample, "x.md")
	tool := got["tool"]
	if tool == nil {
		t.Fatalf("no tool entry: %v", got)
	}
	if tool.Block.Markdown != "An MCP tool.\nIt makes one call." {
		t.Errorf("tool text = %q", tool.Block.Markdown)
	}
	if tool.Block.Anchor != "x.md#tool" {
		t.Errorf("tool anchor = %q", tool.Block.Anchor)
	}
	if strings.Join(tool.Order, ",") != "title,pick" {
		t.Errorf("tool attributes = %v; want the first Attribute table only", tool.Order)
	}
	if md := tool.Attributes["title"].Markdown; md != "Human-readable title.\n\nType: string · Required: no · Default: none" {
		t.Errorf("title text = %q", md)
	}
	if md := tool.Attributes["pick"].Markdown; !strings.Contains(md, "Type: `\"a\" | \"b\"` or `x | y`") {
		t.Errorf("a | in code or written \\| split the cell: %q", md)
	}
	if got["icon"] == nil || got["logo"] == nil || got["logo"].Attributes["src"].Markdown != "The URL." {
		t.Errorf("one mark naming two blocks: %+v %+v", got["icon"], got["logo"])
	}
	// The second heading "tool" gets GitHub's "-1".
	if a := got["nothing"].Block.Anchor; a != "x.md#tool-1" {
		t.Errorf("anchor of a repeated heading = %q", a)
	}
}

func TestLookupTakesTheLongestEnd(t *testing.T) {
	idx := parse(sample, "x.md")
	Attribute, Block := idx.attribute, idx.block
	if e, ok := Attribute([]string{"backend", "http", "auth"}, "bearer"); !ok || e.Markdown != "A token." {
		t.Errorf("backend.http.auth bearer = %+v, %v", e, ok)
	}
	if _, ok := Attribute([]string{"backend", "http", "auth"}, "resource"); ok {
		t.Error("backend.http.auth fell back to the top-level auth block")
	}
	if e, ok := Attribute([]string{"auth"}, "resource"); !ok || e.Markdown != "The audience." {
		t.Errorf("auth resource = %+v, %v", e, ok)
	}
	if e, ok := Block([]string{"server", "icon"}); !ok || e.Markdown != "An icon." {
		t.Errorf("server icon = %+v, %v", e, ok)
	}
	if _, ok := Block([]string{"nope"}); ok {
		t.Error("an unknown block has an entry")
	}
}

// TestLanguageReference reads the real docs/language.md: the examples of
// the package doc answer, with text and an anchor that exists.
func TestLanguageReference(t *testing.T) {
	for _, path := range [][]string{{"tool"}, {"tool", "http"}, {"backend", "http"}, {"tool", "step", "sql"}, {"prompt", "message", "resource"}} {
		e, ok := Block(path)
		if !ok || e.Markdown == "" || !strings.HasPrefix(e.Anchor, "docs/language.md#") {
			t.Errorf("Block(%q) = %+v, %v", path, e, ok)
		}
	}
	e, ok := Attribute([]string{"tool", "error"}, "when")
	if !ok || !strings.Contains(e.Markdown, "expr-lang") || e.Anchor != "docs/language.md#error" {
		t.Errorf("error.when = %+v, %v", e, ok)
	}
	if e, ok := Attribute([]string{"backend", "sql"}, "dsn"); !ok || !strings.Contains(e.Markdown, "Required: **yes**") {
		t.Errorf("backend sql dsn = %+v, %v", e, ok)
	}
	if strings.Contains(e.Markdown, "<!--") {
		t.Errorf("a mark leaked into the text: %q", e.Markdown)
	}
}

// BenchmarkParseLanguageReference is the cost of the first lookup, which
// reads all of docs/language.md once.
func BenchmarkParseLanguageReference(b *testing.B) {
	text := docs.Language
	b.ReportAllocs()
	for b.Loop() {
		parse(text, "docs/language.md")
	}
}
