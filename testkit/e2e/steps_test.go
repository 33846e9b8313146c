package e2e

import (
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shopAPI is a plant shop: plants with their stock and price, orders and
// restocking. It never refuses an order itself, so only a step that
// looks at the stock first keeps an order from being placed.
func shopAPI(t testing.TB) *fakeAPI {
	plants := map[string]map[string]any{
		"/plants/1": {"id": 1, "name": "Fern", "stock": 0, "price": 12.5},
		"/plants/2": {"id": 2, "name": "Rose", "stock": 10, "price": 4.25},
	}
	// A search finds plants by a part of their name, in id order; "ghost"
	// finds a plant that is gone, and "all" more than a step may look up.
	search := map[string][]int{"e": {1, 2}, "ghost": {2, 99}, "all": {1, 2, 1, 2}}
	var orders atomic.Int64
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		path, _, _ := strings.Cut(r.RequestURI, "?")
		switch {
		case r.Method == http.MethodGet && path == "/plants":
			items := []map[string]any{}
			for _, id := range search[r.URL.Query().Get("q")] {
				items = append(items, map[string]any{"id": id})
			}
			writeJSON(w, http.StatusOK, map[string]any{"items": items})
		case r.Method == http.MethodGet && plants[path] != nil:
			writeJSON(w, http.StatusOK, plants[path])
		case r.Method == http.MethodPost && path == "/orders":
			writeJSON(w, http.StatusCreated, map[string]any{"id": 100 + orders.Add(1)})
		case r.Method == http.MethodPost && path == "/cards":
			writeJSON(w, http.StatusCreated, map[string]any{"sent": true})
		case r.Method == http.MethodPost && strings.HasPrefix(path, "/restock/"):
			writeJSON(w, http.StatusAccepted, map[string]any{"queued": true})
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"error": "not found"})
		}
	})
}

