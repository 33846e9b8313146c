package main

import (
	"bytes"
	"os"
	"testing"
)

// TestSchemaPrintsTheCommittedSchema: `mcpdecl schema` prints what
// editors/schema/mcpdecl.schema.json holds (langschema's test keeps that
// file current), so the README's command rewrites it unchanged.
func TestSchemaPrintsTheCommittedSchema(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"schema"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want, err := os.ReadFile("../../editors/schema/mcpdecl.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("mcpdecl schema printed %d bytes that differ from editors/schema/mcpdecl.schema.json (%d bytes)", out.Len(), len(want))
	}
}
