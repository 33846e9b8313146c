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
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/index"

	"github.com/mcpdecl/mcpdecl/internal/regularfile"
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

	maxBytes int64        // for the files a document refers to
	client   *http.Client // nil: a default client
}

// Name is how messages show the document: Location redacted.
func (s *Source) Name() string { return Redacted(s.Location) }

// Read reads the document at loc, a file path or an http(s) URL, refusing
// one larger than maxBytes before reading all of it, and a file that is
// not a regular file (a named pipe would wait for a writer forever).
func Read(ctx context.Context, loc string, maxBytes int64, client *http.Client) (*Source, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if IsURL(loc) {
		origin, err := url.Parse(loc)
		if err != nil {
			return nil, fmt.Errorf("%s is not a URL that can be read", Redacted(loc))
		}
		data, err := fetch(ctx, loc, origin, maxBytes, client)
		if err != nil {
			return nil, err
		}
		return &Source{Data: data, Location: loc, IsURL: true, maxBytes: maxBytes, client: client}, nil
	}
	f, err := regularfile.Open(loc)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > maxBytes {
		return nil, tooLarge(loc, maxBytes)
	}
	data, err := readCapped(f, loc, maxBytes)
	if err != nil {
		return nil, err
	}
	return &Source{Data: data, Location: loc, maxBytes: maxBytes}, nil
}

// IsURL says whether a document location is read over HTTP.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

func tooLarge(name string, maxBytes int64) error {
	return fmt.Errorf("%s is larger than %d bytes: raise --max-size if you mean to import it", name, maxBytes)
}

func readCapped(r io.Reader, name string, maxBytes int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(data)) > maxBytes {
		return nil, tooLarge(name, maxBytes)
	}
	return data, nil
}

// Parse reads the document into an API. References are followed to
// files in the document's folder and below (a file document) or on the
// document's own origin (a URL document); a reference anywhere else is
// refused with an error. Nesting and work are bounded first (see
// checkShape), so that a small hostile document cannot cost minutes and
// gigabytes.
func Parse(src *Source) (api *API, err error) {
	name := src.Name()
	secrets := secretsOf(src.Location)
	// libopenapi is a large library fed with arbitrary input: should it
	// panic on some document, the user gets an error naming the document
	// rather than a crash. Its messages may quote the document's URL and
	// always quote document text: both are cleaned.
	defer func() {
		if r := recover(); r != nil {
			api, err = nil, fmt.Errorf("%s could not be read: the OpenAPI parser failed (%v)", name, r)
		}
		if err != nil {
			err = errors.New(cleanLine(scrub(err.Error(), secrets)))
		}
		if api != nil {
			for i, n := range api.Notes {
				api.Notes[i] = scrub(n, secrets)
			}
			for i, n := range api.Warnings {
				api.Warnings[i] = scrub(n, secrets)
			}
		}
	}()
	if err := sniff(src); err != nil {
		return nil, err
	}
	if err := checkShape(src.Data, name); err != nil {
		return nil, err
	}
	cfg := datamodel.NewDocumentConfiguration()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.IgnorePolymorphicCircularReferences = true
	cfg.IgnoreArrayCircularReferences = true
	cfg.SkipMetadataCollection = true
	var refused func() []string
	if src.IsURL {
		refused = sameOriginRefs(cfg, src)
	} else {
		abs, _ := filepath.Abs(src.Location)
		folder, err := newFolderFS(filepath.Dir(abs), src.maxOr())
		if err != nil {
			return nil, fmt.Errorf("%s: its folder cannot be read: %w", name, err)
		}
		defer folder.Close()
		cfg.BasePath = filepath.Dir(abs)
		cfg.SpecFilePath = filepath.Base(abs)
		cfg.LocalFS = folder
		refused = folder.refusals
	}
	api, err = readModel(src.Data, cfg, refused, name)
	if err != nil {
		return nil, err
	}
	collectModel(len(src.Data))
	if src.IsURL {
		resolveServers(api, src.Location)
	}
	return api, nil
}

