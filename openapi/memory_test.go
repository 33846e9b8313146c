package openapi

import (
	"context"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
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
	// libopenapi's own goroutines may still hold the index for a moment
	// after the model is built; a reference kept by the API never goes.
	for range 100 {
		if runtime.GC(); idx.Value() == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
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

// TestParseCollectsTheModel: Parse does not leave libopenapi's model of a
// large document for the collector to find only once the heap has doubled
// again: when it returns, the last collection has seen the model go, and
// what is live is the API alone (about 6 MB for GitHub's description,
// whose model is over 200 MB).
func TestParseCollectsTheModel(t *testing.T) {
	src, err := Read(context.Background(), githubDoc(t), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if live := sample[0].Value.Uint64(); live > 64<<20 {
		t.Errorf("%d MB live at the last collection when Parse returns: the parser's model was not collected", live>>20)
	}
	runtime.KeepAlive(api)
	runtime.KeepAlive(src)
}
