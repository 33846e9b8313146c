package openapi

import (
	"strings"
	"testing"
)

// TestUnreadPartsAreNotResolved: responses and the values of examples are
// taken out before libopenapi indexes the document (pruneUnread), so a
// reference there, which the import would never follow, neither fails
// the import nor adds a note; the operation is read as before.
func TestUnreadPartsAreNotResolved(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
	  "paths": {"/items": {"post": {"operationId": "create",
	    "requestBody": {"content": {"application/json": {"schema": {"type": "object",
	      "properties": {"name": {"type": "string"}}},
	      "examples": {"one": {"$ref": "#/components/examples/one"}}}}},
	    "responses": {"200": {"description": "ok", "content": {"application/json": {
	      "schema": {"$ref": "../outside.json#/Item"}}}},
	      "404": {"$ref": "#/components/responses/Missing"}}}}},
	  "components": {"examples": {"one": {"summary": "one", "value": {"$ref": "../secret.json"}}}}}`
	api, err := parseBytes(t, "unread.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Notes) > 0 {
		t.Errorf("notes about parts not imported: %q", api.Notes)
	}
	if len(api.Operations) != 1 || api.Operations[0].Body == nil || len(api.Operations[0].Body.Schema.Properties) != 1 {
		t.Fatalf("the operation is not read as written: %+v", api.Operations)
	}
	out := string(Generate(api, api.Operations, Options{Source: "unread.json"}))
	if strings.Contains(out, "outside") || strings.Contains(out, "secret") || strings.Contains(out, "Missing") {
		t.Errorf("the output mentions what is not imported:\n%s", out)
	}
}
