package e2e

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Hostile argument values: what a client sends must be refused cheaply
// and clearly, or reach the backend exactly as sent.

// TestHostileNumbers: numbers of absurd size are refused, naming the
// argument, and never reach the API; a flood of wrong items gets a short
// answer that lists the first problems and counts the rest.
func TestHostileNumbers(t *testing.T) {
	requireSchemas(t)
	api := echoAPI(t)
	srv := setups[1].connect(t, repoPath(t, "testkit/e2e/testdata/hostile_args.hcl"), map[string]string{"base_url": api.URL}, nil)
	defer srv.c.close()
	ctx := testCtx(t)
	nums := make([]any, 60)
	for i := range nums {
		nums[i] = json.Number("1e999999")
	}
	res, err := srv.c.callTool(ctx, "sum", map[string]any{"nums": nums})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "- argument nums.0: 1e999999 has an exponent beyond ±400") ||
		!strings.Contains(res.Text, "- and 40 more") {
		t.Errorf("60 × 1e999999 = %+v, %v; want the first 20 named and the rest counted", res, err)
	}
	wrong := make([]any, 100000)
	for i := range wrong {
		wrong[i] = "x"
	}
	res, err = srv.c.callTool(ctx, "sum", map[string]any{"nums": wrong})
	if err != nil || !res.IsError || len(res.Text) > 2000 || !strings.HasSuffix(res.Text, "- argument nums.19: got string, want integer\n- and 99980 more") {
		t.Errorf("100,000 wrong items = %d bytes (%.300s...), %v; want 20 lines and a count", len(res.Text), res.Text, err)
	}
	if reqs := api.take(); len(reqs) != 0 {
		t.Errorf("the API received %d requests for refused calls", len(reqs))
	}
	res, err = srv.c.callTool(ctx, "sum", map[string]any{"nums": []any{json.Number("1e3"), 2}})
	if reqs := api.take(); err != nil || res.IsError || len(reqs) != 1 || reqs[0].Body != `{"nums":[1000,2]}` {
		t.Errorf("nums [1e3, 2] = %+v, %v, requests %+v; want one request with [1000,2]", res, err, reqs)
	}
	srv.wire.verify(t)
}

// TestHostileMissingArgument: examples/calendar.hcl's add_event
// without a date gets the schema's line only, not also a line from the
// date's validation block that cannot be written about a missing date.
func TestHostileMissingArgument(t *testing.T) {
	requireSchemas(t)
	api := calendarAPI(t)
	srv := setups[0].connect(t, repoPath(t, "examples/calendar.hcl"), calendarVars(api), nil)
	defer srv.c.close()
	res, err := srv.c.callTool(testCtx(t), "add_event", map[string]any{"title": "Planning meeting"})
	want := "The arguments are not valid; fix these and call again:\n- arguments: missing property 'date'"
	if err != nil || !res.IsError || res.Text != want {
		t.Errorf("add_event without date = %+v, %v; want only %q", res, err, want)
	}
	checkRequests(t, "add_event without date", api)
	srv.wire.verify(t)
}

// argShape is one shape of argument docs/language.md allows, declared as
// the body of an arg block, with a value a client sends for it.
type argShape struct {
	name, decl, value string
}

var argShapes = []argShape{
	{"string", `type = string`, `"plain"`},
	{"number", `type = number`, `2.5`},
	{"integer", `type = integer`, `42`},
	{"bool", `type = bool`, `true`},
	{"list_string", `type = list(string)`, `["b","a","b"]`},
	{"set_string", `type = set(string)`, `["a","b"]`},
	{"map_number", `type = map(number)`, `{"x":1,"y":2.5}`},
	{"object_all", `type = object({ a = string, b = optional(number) })`, `{"a":"x","b":3}`},
	{"object_absent", `type = object({ a = string, b = optional(number) })`, `{"a":"x"}`},
	{"object_props", "type = object\n property \"qty\" {\n type = number\n }\n property \"note\" {\n type = string\n required = false\n }", `{"qty":2}`},
	{"list_object_items", "type = list(object)\n items {\n property \"qty\" {\n type = number\n }\n property \"sku\" {\n type = string\n required = false\n }\n }", `[{"qty":1},{"qty":2,"sku":"A-1"}]`},
	{"list_object_optional", `type = list(object({ sku = string, note = optional(string) }))`, `[{"sku":"A"},{"sku":"B","note":"gift"}]`},
	{"nested", `type = list(object({ name = string, parts = list(object({ id = integer, tags = optional(list(string)) })) }))`,
		`[{"name":"n","parts":[{"id":1},{"id":2,"tags":["t"]}]},{"name":"m","parts":[]}]`},
	{"map_list_object", `type = map(list(object({ q = number, r = optional(bool) })))`, `{"k":[{"q":1},{"q":2,"r":false}]}`},
	{"any", `type = any`, `[1,"a",{"x":null,"y":[true]}]`},
	{"bare_object", `type = object`, `{"free":[1,{"form":"x"}]}`},
	{"bare_list", `type = list`, `[{"a":1},{"b":"two"}]`},
	{"bare_map", `type = map`, `{"a":{"b":[1,2]},"c":"d"}`},
}

