package lsp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// document is one file the editor has open.
type document struct {
	uri     string
	path    string
	version int
	text    *text
}

// documents are the open files, by path: the overlay the loader reads
// before the disk.
type documents struct {
	mu     sync.Mutex
	byPath map[string]*document
}

func newDocuments() *documents { return &documents{byPath: map[string]*document{}} }

func (d *documents) get(path string) *document {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.byPath[path]
}

// overlay is a copy of the open files' texts, for one check.
func (d *documents) overlay() map[string][]byte {
	out, _ := d.snapshot()
	return out
}

// snapshot is overlay with the version of each text, so that what a
// check found is published for the version it read.
func (d *documents) snapshot() (map[string][]byte, map[string]int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	texts := make(map[string][]byte, len(d.byPath))
	versions := make(map[string]int, len(d.byPath))
	for p, doc := range d.byPath {
		texts[p] = []byte(doc.text.src)
		versions[p] = doc.version
	}
	return texts, versions
}

// uriOf is the URI the client named path with, so that what we publish
// matches its own spelling of the URI; a file it never opened gets ours.
func (d *documents) uriOf(path string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if doc, ok := d.byPath[path]; ok {
		return doc.uri
	}
	return pathToURI(path)
}

func (d *documents) paths() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Sorted(maps.Keys(d.byPath))
}

type textDocumentItem struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
	Text    string `json:"text"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

// documentEvent applies didOpen, didChange, didClose or didSave, and
// schedules the check of the configuration the file belongs to.
func (s *Server) documentEvent(method string, params json.RawMessage) error {
	var p struct {
		TextDocument   json.RawMessage `json:"textDocument"`
		ContentChanges []contentChange `json:"contentChanges"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	var item textDocumentItem
	if err := json.Unmarshal(p.TextDocument, &item); err != nil {
		return err
	}
	path := uriToPath(item.URI)
	if path == "" {
		return fmt.Errorf("%s is not a file: URI", item.URI)
	}
	d := s.docs
	d.mu.Lock()
	switch method {
	case "textDocument/didOpen":
		d.byPath[path] = &document{uri: item.URI, path: path, version: item.Version, text: newText(item.Text)}
	case "textDocument/didChange":
		doc, ok := d.byPath[path]
		if !ok {
			d.mu.Unlock()
			return fmt.Errorf("a change of %s, which is not open", item.URI)
		}
		src, err := apply(doc.text, p.ContentChanges)
		if err != nil {
			d.mu.Unlock()
			return err
		}
		// A new document, not an edited one: a request running on the
		// old text keeps a consistent view of it.
		d.byPath[path] = &document{uri: doc.uri, path: path, version: item.Version, text: newText(src)}
	case "textDocument/didClose":
		delete(d.byPath, path)
	}
	d.mu.Unlock()
	s.diag.changed(path, method == "textDocument/didClose")
	return nil
}
