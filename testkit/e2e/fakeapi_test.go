package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// recorded is one request a fake API received, exactly as it arrived.
type recorded struct {
	Method   string
	Path     string // the escaped path as sent (the request target up to '?')
	RawQuery string // the query as sent, without '?'
	Host     string
	Header   http.Header
	Body     string
}

// fakeAPI is an httptest server on 127.0.0.1 that records every request
// before answering it.
type fakeAPI struct {
	srv  *httptest.Server
	URL  string
	mu   sync.Mutex
	reqs []recorded
	// redirect is where the library API sends isbnRedirectAway.
	redirect atomic.Pointer[string]
}

func newFakeAPI(t testing.TB, h http.HandlerFunc) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		path, query, _ := strings.Cut(r.RequestURI, "?")
		f.mu.Lock()
		f.reqs = append(f.reqs, recorded{Method: r.Method, Path: path, RawQuery: query, Host: r.Host, Header: r.Header.Clone(), Body: string(body)})
		f.mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		h(w, r)
	}))
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	return f
}

// requests returns what the API received so far.
func (f *fakeAPI) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// take returns what the API received since the last take and forgets it.
func (f *fakeAPI) take() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.reqs
	f.reqs = nil
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// The library API ------------------------------------------------------------

type book struct {
	ISBN   string `json:"isbn"`
	Title  string `json:"title"`
	Author string `json:"author"`
	// Available counts the copies on the shelf (GET /books/{isbn} only).
	Available int `json:"available,omitempty"`
}

const (
	isbnNoCopies = "9780000000001" // Maps of Small Rivers: every copy is out
	isbnAtlas    = "9780000000002"
	isbnRain     = "9780000000003"
	isbnUnknown  = "9789999999999"
)

var catalogue = []book{
	{isbnNoCopies, "Maps of Small Rivers", "Ada Brook", 0},
	{isbnAtlas, "The River Atlas", "Ben Ford", 0},
	{isbnRain, "Small Gods of Rain", "Cora Lind", 0},
}

// Special search words of the library API.
const (
	queryBoom = "boom" // answers 500
	queryEcho = "echo" // answers 500 with the request's headers in the body
	// queryBadToken answers 401 naming the bearer token it was sent, as
	// some APIs do: {"error": "token <token> has expired"}.
	queryBadToken = "badtoken"
	// queryFlaky answers 503 to its first two requests, then like any
	// search; a loan for memberFlaky always answers 503.
	queryFlaky  = "flaky"
	memberFlaky = "M-flaky"
	// queryMany answers 400 books with accented titles (about 27 KB of
	// "Title by Author" text).
	queryMany = "many"
)

// More special ISBNs of the library API.
const (
	isbnRedirectAway  = "9780000000009" // GET answers 302 to f.redirect
	isbnRedirectHome  = "9780000000008" // GET answers 301 to /books/isbnAtlas
	isbnPlainConflict = isbnRain        // POST /loans answers 409 text/plain
)

