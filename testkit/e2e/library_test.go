package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// wantRequest is what a test expects a fake API to have received.
type wantRequest struct {
	Method, Path, RawQuery string
	Body                   any // decoded JSON; nil for no body
}

// checkRequests compares what api received since the last take with want,
// in order: method, escaped path, raw query and JSON body exactly.
func checkRequests(t *testing.T, what string, api *fakeAPI, want ...wantRequest) []recorded {
	t.Helper()
	got := api.take()
	var gotW []wantRequest
	for _, r := range got {
		w := wantRequest{Method: r.Method, Path: r.Path, RawQuery: r.RawQuery}
		if r.Body != "" {
			if err := json.Unmarshal([]byte(r.Body), &w.Body); err != nil {
				w.Body = "not JSON: " + r.Body
			}
		}
		gotW = append(gotW, w)
	}
	if diff := cmp.Diff(want, gotW); diff != "" {
		t.Errorf("%s: requests the API received (-want +got):\n%s", what, diff)
	}
	return got
}

func libraryVars(api *fakeAPI) map[string]string { return map[string]string{"base_url": api.URL} }

var libraryEnv = map[string]string{"LIBRARY_TOKEN": secret}

// TestLibrary serves examples/library.hcl against the fake library API to
// every client, transport and era, and checks each answer and each request
// exactly.
func TestLibrary(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/library.hcl")
	policy, err := os.ReadFile(repoPath(t, "examples/policy.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api := libraryAPI(t)
			srv := s.connect(t, cfg, libraryVars(api), libraryEnv)
			c := srv.c
			ctx := testCtx(t)
			if got := c.version(); got != s.version {
				t.Errorf("negotiated version %q, want %q", got, s.version)
			}
			names, err := c.listTools(ctx)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			if diff := cmp.Diff([]string{"search", "checkout"}, names); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}

			// search: structured content and "Title by Author" lines.
			res, err := c.callTool(ctx, "search", map[string]any{"query": "river"})
			if err != nil {
				t.Fatalf("search: %v", err)
			}
			want := toolResult{
				Text: "Maps of Small Rivers by Ada Brook\nThe River Atlas by Ben Ford",
				Structured: map[string]any{"books": []any{
					map[string]any{"isbn": isbnNoCopies, "title": "Maps of Small Rivers", "author": "Ada Brook"},
					map[string]any{"isbn": isbnAtlas, "title": "The River Atlas", "author": "Ben Ford"},
				}},
			}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Errorf("search river (-want +got):\n%s", diff)
			}
			reqs := checkRequests(t, "search river", api, wantRequest{Method: "GET", Path: "/books", RawQuery: "q=river&_limit=10"})
			for _, r := range reqs {
				if got := r.Header.Get("Authorization"); got != "Bearer "+secret {
					t.Errorf("search: Authorization header %q, want the bearer token", got)
				}
			}

			res, err = c.callTool(ctx, "search", map[string]any{"query": "small rivers", "limit": 1})
			if err != nil || res.IsError || res.Text != "Maps of Small Rivers by Ada Brook" {
				t.Errorf("search small rivers, limit 1 = %+v, %v", res, err)
			}
			checkRequests(t, "search limit 1", api, wantRequest{Method: "GET", Path: "/books", RawQuery: "q=small+rivers&_limit=1"})

			// Refused before anything is sent.
			res, err = c.callTool(ctx, "search", map[string]any{"query": "river", "limit": 99})
			if err != nil || !res.IsError || !strings.Contains(res.Text, "limit must be between 1 and 50; try 10.") {
				t.Errorf("search limit 99 = %+v, %v; want the validation message", res, err)
			}
			res, err = c.callTool(ctx, "search", map[string]any{"query": "r"})
			if err != nil || !res.IsError || !strings.Contains(res.Text, "query") {
				t.Errorf("search with a one-letter query = %+v, %v; want a min_length error", res, err)
			}
			checkRequests(t, "refused searches", api)

			// checkout: the lookup step finds no copy; nothing is posted.
			res, err = c.callTool(ctx, "checkout", map[string]any{"isbn": isbnNoCopies, "member": "M-17"})
			if err != nil {
				t.Fatalf("checkout: %v", err)
			}
			if diff := cmp.Diff(toolResult{Text: "No copies of 'Maps of Small Rivers' are available. Search for another title.", IsError: true}, res); diff != "" {
				t.Errorf("checkout of a book with no copies left (-want +got):\n%s", diff)
			}
			reqs = checkRequests(t, "checkout without copies", api, wantRequest{Method: "GET", Path: "/books/" + isbnNoCopies})
			for _, r := range reqs {
				if got := r.Header.Get("Authorization"); got != "Bearer "+secret {
					t.Errorf("checkout: Authorization header %q, want the bearer token", got)
				}
			}

			// checkout: the lookup step answers 404; nothing is posted.
			res, err = c.callTool(ctx, "checkout", map[string]any{"isbn": isbnUnknown, "member": "M-17"})
			if diff := cmp.Diff(toolResult{Text: "There is no book with ISBN " + isbnUnknown + ". Search the catalogue for the right ISBN.", IsError: true}, res); err != nil || diff != "" {
				t.Errorf("checkout of an unknown ISBN: %v (-want +got):\n%s", err, diff)
			}
			checkRequests(t, "checkout 404", api, wantRequest{Method: "GET", Path: "/books/" + isbnUnknown})

			// checkout: 201, the answer's own text.
			res, err = c.callTool(ctx, "checkout", map[string]any{"isbn": isbnAtlas, "member": "M-17"})
			if err != nil || res.IsError || !strings.Contains(res.Text, `"loan"`) || !strings.Contains(res.Text, "L-1") {
				t.Errorf("checkout = %+v, %v; want the loan", res, err)
			}
			reqs = checkRequests(t, "checkout 201", api, wantRequest{Method: "GET", Path: "/books/" + isbnAtlas},
				wantRequest{Method: "POST", Path: "/loans", Body: map[string]any{"isbn": isbnAtlas, "member": "M-17"}})
			for _, r := range reqs {
				if ct := r.Header.Get("Content-Type"); r.Method == "POST" && !strings.HasPrefix(ct, "application/json") {
					t.Errorf("checkout sent Content-Type %q", ct)
				}
				if got := r.Header.Get("Authorization"); got != "Bearer "+secret {
					t.Errorf("checkout: Authorization header %q, want the bearer token", got)
				}
			}

			// checkout: the ISBN pattern refuses before sending.
			res, err = c.callTool(ctx, "checkout", map[string]any{"isbn": "12", "member": "M-17"})
			if err != nil || !res.IsError || !strings.Contains(res.Text, "isbn") {
				t.Errorf("checkout with a short ISBN = %+v, %v; want a pattern error", res, err)
			}
			checkRequests(t, "checkout with a short ISBN", api)

			// The book template.
			text, mime, err := c.readResource(ctx, "library://books/"+isbnAtlas)
			if err != nil {
				t.Fatalf("resources/read book: %v", err)
			}
			var got any
			if err := json.Unmarshal([]byte(text), &got); err != nil {
				t.Errorf("book resource is not JSON: %v: %q", err, text)
			}
			if diff := cmp.Diff(map[string]any{"isbn": isbnAtlas, "title": "The River Atlas", "author": "Ben Ford", "available": 2.0}, got); diff != "" || mime != "application/json" {
				t.Errorf("book resource (mime %q) (-want +got):\n%s", mime, diff)
			}
			reqs = checkRequests(t, "book template", api, wantRequest{Method: "GET", Path: "/books/" + isbnAtlas})
			for _, r := range reqs {
				if got := r.Header.Get("Authorization"); got != "Bearer "+secret {
					t.Errorf("book: Authorization header %q, want the bearer token", got)
				}
			}
			if _, _, err := c.readResource(ctx, "library://books/12345"); err == nil {
				t.Errorf("reading library://books/12345 succeeded; the pattern wants 13 digits")
			}
			checkRequests(t, "book template with a short ISBN", api)

			// The loan policy, a static file.
			text, mime, err = c.readResource(ctx, "library://policy")
			if err != nil || text != string(policy) || mime != "text/markdown" {
				t.Errorf("resources/read library://policy = %q (%q), %v; want policy.md", text, mime, err)
			}

			// The prompt, with the embedded policy.
			msgs, err := c.getPrompt(ctx, "reading_list", map[string]string{"topic": "rivers"})
			if err != nil {
				t.Fatalf("prompts/get: %v", err)
			}
			wantMsgs := []string{
				"user: Make me a reading list about rivers from books the library has.",
				"user: resource library://policy " + string(policy),
			}
			if diff := cmp.Diff(wantMsgs, msgs); diff != "" {
				t.Errorf("prompts/get reading_list (-want +got):\n%s", diff)
			}
			checkRequests(t, "static resource and prompt", api)

			c.close()
			rev := revision(s.era)
			srv.wire.verify(t, handshake(s.era), rev+" tools/list", rev+" tools/call", rev+" resources/read", rev+" prompts/get")
		})
	}
}

