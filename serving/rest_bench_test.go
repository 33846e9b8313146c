package serving

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// BenchmarkRestHTTP calls scripts/bench-loopback.sh's rest tool (one GET
// of a REST backend on loopback, its JSON body answered as it came)
// through everything serve puts in front of it, beside a plain net/http
// handler making the same GET on a keep-alive client with no MCP checks.
// The backend runs in the same process, so both lines count its CPU and
// allocations too; the differences (x-bare, B-alloc-over-bare) are
// mcpdecl's own.
//
//	go test ./serving/ -run '^$' -bench RestHTTP -benchmem
func BenchmarkRestHTTP(b *testing.B) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.URL.Path[len("/items/"):], 10, 64)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":%d,"name":"item-%d-name","price":%d.5}`, id, id, id)
	}))
	defer backend.Close()

	call := benchCall{
		tool: "item",
		args: func(n int) string { return `{"id":` + strconv.Itoa(n%1000+1) + `}` },
		want: func(n int) string { return `"structuredContent":{"id":` + strconv.Itoa(n%1000+1) + `,` },
	}
	bareCall := call
	bareCall.want = func(n int) string { return `"text":"{\"id\":` + strconv.Itoa(n%1000+1) + `,` }
	compareWithBare(b, "../scripts/testdata/loopback/rest.hcl", map[string]string{"backend_url": backend.URL}, bareRest(backend.URL), call, bareCall)
}

// bareRest is the plain handler of the rest job: it GETs the item on its
// own keep-alive client and answers the body as a text block.
func bareRest(backend string) http.HandlerFunc {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Arguments struct {
					ID int64 `json:"id"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		get, err := http.NewRequestWithContext(r.Context(), http.MethodGet,
			backend+"/items/"+strconv.FormatInt(req.Params.Arguments.ID, 10), nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		resp, err := client.Do(get)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			http.Error(w, fmt.Sprint("backend: ", resp.Status, err), http.StatusBadGateway)
			return
		}
		writeTextResult(w, req.ID, string(body))
	}
}