// TestHostileArgumentShapes: every argument shape the language
// allows reaches an HTTP API's JSON body exactly as the client sent it,
// absent optional attributes left out (not sent as null), both as a field
// of a body object and as the whole body.
func TestHostileArgumentShapes(t *testing.T) {
	requireSchemas(t)
	var cfg strings.Builder
	cfg.WriteString("variable \"base_url\" {\n  type = string\n}\nbackend \"http\" \"api\" {\n  base_url = var.base_url\n}\n")
	for _, s := range argShapes {
		fmt.Fprintf(&cfg, "tool %q {\n description = \"Sends a %s.\"\n arg \"v\" {\n %s\n }\n http \"api\" {\n method = \"POST\"\n path = \"/field\"\n body = { v = args.v }\n }\n}\n", s.name, s.name, s.decl)
		fmt.Fprintf(&cfg, "tool %q {\n description = \"Sends a %s.\"\n arg \"v\" {\n %s\n }\n http \"api\" {\n method = \"POST\"\n path = \"/whole\"\n body = args.v\n }\n}\n", s.name+"_whole", s.name, s.decl)
	}
	path := filepath.Join(t.TempDir(), "shapes.hcl")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	api := echoAPI(t)
	srv := setups[1].connect(t, path, map[string]string{"base_url": api.URL}, nil)
	defer srv.c.close()
	ctx := testCtx(t)
	for _, s := range argShapes {
		var sent any
		if err := json.Unmarshal([]byte(s.value), &sent); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for tool, want := range map[string]any{s.name: map[string]any{"v": sent}, s.name + "_whole": sent} {
			res, err := srv.c.callTool(ctx, tool, map[string]any{"v": sent})
			reqs := api.take()
			if err != nil || res.IsError || len(reqs) != 1 {
				t.Errorf("%s %s: %+v, %v, %d requests; want one request", tool, s.value, res, err, len(reqs))
				continue
			}
			var got any
			if err := json.Unmarshal([]byte(reqs[0].Body), &got); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: the API received %s, want %s", tool, s.value, reqs[0].Body, mustMarshal(want))
			}
		}
	}
	srv.wire.verify(t)
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// unnormalised are strings that Unicode normalisation (NFC) would change:
// a decomposed é, the ohm sign, a compatibility ideograph, Hangul jamo.
var unnormalised = []string{"e\u0301", "\u2126", "\uF900", "\u1100\u1161\u11A8"}

const exactCfg = `
variable "base_url" {
  type = string
}
backend "http" "api" {
  base_url = var.base_url
}
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
backend "shell" "sh" {
}
tool "http_exact" {
  description = "Sends x everywhere."
  arg "x" {
    type       = string
    max_length = 3
  }
  http "api" {
    method = "POST"
    path   = "/items/${args.x}"
    query  = { q = args.x, t = "a/${args.x}" }
    body   = { x = args.x, t = "a/${args.x}" }
  }
}
tool "sql_exact" {
  description = "Echoes x's bytes."
  arg "x" {
    type = string
  }
  sql "db" {
    query = "SELECT hex(${args.x}) AS h, hex(${"a/${args.x}"}) AS t"
  }
  result {
    text = "{{ rows[0].h }} {{ rows[0].t }}"
  }
}
tool "shell_exact" {
  description = "Echoes x's bytes."
  arg "x" {
    type = string
  }
  shell {
    backend = "sh"
    command = ["od", "-An", "-tx1", "-v"]
    stdin   = "a/${args.x}"
  }
}
tool "argv_exact" {
  description = "Prints x."
  arg "x" {
    type = string
  }
  shell {
    backend = "sh"
    command = ["printf", "%s", "a/${args.x}"]
  }
}
resource_template "echo" {
  uri_template = "echo://{x}"
  name         = "echo"
  mime_type    = "text/plain"
  text         = "a/${args.x}"
}
tool "pick" {
  description = "Picks."
  arg "who" {
    type = string
    enum = ["👩‍💻", "🏳️‍🌈"]
  }
  result {
    text = "args.who"
  }
}
`