func calendarVars(api *fakeAPI) map[string]string {
	return map[string]string{"calendar_url": api.URL + "/api"}
}

// TestCalendar serves examples/calendar.hcl against the fake calendar API.
func TestCalendar(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/calendar.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api := calendarAPI(t)
			srv := s.connect(t, cfg, calendarVars(api), nil)
			c := srv.c
			ctx := testCtx(t)
			names, err := c.listTools(ctx)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			if diff := cmp.Diff([]string{"search_events", "add_event"}, names); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}

			// A wrong date: the model gets a message it can act on, and
			// the API sees nothing.
			res, err := c.callTool(ctx, "add_event", map[string]any{"title": "Planning meeting", "date": "tomorrow"})
			if err != nil {
				t.Fatalf("add_event: %v", err)
			}
			if !res.IsError || !strings.Contains(res.Text, "Date 'tomorrow' is not in YYYY-MM-DD form. Try again, for example 2026-11-03.") {
				t.Errorf("add_event with date tomorrow = %+v; want the validation message as an isError result", res)
			}
			checkRequests(t, "add_event tomorrow", api)

			res, err = c.callTool(ctx, "add_event", map[string]any{"title": "Planning meeting", "date": "2026-11-03"})
			if diff := cmp.Diff(toolResult{Text: "Added 'Planning meeting' on 2026-11-03 (id ev-1)."}, res); err != nil || diff != "" {
				t.Errorf("add_event: %v (-want +got):\n%s", err, diff)
			}
			reqs := checkRequests(t, "add_event", api, wantRequest{Method: "POST", Path: "/api/events",
				Body: map[string]any{"title": "Planning meeting", "date": "2026-11-03", "minutes": float64(60)}})
			for _, r := range reqs {
				if got := r.Header.Get("Authorization"); got != "" {
					t.Errorf("the calendar API received Authorization %q; its backend sets none", got)
				}
			}

			res, err = c.callTool(ctx, "add_event", map[string]any{"title": "Planning meeting", "date": "2026-11-03", "minutes": 30})
			want := toolResult{Text: "There is already an event called 'Planning meeting' on 2026-11-03. Pick another title or day.", IsError: true}
			if diff := cmp.Diff(want, res); err != nil || diff != "" {
				t.Errorf("add_event twice: %v (-want +got):\n%s", err, diff)
			}
			checkRequests(t, "add_event 409", api, wantRequest{Method: "POST", Path: "/api/events",
				Body: map[string]any{"title": "Planning meeting", "date": "2026-11-03", "minutes": float64(30)}})

			res, err = c.callTool(ctx, "add_event", map[string]any{"title": "Long", "date": "2026-11-04", "minutes": 601})
			if err != nil || !res.IsError || !strings.Contains(res.Text, "minutes") {
				t.Errorf("add_event with 601 minutes = %+v, %v; want a maximum error", res, err)
			}
			checkRequests(t, "add_event 601 minutes", api)

			res, err = c.callTool(ctx, "search_events", map[string]any{"from": "2026-11-01", "to": "2026-11-30"})
			want = toolResult{Text: "2 events between 2026-11-01 and 2026-11-30.", Structured: map[string]any{"events": []any{
				map[string]any{"id": "ev-0", "title": "Team lunch", "date": "2026-11-12", "minutes": float64(90)},
				map[string]any{"id": "ev-1", "title": "Planning meeting", "date": "2026-11-03", "minutes": float64(60)},
			}}}
			if diff := cmp.Diff(want, res); err != nil || diff != "" {
				t.Errorf("search_events: %v (-want +got):\n%s", err, diff)
			}
			checkRequests(t, "search_events", api, wantRequest{Method: "GET", Path: "/api/events", RawQuery: "from=2026-11-01&to=2026-11-30&q="})

			res, err = c.callTool(ctx, "search_events", map[string]any{"from": "2026-11-01", "to": "2026-11-30", "words": "lunch & co"})
			if err != nil || res.IsError || res.Text != "0 events between 2026-11-01 and 2026-11-30." {
				t.Errorf("search_events with words = %+v, %v", res, err)
			}
			checkRequests(t, "search_events with words", api, wantRequest{Method: "GET", Path: "/api/events", RawQuery: "from=2026-11-01&to=2026-11-30&q=lunch+%26+co"})

			res, err = c.callTool(ctx, "search_events", map[string]any{"from": "next week", "to": "2026-11-30"})
			if err != nil || !res.IsError {
				t.Errorf("search_events from next week = %+v, %v; want a pattern error", res, err)
			}
			checkRequests(t, "search_events from next week", api)

			c.close()
			rev := revision(s.era)
			srv.wire.verify(t, handshake(s.era), rev+" tools/list", rev+" tools/call")
		})
	}
}

