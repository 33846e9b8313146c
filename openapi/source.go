package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/index"
)

// DefaultMaxBytes is the largest document read unless the caller says
// otherwise: GitHub's whole REST description is 13 MB.
const DefaultMaxBytes = 32 << 20

// Source is a document as read, with where it came from: relative
// references and relative server URLs are resolved against Location.
type Source struct {
	Data     []byte
	Location string // a file path or an http(s) URL
	IsURL    bool

	maxBytes int64        // for the files a document read over HTTP refers to
	client   *http.Client // nil: a default client
}

// Read reads the document at loc, a file path or an http(s) URL, refusing
// one larger than maxBytes before reading all of it.
func Read(ctx context.Context, loc string, maxBytes int64, client *http.Client) (*Source, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if IsURL(loc) {
		data, err := fetch(ctx, loc, maxBytes, client)
		if err != nil {
			return nil, err
		}
		return &Source{Data: data, Location: loc, IsURL: true, maxBytes: maxBytes, client: client}, nil
	}
	f, err := os.Open(loc)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > maxBytes {
		return nil, tooLarge(loc, maxBytes)
	}
	data, err := readCapped(f, loc, maxBytes)
	if err != nil {
		return nil, err
	}
	return &Source{Data: data, Location: loc}, nil
}

// IsURL says whether a document location is read over HTTP.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

func tooLarge(loc string, maxBytes int64) error {
	return fmt.Errorf("%s is larger than %d bytes: raise --max-size if you mean to import it", loc, maxBytes)
}

func readCapped(r io.Reader, loc string, maxBytes int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", loc, err)
	}
	if int64(len(data)) > maxBytes {
		return nil, tooLarge(loc, maxBytes)
	}
	return data, nil
}

