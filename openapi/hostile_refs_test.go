//go:build unix

package openapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// refDoc is a document whose one parameter's schema is the reference ref.
func refDoc(ref string) string {
	return `openapi: 3.0.0
info: {title: Refs, version: '1'}
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - name: code
          in: query
          schema: {$ref: '` + ref + `'}
`
}

const outsideSchema = "components:\n  schemas:\n    Code: {type: string, enum: [OUTSIDE-SECRET]}\n"

// parseGuarded parses with a guard against a hang (a named pipe opened
// for reading waits for a writer forever): the test fails rather than
// waiting for the test binary's timeout.
func parseGuarded(t *testing.T, path string) (*API, error) {
	t.Helper()
	type result struct {
		api *API
		err error
	}
	done := make(chan result, 1)
	go func() {
		src, err := Read(context.Background(), path, 0, nil)
		if err != nil {
			done <- result{nil, err}
			return
		}
		api, err := Parse(src)
		done <- result{api, err}
	}()
	select {
	case r := <-done:
		return r.api, r.err
	case <-time.After(time.Minute):
		t.Fatalf("importing %s did not return: a file was opened that never ends", path)
		return nil, nil
	}
}

// TestHostileRefsOutsideFolder: a file document may refer to files in its
// folder and below only. "../", an absolute path, a symbolic link leading
// out and a named pipe outside are each refused with an error naming the
// reference, and no text of the outside file reaches the output; a pipe
// inside the folder is refused without waiting; a file below the folder
// is read.
func TestHostileRefsOutsideFolder(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "specs")
	if err := os.MkdirAll(filepath.Join(dir, "common"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(top, "outside.yaml")
	write(t, outside, outsideSchema)
	if err := os.Symlink(outside, filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(top, "pipe.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "inpipe.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "common", "codes.yaml"), strings.ReplaceAll(outsideSchema, "OUTSIDE-SECRET", "BELOW"))

	cases := []struct{ name, ref, want string }{
		{"parent", "../outside.yaml#/components/schemas/Code", "outside the document's folder"},
		{"absolute", outside + "#/components/schemas/Code", "outside the document's folder"},
		{"symlink", "link.yaml#/components/schemas/Code", "symbolic link leading outside"},
		{"pipe outside", "../pipe.yaml#/components/schemas/Code", "outside the document's folder"},
		{"pipe inside", "inpipe.yaml#/components/schemas/Code", "not a regular file"},
		{"deep parent", "common/../../outside.yaml#/components/schemas/Code", "outside the document's folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".yaml")
			write(t, doc, refDoc(c.ref))
			api, err := parseGuarded(t, doc)
			if err == nil {
				out := Generate(api, api.Operations, Options{Source: "doc.yaml"})
				t.Fatalf("imported; want a refusal. Outside text copied: %v\n%s", strings.Contains(string(out), "OUTSIDE-SECRET"), out)
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "OUTSIDE-SECRET") {
				t.Errorf("error %q; want it to say %q", err, c.want)
			}
		})
	}

	t.Run("below", func(t *testing.T) {
		doc := filepath.Join(dir, "below.yaml")
		write(t, doc, refDoc("common/codes.yaml#/components/schemas/Code"))
		api, err := parseGuarded(t, doc)
		if err != nil {
			t.Fatal(err)
		}
		out := Generate(api, api.Operations, Options{Source: "below.yaml"})
		checkConfig(t, "below.yaml", out)
		if !strings.Contains(string(out), `["BELOW"]`) {
			t.Errorf("the file below the folder was not read:\n%s", out)
		}
	})
}

// TestHostileDocumentPipe: the document itself being a named pipe is
// refused at once rather than waited on.
func TestHostileDocumentPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "doc.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := parseGuarded(t, fifo)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a named pipe as the document: %v", err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileRefRedirectsOffHost: a URL document's reference to a file
// beside it that redirects to another host is refused, as is the document
// URL redirecting to another host; the other host gets no request. A
// redirect on the same host is still followed.
func TestHostileRefRedirectsOffHost(t *testing.T) {
	var foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		w.Write([]byte(outsideSchema))
	}))
	defer foreign.Close()
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	mux.HandleFunc("/specs/off.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(refDoc("common.yaml#/components/schemas/Code")))
	})
	mux.HandleFunc("/specs/common.yaml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, foreign.URL+"/common.yaml", http.StatusFound)
	})
	mux.HandleFunc("/specs/moved.yaml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, foreign.URL+"/doc.yaml", http.StatusFound)
	})
	mux.HandleFunc("/specs/near.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(refDoc("old/codes.yaml#/components/schemas/Code")))
	})
	mux.HandleFunc("/specs/old/codes.yaml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/specs/codes.yaml", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/specs/codes.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.ReplaceAll(outsideSchema, "OUTSIDE-SECRET", "NEAR")))
	})

	src, err := Read(context.Background(), ts.URL+"/specs/off.yaml", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Parse(src)
	if err == nil {
		t.Errorf("a reference redirected to another host was imported:\n%s", Generate(api, api.Operations, Options{Source: "off.yaml"}))
	} else if !strings.Contains(err.Error(), "not on "+ts.URL) {
		t.Errorf("error %q; want it to say the redirect left %s", err, ts.URL)
	}

	_, err = Read(context.Background(), ts.URL+"/specs/moved.yaml", 0, nil)
	if err == nil || !strings.Contains(err.Error(), "not on "+ts.URL) {
		t.Errorf("the document redirected to another host: %v", err)
	}
	if n := foreignHits.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}

	src, err = Read(context.Background(), ts.URL+"/specs/near.yaml", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err = Parse(src)
	if err != nil {
		t.Fatalf("a redirect on the same host: %v", err)
	}
	if out := Generate(api, api.Operations, Options{Source: "near.yaml"}); !strings.Contains(string(out), `["NEAR"]`) {
		t.Errorf("the same-host redirect was not followed:\n%s", out)
	}
}