// TestLibraryRetries: the catalog backend retries idempotent methods only
// (retry { attempts = 3 }): a search answered 503 twice succeeds on the
// third request; a loan answered 503 is sent once and reported.
func TestLibraryRetries(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/library.hcl")
	for _, s := range []setup{setups[0], setups[4]} {
		t.Run(s.name, func(t *testing.T) {
			api := libraryAPI(t)
			srv := s.connect(t, cfg, libraryVars(api), libraryEnv)
			ctx := testCtx(t)
			res, err := srv.c.callTool(ctx, "search", map[string]any{"query": queryFlaky})
			if err != nil || res.IsError || res.Text != "" || res.Structured == nil {
				t.Errorf("search of a flaky API = %+v, %v; want success after retries (no book matches)", res, err)
			}
			get := wantRequest{Method: "GET", Path: "/books", RawQuery: "q=flaky&_limit=10"}
			checkRequests(t, "flaky search", api, get, get, get)

			res, err = srv.c.callTool(ctx, "checkout", map[string]any{"isbn": isbnAtlas, "member": memberFlaky})
			if err != nil || !res.IsError || !strings.Contains(res.Text, "503") {
				t.Errorf("checkout answered 503 = %+v, %v; want an isError result naming the 503", res, err)
			}
			checkRequests(t, "checkout answered 503", api, wantRequest{Method: "GET", Path: "/books/" + isbnAtlas},
				wantRequest{Method: "POST", Path: "/loans", Body: map[string]any{"isbn": isbnAtlas, "member": memberFlaky}})
			srv.c.close()
			srv.wire.verify(t, handshake(s.era), revision(s.era)+" tools/call")
		})
	}
}

