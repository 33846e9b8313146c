package openapi

import (
	"runtime"
	"testing"
	"weak"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/index"
)

// TestAPIDoesNotHoldTheParsersModel: what the converter returns shares no
// memory with libopenapi's model, so that the parsed document and its
// index (hundreds of megabytes for GitHub's description) are garbage once
// the document is read. Every bound a schema can carry is set, since
// libopenapi's numbers point into its low-level model.
func TestAPIDoesNotHoldTheParsersModel(t *testing.T) {
	doc := []byte(`{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
	  "paths": {"/items": {"get": {"operationId": "list", "tags": ["items"],
	    "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer",
	      "minimum": 1, "maximum": 9, "multipleOf": 1, "default": 2, "enum": [1, 2]}},
	      {"name": "s", "in": "query", "schema": {"type": "string", "minLength": 1, "maxLength": 9}},
	      {"name": "l", "in": "query", "schema": {"type": "array", "minItems": 1, "maxItems": 9,
	        "items": {"type": "string"}}}]}}}}`)
	api, idx := convertKeepingIndex(t, doc)
	runtime.GC()
	if idx.Value() != nil {
		t.Error("the API read from a document keeps libopenapi's index, and with it the whole parsed document, alive")
	}
	if got := *api.Operations[0].Params[0].Schema.Minimum; got != 1 {
		t.Errorf("minimum %v, want 1", got)
	}
	runtime.KeepAlive(api)
}

// convertKeepingIndex builds libopenapi's model of doc and converts it,
// returning a weak pointer to the model's index.
func convertKeepingIndex(t *testing.T, doc []byte) (*API, weak.Pointer[index.SpecIndex]) {
	t.Helper()
	d, err := libopenapi.NewDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.BuildV3Model()
	if err != nil {
		t.Fatal(err)
	}
	api, err := fromV3(&m.Model, "3.0.3", "memory.json")
	if err != nil {
		t.Fatal(err)
	}
	return api, weak.Make(m.Model.Index)
}
