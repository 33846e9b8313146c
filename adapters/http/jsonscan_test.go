package httpadapter

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// scanJSONCases are answers at the edges of JSON's grammar.
var scanJSONCases = []string{
	``, ` `, `{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `{"a" :1}`, `{"a": 1}`, `{"a":1 }`, ` {"a":1}` + "\n",
	`{"a":1,}`, `[1,]`, `[,1]`, `{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `[1,2]`, `[1 , 2]`, `"x"`, `"x`, `"\u00e9"`,
	`"\u00g9"`, `"\q"`, "\"a\tb\"", `"a b"`, `"\"\\\/\b\f\n\r\t"`, `true`, `tru`, `truex`, `false`, `null`, `nul`,
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `-1.5e3`, `[-]`, `{"a":[1,{"b":null}]}`,
	"{\n  \"a\": [\n    1,\n    2\n  ]\n}\n", "[1]\n\n", "\n[1]", `[1]]`, `[[1]`, `{"a":1}}`, `}`, `]`, "\xff", "\"\xff\"",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200),
}

func TestScanJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range scanJSONCases {
		checkScanJSON(t, s)
	}
}

func FuzzScanJSON(f *testing.F) {
	for _, s := range scanJSONCases {
		f.Add(s)
	}
	f.Fuzz(checkScanJSON)
}

// checkScanJSON holds scanJSON to json.Valid, and compactJSON to
// json.Compact wherever compactText compacts.
func checkScanJSON(t *testing.T, s string) {
	valid, _ := scanJSON(s)
	if want := json.Valid([]byte(s)); valid != want {
		t.Fatalf("scanJSON(%q) valid = %v, json.Valid says %v", s, valid, want)
	}
	text, ok := compactJSON(s)
	if ok != valid {
		t.Fatalf("compactJSON(%q) ok = %v, want %v", s, ok, valid)
	}
	switch {
	case !valid:
		if text != s {
			t.Fatalf("compactJSON(%q) changed an invalid answer to %q", s, text)
		}
	case strings.IndexByte(s, '\n') < 0:
		if text != s {
			t.Fatalf("compactJSON(%q) = %q, want it as it came (one line)", s, text)
		}
	default:
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if text != buf.String() {
			t.Fatalf("compactJSON(%q) = %q, json.Compact gives %q", s, text, buf.String())
		}
	}
}
