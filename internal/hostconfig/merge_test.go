package hostconfig

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

var orders = Entry{Command: "/opt/bin/mcpdecl", Args: []string{"serve", "/srv/orders.hcl"}}

func merge(t *testing.T, src string, keys []string, force bool) *Result {
	t.Helper()
	res, err := Merge([]byte(src), keys, "orders", orders, force)
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	return res
}

// TestMergeKeepsEveryOtherByte: other servers, unknown keys, comments,
// odd spacing and key order stay exactly as they were; only the new
// member is inserted.
func TestMergeKeepsEveryOtherByte(t *testing.T) {
	src := `{
    // the user's own notes
    "theme":   "dark",
    "mcpServers": {
        "weather": {"command": "npx", "args": ["-y", "weather"], "env": {"K": "v"}}
    },
    "zz": [1, 2.50, true, null]
}
`
	got := string(merge(t, src, []string{"mcpServers"}, false).New)
	want := `{
    // the user's own notes
    "theme":   "dark",
    "mcpServers": {
        "weather": {"command": "npx", "args": ["-y", "weather"], "env": {"K": "v"}},
        "orders": {
            "command": "/opt/bin/mcpdecl",
            "args": [
                "serve",
                "/srv/orders.hcl"
            ]
        }
    },
    "zz": [1, 2.50, true, null]
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestMergeCreates(t *testing.T) {
	for name, tc := range map[string]struct {
		src  string
		keys []string
		want string
	}{
		"empty file": {"", []string{"servers"},
			"{\n  \"servers\": {\n    \"orders\": {\n      \"command\": \"/opt/bin/mcpdecl\",\n      \"args\": [\n        \"serve\",\n        \"/srv/orders.hcl\"\n      ]\n    }\n  }\n}\n"},
		"empty object": {"{}\n", []string{"servers"},
			"{\n  \"servers\": {\n    \"orders\": {\n      \"command\": \"/opt/bin/mcpdecl\",\n      \"args\": [\n        \"serve\",\n        \"/srv/orders.hcl\"\n      ]\n    }\n  }\n}\n"},
		"tabs and a trailing comma": {"{\n\t\"inputs\": [],\n}\n", []string{"servers"},
			"{\n\t\"inputs\": [],\n\t\"servers\": {\n\t\t\"orders\": {\n\t\t\t\"command\": \"/opt/bin/mcpdecl\",\n\t\t\t\"args\": [\n\t\t\t\t\"serve\",\n\t\t\t\t\"/srv/orders.hcl\"\n\t\t\t]\n\t\t}\n\t},\n}\n"},
		"nested keys made": {`{"projects": {"/p": {"allowedTools": []}}}`, []string{"projects", "/p", "mcpServers"},
			`{"projects": {"/p": {"allowedTools": [],
  "mcpServers": {
    "orders": {
      "command": "/opt/bin/mcpdecl",
      "args": [
        "serve",
        "/srv/orders.hcl"
      ]
    }
  }}}}`},
		"only a comment inside": {"{\n  \"servers\": { /* none yet */ }\n}", []string{"servers"},
			"{\n  \"servers\": {\n    \"orders\": {\n      \"command\": \"/opt/bin/mcpdecl\",\n      \"args\": [\n        \"serve\",\n        \"/srv/orders.hcl\"\n      ]\n    } /* none yet */ }\n}"},
	} {
		t.Run(name, func(t *testing.T) {
			got := string(merge(t, tc.src, tc.keys, false).New)
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if _, err := parse([]byte(got)); err != nil {
				t.Errorf("the result does not parse: %v", err)
			}
		})
	}
}

// TestMergeResultIsStrictJSON: a strict JSON file stays strict JSON
// (Claude Desktop reads its file with JSON.parse).
func TestMergeResultIsStrictJSON(t *testing.T) {
	for _, src := range []string{"", "{}", `{"mcpServers": {}}`, `{"a": 1, "mcpServers": {"x": {"command": "y"}}}`} {
		got := merge(t, src, []string{"mcpServers"}, false).New
		var v struct{ MCPServers map[string]any }
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatalf("%q gave invalid JSON: %v\n%s", src, err, got)
		}
		if v.MCPServers["orders"] == nil {
			t.Errorf("%q: no orders entry in\n%s", src, got)
		}
	}
}

func TestMergeSameEntryIsUnchanged(t *testing.T) {
	first := merge(t, `{"mcpServers": {"a": {"command": "b"}}}`, []string{"mcpServers"}, false)
	again := merge(t, string(first.New), []string{"mcpServers"}, false)
	if !again.Unchanged || string(again.New) != string(first.New) {
		t.Errorf("merging the same entry again changed the file:\n%s", again.New)
	}
}

// TestMergeReplacesOurOwnEntry: the same command with other arguments
// (another path of the configuration) is an update, in place.
func TestMergeReplacesOurOwnEntry(t *testing.T) {
	src := `{
  "mcpServers": {
    "orders": { "command": "/opt/bin/mcpdecl", "args": ["serve", "/old.hcl"] },
    "other": { "command": "x" }
  }
}`
	res := merge(t, src, []string{"mcpServers"}, false)
	if !res.Replaced {
		t.Fatal("not reported as replaced")
	}
	want := `{
  "mcpServers": {
    "orders": {
      "command": "/opt/bin/mcpdecl",
      "args": [
        "serve",
        "/srv/orders.hcl"
      ]
    },
    "other": { "command": "x" }
  }
}`
	if string(res.New) != want {
		t.Errorf("got:\n%s\nwant:\n%s", res.New, want)
	}
}

func TestMergeRefusesAnotherCommand(t *testing.T) {
	src := `{"mcpServers": {"orders": {"command": "node", "args": ["orders.js"]}}}`
	_, err := Merge([]byte(src), []string{"mcpServers"}, "orders", orders, false)
	var conflict *ConflictError
	if !errors.As(err, &conflict) || conflict.Command != "node" {
		t.Fatalf("got %v, want a conflict with node", err)
	}
	res := merge(t, src, []string{"mcpServers"}, true)
	if !res.Replaced || !strings.Contains(string(res.New), "/opt/bin/mcpdecl") || strings.Contains(string(res.New), "node") {
		t.Errorf("--force did not replace the entry:\n%s", res.New)
	}
}

func TestMergeRefusesWhatItCannotEdit(t *testing.T) {
	for src, want := range map[string]string{
		`{"mcpServers": {"a": 1,}`:      "line 1, column 25: expected a quoted key or '}'",
		"{\n  \"a\": tru\n}":            "line 2, column 8: expected a value",
		`[1, 2]`:                        "does not hold a JSON object",
		`{"mcpServers": []}`:            `"mcpServers" is not a JSON object`,
		`{"a": "b" "c": 1}`:             "expected ',' or '}'",
		"{\"a\": 1} /* unterminated":    "unterminated comment",
		"{\"a\": \"line\nbreak\"}":      "does not end on its line",
		`{"mcpServers": {}} {"x": 1}`:   "after the document",
		`{"a": [1 2]}`:                  "expected ',' or ']'",
		`{"a": 1, "mcpServers": "str"}`: `"mcpServers" is not a JSON object`,
	} {
		_, err := Merge([]byte(src), []string{"mcpServers"}, "orders", orders, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", src, err, want)
		}
	}
}

// TestParseAgreesWithEncodingJSON: on strict JSON the parser's values are
// encoding/json's.
func TestParseAgreesWithEncodingJSON(t *testing.T) {
	src := `{"a": [1, -2.5e3, "x\"y\u00e9", {"b": null}], "c": {}, "d": false, "a": "later wins"}`
	n, err := parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal([]byte(src), &want)
	got, _ := json.Marshal(n.value)
	w, _ := json.Marshal(want)
	if string(got) != string(w) {
		t.Errorf("got %s, want %s", got, w)
	}
}