// fetch gets a document over HTTP. Redirects are followed to http and
// https URLs only (at most 5), and the whole fetch has one minute.
func fetch(ctx context.Context, loc string, maxBytes int64, client *http.Client) ([]byte, error) {
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirected to %s URL %q: only http and https documents are read", req.URL.Scheme, req.URL.Redacted())
		}
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json, application/yaml;q=0.9, */*;q=0.5")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", loc, unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("fetching %s: the server answered %s", loc, resp.Status)
	}
	if resp.ContentLength > maxBytes {
		return nil, tooLarge(loc, maxBytes)
	}
	return readCapped(resp.Body, loc, maxBytes)
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Parse reads the document into an API. Relative file references are
// followed next to a file; no reference is fetched over the network.
func Parse(src *Source) (api *API, err error) {
	// libopenapi is a large library fed with arbitrary input: should it
	// panic on some document, the user gets an error naming the document
	// rather than a crash.
	defer func() {
		if r := recover(); r != nil {
			api, err = nil, fmt.Errorf("%s could not be read: the OpenAPI parser failed (%v)", src.Location, r)
		}
	}()
	cfg := datamodel.NewDocumentConfiguration()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.IgnorePolymorphicCircularReferences = true
	cfg.IgnoreArrayCircularReferences = true
	if src.IsURL {
		sameOriginRefs(cfg, src)
	} else {
		abs, _ := filepath.Abs(src.Location)
		cfg.BasePath = filepath.Dir(abs)
		cfg.SpecFilePath = filepath.Base(abs)
		cfg.AllowFileReferences = true
	}
	if err := sniff(src); err != nil {
		return nil, err
	}
	doc, err := libopenapi.NewDocumentWithConfiguration(src.Data, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s is not a readable OpenAPI document: %s", src.Location, firstLine(err.Error()))
	}
	info := doc.GetSpecInfo()
	switch {
	case info.SpecFormat == datamodel.OAS2 && strings.HasPrefix(info.Version, "2."):
	case info.SpecFormat != datamodel.OAS2 && strings.HasPrefix(info.Version, "3."):
	default:
		return nil, fmt.Errorf("%s is version %q, which is not imported: import reads Swagger 2.0 and OpenAPI 3.0 and 3.1", src.Location, info.Version)
	}
	if info.SpecFormat == datamodel.OAS2 {
		m, err := doc.BuildV2Model()
		if m == nil {
			return nil, buildError(src.Location, err)
		}
		api = fromV2(&m.Model)
		noteBuildErrors(api, err)
	} else {
		m, err := doc.BuildV3Model()
		if m == nil {
			return nil, buildError(src.Location, err)
		}
		api = fromV3(&m.Model, info.Version)
		noteBuildErrors(api, err)
	}
	if src.IsURL {
		resolveServers(api, src.Location)
	}
	return api, nil
}

// sniff refuses what is not an OpenAPI document before the parser sees
// it, with a message that says what was expected.
func sniff(src *Source) error {
	head := src.Data
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	if len(strings.TrimSpace(string(head))) == 0 {
		return fmt.Errorf("%s is empty: expected an OpenAPI (3.x) or Swagger (2.0) document", src.Location)
	}
	if !strings.Contains(string(src.Data), "openapi") && !strings.Contains(string(src.Data), "swagger") {
		return fmt.Errorf("%s is not an OpenAPI document: it has no \"openapi\" or \"swagger\" field", src.Location)
	}
	return nil
}

func buildError(loc string, err error) error {
	var re *index.ResolvingError
	if errors.As(err, &re) && re.CircularReference == nil && strings.Contains(re.Error(), "$ref") {
		return fmt.Errorf("%s: a reference cannot be resolved: %s", loc, firstLine(re.Error()))
	}
	if err == nil {
		return fmt.Errorf("%s could not be read", loc)
	}
	return fmt.Errorf("%s could not be read: %s", loc, firstLine(err.Error()))
}

// resolveServers makes relative server URLs absolute against the URL the
// document was read from, as OpenAPI says they are.
func resolveServers(api *API, loc string) {
	base, err := url.Parse(loc)
	if err != nil {
		return
	}
	for i, s := range api.Servers {
		if u, err := url.Parse(s); err == nil && !u.IsAbs() {
			api.Servers[i] = base.ResolveReference(u).String()
		}
	}
	if len(api.Servers) == 0 {
		api.Servers = []string{base.ResolveReference(&url.URL{Path: "/"}).String()}
	}
}

// sameOriginRefs lets a document read over HTTP refer to files beside it:
// references are fetched from the document's own scheme, host and port
// only (with the same size cap and redirect rule), never from anywhere
// else a document names.
func sameOriginRefs(cfg *datamodel.DocumentConfiguration, src *Source) {
	base, err := url.Parse(src.Location)
	if err != nil {
		return
	}
	dir := *base
	dir.Path = path.Dir(base.Path)
	dir.RawQuery, dir.Fragment = "", ""
	cfg.BaseURL = &dir
	cfg.AllowRemoteReferences = true
	maxBytes := src.maxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	cfg.RemoteURLHandler = func(ref string) (*http.Response, error) {
		u, err := url.Parse(ref)
		if err != nil {
			return nil, err
		}
		if u.Scheme != base.Scheme || u.Host != base.Host {
			return nil, fmt.Errorf("%s is not on %s://%s, where the document is: only references beside the document are fetched", u.Redacted(), base.Scheme, base.Host)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		data, err := fetch(ctx, ref, maxBytes, src.client)
		if err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(data)), ContentLength: int64(len(data))}, nil
	}
}

// noteBuildErrors says, at the top of the file, what the parser could not
// resolve (cycles aside, which are cut where they repeat): the parts that
// use it are left out of the operations, and the reader must know.
func noteBuildErrors(api *API, err error) {
	if err == nil {
		return
	}
	var msgs []string
	for _, e := range unwrapAll(err) {
		var re *index.ResolvingError
		if errors.As(e, &re) && re.CircularReference != nil {
			continue
		}
		if m := firstLine(e.Error()); !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) > 5 {
		msgs = append(msgs[:5], fmt.Sprintf("and %d more", len(msgs)-5))
	}
	for _, m := range msgs {
		api.Notes = append(api.Notes, "Not resolved, and left out where it is used: "+m)
	}
}

func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unwrapAll(e)...)
		}
		return out
	}
	return []error{err}
}
