package langschema_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/langschema"
)

var update = flag.Bool("update", false, "rewrite editors/schema/mcpdecl.schema.json")

const schemaFile = "../editors/schema/mcpdecl.schema.json"

// TestSchemaFileIsCurrent keeps the committed schema, which editors read,
// equal to what `mcpdecl schema` prints.
func TestSchemaFileIsCurrent(t *testing.T) {
	want := langschema.JSONSchema()
	if *update {
		if err := os.WriteFile(schemaFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./langschema -update (or mcpdecl schema > %s)", schemaFile, strings.TrimPrefix(schemaFile, "../"))
	}
}

func compiled(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(langschema.JSONSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(langschema.SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(langschema.SchemaID) // also checks it against the draft-07 meta-schema
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, text []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

// TestExamplesInJSONSyntaxValidate writes every example (and its tests) in
// the JSON syntax, checks that mcpdecl reads the result without an error,
// so the conversion is right, and that the schema accepts it.
func TestExamplesInJSONSyntaxValidate(t *testing.T) {
	s := compiled(t)
	files, _ := filepath.Glob("../examples/*.hcl")
	if len(files) < 10 {
		t.Fatalf("found %d examples", len(files))
	}
	dir := t.TempDir()
	entries, _ := os.ReadDir("../examples")
	for _, e := range entries { // the files the examples read (policy.md, orders.sql)
		abs, _ := filepath.Abs(filepath.Join("../examples", e.Name()))
		if err := os.Symlink(abs, filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, err := toJSONSyntax(src, file)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, filepath.Base(file)+".json")
			if err := os.WriteFile(name, out, 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, diags := lang.LoadWith(lang.LoadOptions{Tests: true}, name)
			if diags.HasErrors() {
				t.Fatalf("the JSON form does not load, so the conversion is wrong: %s\n%s", diags.Error(), out)
			}
			if len(cfg.Tools)+len(cfg.Tests)+len(cfg.Resources)+len(cfg.Prompts) == 0 {
				t.Fatalf("the JSON form holds nothing:\n%s", out)
			}
			if err := validate(t, s, out); err != nil {
				t.Errorf("the schema refuses %s: %v", name, err)
			}
		})
	}
	for _, file := range []string{"../testdata/valid/json_syntax.hcl.json"} {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(t, s, text); err != nil {
			t.Errorf("the schema refuses %s: %v", file, err)
		}
	}
}

// TestSchemaRefusesWhatLoadRefuses: the mistakes lang reports are the
// schema's too, and what the JSON syntax allows (several blocks as an
// array, comments) it allows.
func TestSchemaRefusesWhatLoadRefuses(t *testing.T) {
	s := compiled(t)
	for _, c := range []struct{ name, text string }{
		{"misspelt attribute", `{"tool": {"t": {"descripton": "x", "shell": {"command": ["true"]}}}}`},
		{"unknown block", `{"tols": {"t": {}}}`},
		{"missing required attribute", `{"tool": {"t": {"sql": {"db": {"max_rows": 3}}}}}`},
		{"backend kind unknown", `{"backend": {"grpc": {"b": {}}}}`},
		{"attribute of another backend kind", `{"backend": {"sql": {"db": {"driver": "sqlite", "dsn": "x", "base_url": "http://a"}}}}`},
		{"misspelt attribute in an adapter's nested block", `{"backend": {"http": {"a": {"base_url": "http://a", "retry": {"atempts": 2}}}}}`},
	} {
		if err := validate(t, s, []byte(c.text)); err == nil {
			t.Errorf("%s: the schema accepts %s", c.name, c.text)
		}
	}
	for _, c := range []struct{ name, text string }{
		{"blocks as an array", `{"tool": [{"a": {"shell": {"command": ["true"]}}}, {"b": {"result": {"text": "'x'"}}}]}`},
		{"labels then an array of bodies", `{"tool": {"a": [{"shell": {"command": ["true"]}}]}}`},
		{"a comment", `{"//": "note", "tool": {"a": {"//": "why", "result": {"text": "'x'"}}}}`},
		{"locals of any name", `{"locals": {"anything": 1, "else": "x"}}`},
		{"property in property", `{"tool": {"a": {"arg": {"o": {"type": "object", "property": {"p": {"type": "object", "property": {"q": {"minimum": 1}}}}}}, "result": {"text": "'x'"}}}}`},
		{"a backend's lint block", `{"backend": {"http": {"a": {"base_url": "http://a", "lint": {"ignore": ["MCPD101"]}}}}}`},
	} {
		if err := validate(t, s, []byte(c.text)); err != nil {
			t.Errorf("%s: the schema refuses %s: %v", c.name, c.text, err)
		}
	}
}

// TestSchemaDescribesFromTheReference: descriptions are langref's text.
func TestSchemaDescribesFromTheReference(t *testing.T) {
	text := string(langschema.JSONSchema())
	for _, want := range []string{
		`"markdownDescription": "Condition over the answer and ` + "`args`" + `, e.g. ` + "`\\\"status == 404\\\"`",
		`"description": "Condition over the answer and args, e.g. \"status == 404\".`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the schema lacks %s", want)
		}
	}
}
