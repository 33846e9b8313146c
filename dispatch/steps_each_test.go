package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// eachAPI is a shop for steps with for_each. GET /search?n=N lists N
// items (ids i0, i1, ...); GET /group/{id} answers only when a group of
// four such requests is in flight at the same time (else, after a while,
// 503); GET and POST /gone{...} are 404s, slower for a longer path, so a
// later item may answer first; anything else echoes its path. Every request
// is recorded in the order it arrived, and the most requests in flight at
// once are counted.
type eachAPI struct {
	mu          sync.Mutex
	arrived     []string
	inFlight    int
	maxInFlight int
	group       chan struct{}
	waiting     int
}

func (a *eachAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.arrived = append(a.arrived, r.Method+" "+r.URL.Path)
	a.inFlight++
	a.maxInFlight = max(a.maxInFlight, a.inFlight)
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.inFlight--
		a.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/search":
		var n int
		fmt.Sscan(r.URL.Query().Get("n"), &n)
		items := []map[string]string{}
		for i := range n {
			items = append(items, map[string]string{"id": fmt.Sprintf("i%d", i)})
		}
		json.NewEncoder(w).Encode(map[string]any{"items": items})
	case strings.HasPrefix(r.URL.Path, "/group/"):
		a.mu.Lock()
		if a.group == nil {
			a.group = make(chan struct{})
		}
		g := a.group
		if a.waiting++; a.waiting == eachAtOnce {
			close(g)
			a.group, a.waiting = nil, 0
		}
		a.mu.Unlock()
		select {
		case <-g:
			json.NewEncoder(w).Encode(map[string]string{"v": strings.TrimPrefix(r.URL.Path, "/group/")})
		case <-time.After(5 * time.Second):
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	case strings.HasPrefix(r.URL.Path, "/price/"):
		var n int
		fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/price/"), &n)
		fmt.Fprintf(w, `{"price": %d.25, "stock": %d}`, n, n-1)
	case strings.HasPrefix(r.URL.Path, "/gone"):
		time.Sleep(time.Duration(2*len(r.URL.Path)) * time.Millisecond)
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{}`))
	default:
		json.NewEncoder(w).Encode(map[string]string{"v": strings.TrimPrefix(r.URL.Path, "/")})
	}
}

func (a *eachAPI) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := slices.Clone(a.arrived)
	a.arrived = nil
	return out
}

func eachTable(t *testing.T, src string) (*table.Table, *eachAPI) {
	t.Helper()
	api := &eachAPI{}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	cfg, diags := lang.LoadSource("each.hcl", []byte(`
variable "url" {
  type = string
}
backend "http" "api" {
  base_url = var.url
}
`+src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{Vars: map[string]string{"url": srv.URL}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if failed := tbl.OpenBackends(context.Background()); len(failed) > 0 {
		t.Fatal(failed[0])
	}
	t.Cleanup(func() { tbl.CloseBackends(nil) })
	return tbl, api
}

// TestEachItemsInOrder: a search, then one lookup per result: the answers
// are a list in item order, in expr-lang (map over them) and in HCL (a
// later step reads one by its index, the main call all of them); an
// empty list makes no call and is an empty list.
func TestEachItemsInOrder(t *testing.T) {
	tbl, api := eachTable(t, `
tool "details" {
  description = "Search, then look each result up."
  arg "n" {
    type = integer
  }
  step "search" {
    http "api" {
      path  = "/search"
      query = { n = args.n }
    }
  }
  step "details" {
    for_each = steps.search.body.items
    http "api" {
      path = "/plants/${each.value.id}/${each.index}"
    }
  }
  http "api" {
    path  = "/summary"
    query = { n = length(steps.details), ids = join(",", [for d in steps.details : d.body.v]) }
  }
  result {
    text = "join(map(steps.details, #.body.v), ' ') + ' | ' + string(len(steps.details))"
  }
}`)
	for range 3 {
		res := callTableTool(t, tbl, "details", `{"n":6}`)
		want := "plants/i0/0 plants/i1/1 plants/i2/2 plants/i3/3 plants/i4/4 plants/i5/5 | 6"
		if res.IsError || res.Content[0].Text != want {
			t.Fatalf("details = %+v, want %q", res, want)
		}
		got := api.requests()
		if len(got) != 8 || got[0] != "GET /search" || got[7] != "GET /summary" {
			t.Fatalf("requests %q", got)
		}
		slices.Sort(got[1:7]) // looked up together: in any order
		for i, r := range got[1:7] {
			if want := fmt.Sprintf("GET /plants/i%d/%d", i, i); r != want {
				t.Errorf("request %d = %q, want %q", i+1, r, want)
			}
		}
	}
	res := callTableTool(t, tbl, "details", `{"n":0}`)
	if res.IsError || res.Content[0].Text != " | 0" {
		t.Errorf("details of nothing = %+v", res)
	}
	if got := api.requests(); !slices.Equal(got, []string{"GET /search", "GET /summary"}) {
		t.Errorf("requests for an empty list = %q, want the search and the summary only", got)
	}
}

// TestEachReadsTogether: the items of a step that changes nothing are
// looked up four at a time (the API answers a lookup only when four are
// in flight together), and never more.
func TestEachReadsTogether(t *testing.T) {
	tbl, api := eachTable(t, `
tool "groups" {
  description = "Eight lookups."
  step "g" {
    for_each = ["a", "b", "c", "d", "e", "f", "g", "h"]
    http "api" {
      path = "/group/${each.value}"
    }
  }
  result {
    text = "join(map(steps.g, #.body.v), '')"
  }
}`)
	res := callTableTool(t, tbl, "groups", `{}`)
	if res.IsError || res.Content[0].Text != "abcdefgh" {
		t.Fatalf("groups = %+v; want the lookups made four at a time", res)
	}
	api.mu.Lock()
	most := api.maxInFlight
	api.mu.Unlock()
	if most != eachAtOnce {
		t.Errorf("at most %d lookups were in flight, want %d", most, eachAtOnce)
	}
}

// TestEachWritesInOrder: the items of a step that may change something
// are called one after the other, in item order; the first that fails
// stops the call, and no later item is called.
func TestEachWritesInOrder(t *testing.T) {
	tbl, api := eachTable(t, `
tool "tag" {
  description = "Tag plants."
  arg "ids" {
    type = list(string)
  }
  step "tag" {
    for_each = args.ids
    http "api" {
      method = "POST"
      path   = "/${each.value}"
    }
    error {
      when    = "status == 404"
      message = "Plant {{ each.value }} (item {{ each.index }}) is gone."
    }
  }
  result {
    text = "string(len(steps.tag)) + ' tagged'"
  }
}`)
	for range 5 {
		res := callTableTool(t, tbl, "tag", `{"ids":["p1","p2","p3","p4","p5"]}`)
		want := []string{"POST /p1", "POST /p2", "POST /p3", "POST /p4", "POST /p5"}
		if got := api.requests(); res.IsError || res.Content[0].Text != "5 tagged" || !slices.Equal(got, want) {
			t.Fatalf("tag = %+v, requests %q; want %q", res, got, want)
		}
	}
	res := callTableTool(t, tbl, "tag", `{"ids":["p1","gone-x","p3"]}`)
	if !res.IsError || res.Content[0].Text != "Plant gone-x (item 1) is gone." {
		t.Errorf("tag with a missing plant = %+v", res)
	}
	if got, want := api.requests(), []string{"POST /p1", "POST /gone-x"}; !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q (nothing after the failing item)", got, want)
	}
}

// TestEachFirstFailingItemWins: when several lookups made together fail,
// the message is the first item's in item order, whichever answered first;
// an item's failure without an error rule stops the call as a plain
// step's does.
func TestEachFirstFailingItemWins(t *testing.T) {
	tbl, _ := eachTable(t, `
tool "look" {
  description = "Lookups."
  arg "ids" {
    type = list(string)
  }
  step "look" {
    for_each = args.ids
    http "api" {
      path = "/${each.value}"
    }
    error {
      when    = "status == 404 && each.value != 'gone'"
      message = "Item {{ each.index }} is gone."
    }
  }
  result {
    text = "'found'"
  }
}`)
	for range 3 {
		// gone-long answers after gone-b: item 1 is still the one reported.
		res := callTableTool(t, tbl, "look", `{"ids":["ok","gone-long-path","ok2","gone-b"]}`)
		if !res.IsError || res.Content[0].Text != "Item 1 is gone." {
			t.Fatalf("look = %+v; want the first failing item's message", res)
		}
	}
	res := callTableTool(t, tbl, "look", `{"ids":["ok","gone"]}`)
	if !res.IsError || !strings.Contains(res.Content[0].Text, "404") {
		t.Errorf("look without a matching rule = %+v; want the item's failure", res)
	}
}

// TestEachBound: a list longer than max_items stops the call with a
// message that asks for fewer, and nothing of the step is called.
func TestEachBound(t *testing.T) {
	tbl, api := eachTable(t, `
tool "many" {
  description = "Bounded lookups."
  arg "n" {
    type = integer
  }
  step "search" {
    http "api" {
      path  = "/search"
      query = { n = args.n }
    }
  }
  step "details" {
    for_each  = steps.search.body.items
    max_items = 3
    http "api" {
      path = "/plants/${each.value.id}"
    }
  }
  result {
    text = "string(len(steps.details))"
  }
}`)
	if res := callTableTool(t, tbl, "many", `{"n":3}`); res.IsError || res.Content[0].Text != "3" {
		t.Errorf("three items = %+v", res)
	}
	api.requests()
	res := callTableTool(t, tbl, "many", `{"n":4}`)
	want := "This would make 4 calls, one per item, and at most 3 are allowed, so nothing was called. Ask for fewer items (a narrower search, or a lower limit)."
	if !res.IsError || res.Content[0].Text != want {
		t.Errorf("four items = %+v, want %q", res, want)
	}
	if got := api.requests(); !slices.Equal(got, []string{"GET /search"}) {
		t.Errorf("requests %q, want the search only", got)
	}
}

// TestEachWhenAndNotAList: a for_each step whose when does not hold is an
// empty list; a list that is not one stops the call with a message.
func TestEachWhenAndNotAList(t *testing.T) {
	tbl, api := eachTable(t, `
tool "maybe" {
  description = "Lookups when asked."
  arg "go" {
    type = bool
  }
  step "search" {
    http "api" {
      path  = "/search"
      query = { n = 2 }
    }
  }
  step "details" {
    when     = "args.go"
    for_each = steps.search.body.items
    http "api" {
      path = "/plants/${each.value.id}"
    }
  }
  http "api" {
    path = "/count/${length(steps.details)}"
  }
  result {
    text = "body.v + ' ' + string(len(steps.details))"
  }
}
tool "wrong" {
  description = "A list that is not one."
  step "search" {
    http "api" {
      path = "/search"
    }
  }
  step "details" {
    for_each = steps.search.body
    http "api" {
      path = "/plants/${each.value}"
    }
  }
  result {
    text = "'x'"
  }
}`)
	for args, want := range map[string]string{`{"go":true}`: "count/2 2", `{"go":false}`: "count/0 0"} {
		if res := callTableTool(t, tbl, "maybe", args); res.IsError || res.Content[0].Text != want {
			t.Errorf("maybe %s = %+v, want %q", args, res, want)
		}
	}
	api.requests()
	res := callTableTool(t, tbl, "wrong", `{}`)
	if !res.IsError || !strings.HasPrefix(res.Content[0].Text, `The step "details" was not run: its for_each gave an object`) {
		t.Errorf("wrong = %+v", res)
	}
	if got := api.requests(); !slices.Equal(got, []string{"GET /search"}) {
		t.Errorf("requests %q, want the search only", got)
	}
}

// TestEachAnswersInBothLanguages: the list of answers is read with the
// list functions of each language: filter and sum in expr-lang (numbers
// as the API wrote them), for and jsonencode in HCL.
func TestEachAnswersInBothLanguages(t *testing.T) {
	tbl, api := eachTable(t, `
tool "prices" {
  description = "Prices."
  step "p" {
    for_each = [1, 2, 3]
    http "api" {
      path = "/price/${each.value}"
    }
  }
  http "api" {
    path = "/total/${join("-", [for x in steps.p : x.body.stock])}/${jsonencode(steps.p[2].body)}"
  }
  result {
    text = "string(sum(map(steps.p, #.body.price))) + ' ' + string(len(filter(steps.p, #.body.stock > 0))) + ' ' + body.v"
  }
}`)
	res := callTableTool(t, tbl, "prices", `{}`)
	want := `6.75 2 total/0-1-2/{"price":3.25,"stock":2}`
	if res.IsError || res.Content[0].Text != want {
		t.Errorf("prices = %+v, want %q", res, want)
	}
	if got := api.requests(); len(got) != 4 {
		t.Errorf("requests %q, want three items and the total", got)
	}
}