// TestLibraryAnswers: redirects on the API's own origin are followed, with
// the token; redirects to any other origin are refused and nothing is sent
// there.
func TestLibraryAnswers(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/library.hcl")
	for _, s := range []setup{setups[0], setups[5]} {
		t.Run(s.name, func(t *testing.T) {
			api, evil := libraryAPI(t), echoAPI(t)
			srv := s.connect(t, cfg, libraryVars(api), libraryEnv)
			ctx := testCtx(t)

			text, _, err := srv.c.readResource(ctx, "library://books/"+isbnRedirectHome)
			if err != nil || !strings.Contains(text, "The River Atlas") {
				t.Errorf("reading a book the API redirects on its own host = %q, %v", text, err)
			}
			reqs := checkRequests(t, "redirect home", api, wantRequest{Method: "GET", Path: "/books/" + isbnRedirectHome}, wantRequest{Method: "GET", Path: "/books/" + isbnAtlas})
			for _, r := range reqs {
				if got := r.Header.Get("Authorization"); got != "Bearer "+secret {
					t.Errorf("%s: Authorization %q", r.Path, got)
				}
			}

			host := strings.TrimPrefix(api.URL, "http://")
			_, port, _ := strings.Cut(host, ":")
			for _, to := range []string{evil.URL + "/steal", "http://localhost:" + port + "/books/" + isbnAtlas, "//" + strings.TrimPrefix(evil.URL, "http://") + "/x"} {
				api.redirect.Store(&to)
				text, _, err := srv.c.readResource(ctx, "library://books/"+isbnRedirectAway)
				if err == nil {
					t.Errorf("reading a book the API redirects to %s = %q; want an error", to, text)
				} else if strings.Contains(err.Error(), secret) {
					t.Errorf("the error names the secret: %v", err)
				}
				checkRequests(t, "redirect to "+to, api, wantRequest{Method: "GET", Path: "/books/" + isbnRedirectAway})
			}
			if got := evil.requests(); len(got) != 0 {
				t.Errorf("the evil host received %d requests: %+v", len(got), got)
			}

			srv.c.close()
			srv.wire.verify(t, handshake(s.era), revision(s.era)+" resources/read")
		})
	}
}