// TestHostileArgumentBytes: a string argument reaches every kind of
// backend with the bytes the client sent, not normalised (NFC): HTTP path,
// query and body, an SQL parameter (SQLite's hex() of it), a command's
// stdin and argv, a template resource; directly and inside a string
// template. max_length counts what the backend gets.
func TestHostileArgumentBytes(t *testing.T) {
	requireSchemas(t)
	path := filepath.Join(t.TempDir(), "exact.hcl")
	if err := os.WriteFile(path, []byte(exactCfg), 0o644); err != nil {
		t.Fatal(err)
	}
	api := echoAPI(t)
	srv := setups[1].connect(t, path, map[string]string{"base_url": api.URL}, nil)
	defer srv.c.close()
	ctx := testCtx(t)
	for _, x := range unnormalised {
		if res, err := srv.c.callTool(ctx, "http_exact", map[string]any{"x": x}); err != nil || res.IsError {
			t.Fatalf("http_exact %+q: %+v, %v", x, res, err)
		}
		reqs := api.take()
		if len(reqs) != 1 {
			t.Fatalf("http_exact %+q: %d requests", x, len(reqs))
		}
		r := reqs[0]
		if p, _ := url.PathUnescape(strings.TrimPrefix(r.Path, "/items/")); p != x {
			t.Errorf("path for %+q: %+q (%s)", x, p, r.Path)
		}
		q, _ := url.ParseQuery(r.RawQuery)
		if q.Get("q") != x || q.Get("t") != "a/"+x {
			t.Errorf("query for %+q: %+q, %+q", x, q.Get("q"), q.Get("t"))
		}
		var body map[string]string
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil || body["x"] != x || body["t"] != "a/"+x {
			t.Errorf("body for %+q: %+q", x, body)
		}
		wantHex := strings.ToUpper(hex.EncodeToString([]byte(x)) + " " + hex.EncodeToString([]byte("a/"+x)))
		if res, err := srv.c.callTool(ctx, "sql_exact", map[string]any{"x": x}); err != nil || res.Text != wantHex {
			t.Errorf("sql_exact %+q: %+v, %v; want %s", x, res, err, wantHex)
		}
		res, err := srv.c.callTool(ctx, "shell_exact", map[string]any{"x": x})
		if got := strings.Join(strings.Fields(res.Text), ""); err != nil || got != hex.EncodeToString([]byte("a/"+x)) {
			t.Errorf("shell_exact %+q: %+v, %v; want the bytes %x", x, res, err, "a/"+x)
		}
		if res, err := srv.c.callTool(ctx, "argv_exact", map[string]any{"x": x}); err != nil || res.Text != "a/"+x {
			t.Errorf("argv_exact %+q: %+q, %v", x, res.Text, err)
		}
		if text, _, err := srv.c.readResource(ctx, "echo://"+url.PathEscape(x)); err != nil || text != "a/"+x {
			t.Errorf("echo://%+q: %+q, %v", x, text, err)
		}
	}
	// max_length = 3 counts the four code points the backend would get.
	if res, err := srv.c.callTool(ctx, "http_exact", map[string]any{"x": "e\u0301e\u0301"}); err != nil || !res.IsError {
		t.Errorf("4 code points under max_length 3: %+v, %v; want refused", res, err)
	}
	// An enum error shows emoji sequences as they are, not \u200d.
	res, err := srv.c.callTool(ctx, "pick", map[string]any{"who": "x"})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "'👩‍💻', '🏳️‍🌈'") || strings.Contains(res.Text, `\u`) {
		t.Errorf("pick x: %+v, %v; want the allowed values written as they are", res, err)
	}
	if res, err := srv.c.callTool(ctx, "pick", map[string]any{"who": "👩‍💻"}); err != nil || res.Text != "👩‍💻" {
		t.Errorf("pick 👩‍💻: %+v, %v", res, err)
	}
	srv.wire.verify(t)
}