// TestSteps serves testdata/shop.hcl, whose tools look something up
// before they act (an HTTP lookup before an HTTP write, an SQL lookup
// before an HTTP write, an SQL lookup before a command, a conditional
// write, a search followed by one lookup per result), to every client,
// transport and era, and checks each answer and each request the API
// received.
func TestSteps(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/shop.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			api := shopAPI(t)
			vars := map[string]string{"shop_url": api.URL, "db": filepath.Join(t.TempDir(), "shop.db")}
			c := s.connect(t, cfg, vars, nil).c
			ctx := testCtx(t)
			call := func(tool string, args map[string]any) toolResult {
				t.Helper()
				res, err := c.callTool(ctx, tool, args)
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				return res
			}

			// Out of stock: the step's message, and nothing is posted.
			res := call("place_order", map[string]any{"plant_id": 1, "quantity": 2})
			if !res.IsError || res.Text != "No 'Fern' plants are in stock. Search for another plant." {
				t.Errorf("out of stock: %+v", res)
			}
			checkRequests(t, "out of stock", api, wantRequest{Method: "GET", Path: "/plants/1"})

			// In stock: exactly one order, at the price the lookup found.
			res = call("place_order", map[string]any{"plant_id": 2, "quantity": 3})
			if res.IsError || res.Text != "Order 101 placed: 3 x Rose at 4.25." {
				t.Errorf("in stock: %+v", res)
			}
			checkRequests(t, "in stock", api, wantRequest{Method: "GET", Path: "/plants/2"},
				wantRequest{Method: "POST", Path: "/orders", Body: map[string]any{"plantId": 2.0, "quantity": 3.0, "price": 4.25}})

			// A step's error rule on a 404 speaks before the failure does.
			res = call("place_order", map[string]any{"plant_id": 99, "quantity": 1})
			if !res.IsError || res.Text != "There is no plant 99. Search for plants first." {
				t.Errorf("unknown plant: %+v", res)
			}
			checkRequests(t, "unknown plant", api, wantRequest{Method: "GET", Path: "/plants/99"})

			// An SQL lookup feeds an HTTP write.
			res = call("order_for_customer", map[string]any{"customer": "Ada Brook", "plant_id": 2})
			if res.IsError || res.Text != "Order 102 placed for customer 7." {
				t.Errorf("order for customer: %+v", res)
			}
			checkRequests(t, "order for customer", api,
				wantRequest{Method: "POST", Path: "/orders", Body: map[string]any{"plantId": 2.0, "quantity": 1.0, "customerId": 7.0}})
			res = call("order_for_customer", map[string]any{"customer": "Nobody", "plant_id": 2})
			if !res.IsError || res.Text != "No customer is named Nobody. Check the spelling." {
				t.Errorf("unknown customer: %+v", res)
			}
			checkRequests(t, "unknown customer", api)

			// An SQL lookup feeds a command: each value is one argv element,
			// even one that looks like an option.
			res = call("address_label", map[string]any{"customer": "Ben -n Ford"})
			if res.IsError || res.Text != "Ben -n Ford / York" {
				t.Errorf("address label: %+v", res)
			}

			// A command's output, from a step, in an HTTP body.
			res = call("post_card", map[string]any{"name": "-n Ada"})
			if res.IsError || res.Text != "Card sent: Dear -n Ada, your plants are on their way." {
				t.Errorf("post card: %+v", res)
			}
			checkRequests(t, "post card", api, wantRequest{Method: "POST", Path: "/cards", Body: map[string]any{"text": "Dear -n Ada, your plants are on their way."}})

			// A conditional step runs only when its when holds.
			res = call("restock_if_low", map[string]any{"plant_id": 1})
			if res.IsError || res.Text != "Reordered." {
				t.Errorf("restock low: %+v", res)
			}
			checkRequests(t, "restock low", api, wantRequest{Method: "GET", Path: "/plants/1"}, wantRequest{Method: "POST", Path: "/restock/Fern"})
			res = call("restock_if_low", map[string]any{"plant_id": 2})
			if res.IsError || res.Text != "Enough in stock." {
				t.Errorf("restock enough: %+v", res)
			}
			checkRequests(t, "restock enough", api, wantRequest{Method: "GET", Path: "/plants/2"})

			// A search, then one lookup per result (made together), summarized
			// in result order; a result that is gone stops the call with its
			// item's message; a list longer than max_items calls nothing.
			res = call("compare_plants", map[string]any{"query": "e"})
			wantPlants := map[string]any{"plants": []any{
				map[string]any{"name": "Fern", "stock": 0.0, "price": 12.5},
				map[string]any{"name": "Rose", "stock": 10.0, "price": 4.25},
			}}
			if res.IsError || !cmp.Equal(wantPlants, res.Structured) {
				t.Errorf("compare plants: %+v, want %v", res, wantPlants)
			}
			checkLookups(t, "compare plants", api, "q=e", "/plants/1", "/plants/2")
			res = call("compare_plants", map[string]any{"query": "ghost"})
			if !res.IsError || res.Text != "Plant 99 (result 2) is gone. Search again." {
				t.Errorf("compare a plant that is gone: %+v", res)
			}
			checkLookups(t, "compare a plant that is gone", api, "q=ghost", "/plants/2", "/plants/99")
			res = call("compare_plants", map[string]any{"query": "all"})
			if !res.IsError || !strings.HasPrefix(res.Text, "This would make 4 calls, one per item, and at most 3 are allowed") {
				t.Errorf("compare too many plants: %+v", res)
			}
			checkLookups(t, "compare too many plants", api, "q=all")

			// A resource template and a prompt with steps.
			text, _, err := c.readResource(ctx, "shop://plants/2")
			if err != nil || text != "Rose: 10 in stock" {
				t.Errorf("read shop://plants/2 = %q, %v", text, err)
			}
			if _, _, err := c.readResource(ctx, "shop://plants/99"); err == nil || !strings.Contains(err.Error(), "There is no plant 99.") {
				t.Errorf("read shop://plants/99: %v, want the step's message", err)
			}
			msgs, err := c.getPrompt(ctx, "customer_brief", map[string]string{"customer": "Ada Brook"})
			want := []string{`user: Summarize the orders of Ada Brook: [{"plant":"Fern","quantity":2},{"plant":"Cactus","quantity":1}]`}
			if err != nil || !cmp.Equal(want, msgs) {
				t.Errorf("prompt: %q, %v; want %q", msgs, err, want)
			}
		})
	}
}

// checkLookups checks the requests of a search (GET /plants with query)
// followed by lookups made together, in any order.
func checkLookups(t *testing.T, what string, api *fakeAPI, query string, lookups ...string) {
	t.Helper()
	got := api.take()
	if len(got) == 0 || got[0].Method != "GET" || got[0].Path != "/plants" || got[0].RawQuery != query {
		t.Fatalf("%s: requests %+v, want the search first", what, got)
	}
	var paths []string
	for _, r := range got[1:] {
		paths = append(paths, r.Method+" "+r.Path)
	}
	slices.Sort(paths)
	var want []string
	for _, l := range lookups {
		want = append(want, "GET "+l)
	}
	if !slices.Equal(paths, want) {
		t.Errorf("%s: lookups %q, want %q", what, paths, want)
	}
}