// readModel builds libopenapi's model of the document and reads the API
// out of it. The model lives only as long as this call: the API shares no
// memory with it (see copyOf).
func readModel(data []byte, cfg *datamodel.DocumentConfiguration, refused func() []string, name string) (*API, error) {
	doc, err := libopenapi.NewDocumentWithConfiguration(data, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s is not a readable OpenAPI document: %s", name, firstLine(err.Error()))
	}
	info := doc.GetSpecInfo()
	pruneUnread(info.RootNode)
	switch {
	case info.SpecFormat == datamodel.OAS2 && strings.HasPrefix(info.Version, "2."):
	case info.SpecFormat != datamodel.OAS2 && strings.HasPrefix(info.Version, "3."):
	default:
		return nil, fmt.Errorf("%s is version %q, which is not imported: import reads Swagger 2.0 and OpenAPI 3.0 and 3.1", name, info.Version)
	}
	var api *API
	var buildErr error
	if info.SpecFormat == datamodel.OAS2 {
		m, err := doc.BuildV2Model()
		if r := refused(); len(r) > 0 {
			return nil, refusedError(name, r)
		}
		if m == nil {
			return nil, buildError(name, err)
		}
		api, buildErr = fromV2(&m.Model, name)
		noteBuildErrors(api, err)
	} else {
		m, err := doc.BuildV3Model()
		if r := refused(); len(r) > 0 {
			return nil, refusedError(name, r)
		}
		if m == nil {
			return nil, buildError(name, err)
		}
		api, buildErr = fromV3(&m.Model, info.Version, name)
		noteBuildErrors(api, err)
	}
	if buildErr != nil {
		return nil, buildErr
	}
	// Schemas are built lazily: a reference refused while converting
	// them counts as much as one refused while indexing.
	if r := refused(); len(r) > 0 {
		return nil, refusedError(name, r)
	}
	return api, nil
}

// collectModelAbove is the document size from which Parse collects the
// model it built before returning.
const collectModelAbove = 1 << 20

// collectModel frees the model readModel built, now garbage, before the
// caller goes on. The collector would otherwise wait for the heap to
// double over the model's size, the largest the heap is live at (about
// 220 MB for GitHub's 13 MB description), before collecting it: the
// import's peak memory would be twice the model. Small documents are
// left to the collector's pace.
func collectModel(size int) {
	if size >= collectModelAbove {
		runtime.GC()
	}
}

func (s *Source) maxOr() int64 {
	if s.maxBytes <= 0 {
		return DefaultMaxBytes
	}
	return s.maxBytes
}

func refusedError(name string, refused []string) error {
	msg := refused[0]
	if len(refused) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(refused)-1)
	}
	return fmt.Errorf("%s: %s", name, msg)
}

// sniff refuses what is not an OpenAPI document before the parser sees
// it, with a message that says what was expected.
func sniff(src *Source) error {
	head := src.Data
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	if len(strings.TrimSpace(string(head))) == 0 {
		return fmt.Errorf("%s is empty: expected an OpenAPI (3.x) or Swagger (2.0) document", src.Name())
	}
	if !strings.Contains(string(src.Data), "openapi") && !strings.Contains(string(src.Data), "swagger") {
		return fmt.Errorf("%s is not an OpenAPI document: it has no \"openapi\" or \"swagger\" field", src.Name())
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
	// The document URL's credentials and query are the user's, not the
	// API's address: they must not reach base_url or a comment.
	base.User, base.RawQuery, base.ForceQuery, base.Fragment, base.RawFragment = nil, "", false, "", ""
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
// references are fetched from the document's own origin only (with the
// same size cap, each redirect hop checked by fetch), never from anywhere
// else a document names. The function returned lists the references
// refused.
func sameOriginRefs(cfg *datamodel.DocumentConfiguration, src *Source) func() []string {
	var mu sync.Mutex
	var refused []string
	refuse := func(why string) {
		mu.Lock()
		defer mu.Unlock()
		if !slices.Contains(refused, why) {
			refused = append(refused, why)
		}
	}
	list := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(refused)
	}
	base, err := url.Parse(src.Location)
	if err != nil {
		return list
	}
	dir := *base
	dir.Path = path.Dir(base.Path)
	dir.User, dir.RawQuery, dir.ForceQuery, dir.Fragment, dir.RawFragment = nil, "", false, "", ""
	cfg.BaseURL = &dir
	cfg.AllowRemoteReferences = true
	cfg.RemoteURLHandler = func(ref string) (*http.Response, error) {
		u, err := url.Parse(ref)
		if err != nil {
			return nil, err
		}
		if u.Scheme != base.Scheme || u.Host != base.Host {
			why := fmt.Sprintf("the reference %s is not on %s, where the document is: only references on the document's own host are fetched", Redacted(ref), originName(base))
			refuse(why)
			return nil, errors.New(why)
		}
		// The user's credentials for the document are sent to the same
		// host for the files beside it.
		if u.User == nil {
			u.User = base.User
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		data, err := fetch(ctx, u.String(), base, src.maxOr(), src.client)
		if err != nil {
			if strings.Contains(err.Error(), "redirected to") {
				refuse(err.Error())
			}
			return nil, err
		}
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(data)), ContentLength: int64(len(data))}, nil
	}
	return list
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