// libraryAPI serves GET /books?q=&_limit=, GET /books/{isbn} and
// POST /loans like the API examples/library.hcl describes.
func libraryAPI(t testing.TB) *fakeAPI {
	var flaky atomic.Int32
	var f *fakeAPI
	f = newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		path, _, _ := strings.Cut(r.RequestURI, "?")
		if r.URL.Query().Get("q") == queryFlaky && flaky.Add(1) <= 2 {
			http.Error(w, "try again", http.StatusServiceUnavailable)
			return
		}
		switch {
		case r.Method == http.MethodGet && path == "/books":
			q := r.URL.Query().Get("q")
			switch q {
			case queryBoom:
				http.Error(w, "the catalogue database is down", http.StatusInternalServerError)
				return
			case queryEcho:
				w.WriteHeader(http.StatusInternalServerError)
				_ = r.Header.Write(w)
				return
			case queryMany:
				out := []book{}
				for i := range 400 {
					out = append(out, book{fmt.Sprintf("97810000%05d", i), fmt.Sprintf("Rivière numéro %d — été à la campagne", i), "Zoë Åström-Lindqvist", 0})
				}
				writeJSON(w, http.StatusOK, out)
				return
			case queryBadToken:
				token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "token " + token + " has expired"})
				return
			}
			limit, err := strconv.Atoi(r.URL.Query().Get("_limit"))
			if err != nil {
				http.Error(w, "bad _limit", http.StatusBadRequest)
				return
			}
			out := []book{}
			for _, b := range catalogue {
				if matches(b, q) && len(out) < limit {
					out = append(out, b)
				}
			}
			writeJSON(w, http.StatusOK, out)
		case r.Method == http.MethodGet && path == "/books/"+isbnRedirectAway:
			if to := f.redirect.Load(); to != nil {
				http.Redirect(w, r, *to, http.StatusFound)
				return
			}
			http.NotFound(w, r)
		case r.Method == http.MethodGet && path == "/books/"+isbnRedirectHome:
			http.Redirect(w, r, "/books/"+isbnAtlas, http.StatusMovedPermanently)
		case r.Method == http.MethodGet && strings.HasPrefix(path, "/books/"):
			isbn, err := url.PathUnescape(strings.TrimPrefix(path, "/books/"))
			if err == nil {
				for _, b := range catalogue {
					if b.ISBN == isbn {
						if b.ISBN != isbnNoCopies {
							b.Available = 2
						}
						writeJSON(w, http.StatusOK, b)
						return
					}
				}
			}
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such book"})
		case r.Method == http.MethodPost && path == "/loans":
			var loan struct{ ISBN, Member string }
			if err := json.NewDecoder(r.Body).Decode(&loan); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if loan.Member == memberFlaky {
				http.Error(w, "try again", http.StatusServiceUnavailable)
				return
			}
			if loan.ISBN == isbnPlainConflict {
				http.Error(w, "conflict", http.StatusConflict)
				return
			}
			for _, b := range catalogue {
				if b.ISBN != loan.ISBN {
					continue
				}
				if b.ISBN == isbnNoCopies {
					writeJSON(w, http.StatusConflict, map[string]string{"title": b.Title})
					return
				}
				writeJSON(w, http.StatusCreated, map[string]string{"loan": "L-1", "isbn": b.ISBN, "member": loan.Member, "due": "2026-12-22"})
				return
			}
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such book"})
		default:
			http.NotFound(w, r)
		}
	})
	return f
}

// matches reports whether every word of q is in the book's title or author.
func matches(b book, q string) bool {
	hay := strings.ToLower(b.Title + " " + b.Author)
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// The calendar API -----------------------------------------------------------

type event struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Date    string `json:"date"`
	Minutes int    `json:"minutes"`
}

// calendarAPI serves GET /api/events?from=&to=&q= and POST /api/events like
// the API examples/calendar.hcl describes (its base URL ends in /api).
func calendarAPI(t testing.TB) *fakeAPI {
	var mu sync.Mutex
	events := []event{{ID: "ev-0", Title: "Team lunch", Date: "2026-11-12", Minutes: 90}}
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		path, _, _ := strings.Cut(r.RequestURI, "?")
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == http.MethodGet && path == "/api/events":
			q := r.URL.Query()
			out := []event{}
			for _, e := range events {
				if e.Date >= q.Get("from") && e.Date <= q.Get("to") && strings.Contains(strings.ToLower(e.Title), strings.ToLower(q.Get("q"))) {
					out = append(out, e)
				}
			}
			writeJSON(w, http.StatusOK, out)
		case r.Method == http.MethodPost && path == "/api/events":
			var e event
			if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			for _, old := range events {
				if old.Title == e.Title && old.Date == e.Date {
					writeJSON(w, http.StatusConflict, map[string]string{"error": "duplicate"})
					return
				}
			}
			e.ID = fmt.Sprintf("ev-%d", len(events))
			events = append(events, e)
			writeJSON(w, http.StatusCreated, map[string]string{"id": e.ID})
		default:
			http.NotFound(w, r)
		}
	})
}

// echoAPI answers every request with {"ok": true}.
func echoAPI(t testing.TB) *fakeAPI {
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
}

// closedURL returns the URL of a loopback port nothing listens on.
func closedURL(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}