// TestLibraryConflictNotJSON: a 409 whose body is not JSON ("conflict",
// text/plain, as a proxy or framework default page would answer). The
// example's message "No copies of '{{ body?.title ?? args.isbn }}' ..."
// means to fall back when the body has no title: `body?.title` on a string
// body must yield null, not fail at run time as it once did (expr-lang's
// ?. guards nil only), when the model got "The answer could not be read:
// error message piece ... invalid operation: int(string)".
func TestLibraryConflictNotJSON(t *testing.T) {
	requireSchemas(t)
	api := libraryAPI(t)
	srv := setups[0].connect(t, repoPath(t, "examples/library.hcl"), libraryVars(api), libraryEnv)
	res, err := srv.c.callTool(testCtx(t), "checkout", map[string]any{"isbn": isbnPlainConflict, "member": "M-2"})
	if err != nil {
		t.Fatal(err)
	}
	checkRequests(t, "checkout 409 text/plain", api, wantRequest{Method: "GET", Path: "/books/" + isbnPlainConflict},
		wantRequest{Method: "POST", Path: "/loans", Body: map[string]any{"isbn": isbnPlainConflict, "member": "M-2"}})
	srv.c.close()
	srv.wire.verify(t, handshake(setups[0].era))
	want := toolResult{Text: "No copies of 'Small Gods of Rain' are available. Search for another title.", IsError: true}
	if diff := cmp.Diff(want, res); diff != "" {
		if strings.Contains(res.Text, "could not be read") {
			t.Errorf("body?.title on a non-JSON (string) 409 body fails instead of yielding null, so the example's fallback to args.isbn never applies; the model gets: %s", res.Text)
		}
		t.Errorf("checkout answered 409 text/plain (-want +got):\n%s", diff)
	}
}

// TestSearchMaxBytes: a search answer of about 29 KB of text against the
// example's result.max_bytes = 20000. The text is cut on a character
// boundary and says so; language.md calls max_bytes an "upper bound on the
// size of the text content", so the notice counts within the 20000 bytes
// (it was once appended after them).
func TestSearchMaxBytes(t *testing.T) {
	requireSchemas(t)
	for _, s := range []setup{setups[0], setups[5]} {
		t.Run(s.name, func(t *testing.T) {
			api := libraryAPI(t)
			srv := s.connect(t, repoPath(t, "examples/library.hcl"), libraryVars(api), libraryEnv)
			res, err := srv.c.callTool(testCtx(t), "search", map[string]any{"query": queryMany, "limit": 50})
			if err != nil || res.IsError {
				t.Fatalf("search many = %+v, %v", res, err)
			}
			srv.c.close()
			srv.wire.verify(t, handshake(s.era), revision(s.era)+" tools/call")
			if books, _ := res.Structured.(map[string]any)["books"].([]any); len(books) != 400 {
				t.Errorf("%d books in structuredContent, want the 400 the API answered", len(books))
			}
			if !utf8.ValidString(res.Text) || !strings.HasPrefix(res.Text, "Rivière numéro 0 — été à la campagne by Zoë Åström-Lindqvist\n") ||
				!strings.Contains(res.Text, "[cut:") || len(res.Text) < 19000 {
				t.Errorf("text of %d bytes, valid UTF-8 %v, starting %q, ending %q", len(res.Text), utf8.ValidString(res.Text),
					res.Text[:min(len(res.Text), 80)], res.Text[max(0, len(res.Text)-120):])
			}
			if len(res.Text) > 20000 {
				t.Errorf("result.max_bytes = 20000 but the text content is %d bytes: the cut notice %q is added after the 20000 bytes kept",
					len(res.Text), res.Text[strings.LastIndex(res.Text, "\n")+1:])
			}
		})
	}
}
