package dispatch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// A two-step HTTP tool (look a plant up, then post an order at its price)
// called through the table, beside the same two backend calls made
// directly through the compiled actions with ready-made requests, in one
// run: the difference is what steps, argument checks and answer mapping
// add to the calls themselves.
//
//	go test ./dispatch/ -run '^$' -bench TwoStepTool -benchmem

const twoStepConfig = `
variable "shop_url" {
  type = string
}
backend "http" "shop" {
  base_url = var.shop_url
}
tool "place_order" {
  description = "Order plants if the shop has enough."
  arg "plant_id" {
    type    = integer
    minimum = 1
  }
  arg "quantity" {
    type    = integer
    minimum = 1
  }
  step "plant" {
    http "shop" {
      path = "/plants/${args.plant_id}"
    }
    error {
      when    = "body.stock < args.quantity"
      message = "No '{{ body.name }}' plants are in stock."
    }
  }
  http "shop" {
    method = "POST"
    path   = "/orders"
    body   = { plantId = args.plant_id, quantity = args.quantity, price = steps.plant.body.price }
  }
  result {
    text = "Order {{ body.id }} placed: {{ args.quantity }} x {{ steps.plant.body.name }}."
  }
}`

// shopServer answers GET /plants/{id} and POST /orders on 127.0.0.1 and
// counts the orders.
func shopServer(tb testing.TB) (string, *int) {
	orders := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/plants/2":
			w.Write([]byte(`{"id":2,"name":"Rose","stock":10,"price":4.25}`))
		case r.Method == http.MethodPost && r.URL.Path == "/orders":
			*orders++
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte(`{"id":101}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{}`))
		}
	}))
	tb.Cleanup(srv.Close)
	return srv.URL, orders
}

func twoStepTable(tb testing.TB, url string) *table.Table {
	tb.Helper()
	cfg, diags := lang.LoadSource("shop.hcl", []byte(twoStepConfig))
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{Vars: map[string]string{"shop_url": url}})
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	if failed := tbl.OpenBackends(context.Background()); len(failed) > 0 {
		tb.Fatal(failed[0])
	}
	tb.Cleanup(func() { tbl.CloseBackends(nil) })
	return tbl
}

// directCalls returns a function making the tool's two backend calls
// through its compiled actions, with requests built once.
func directCalls(tb testing.TB, tbl *table.Table) func() error {
	tool := tbl.Tool("place_order")
	step := tool.Steps[0]
	decoded, err := decode(tool.Args, tbl.Static, json.RawMessage(`{"plant_id":2,"quantity":3}`))
	if err != nil {
		tb.Fatal(err)
	}
	args, argsJSON := decoded.Cty, decoded.JSON
	nop := func(float64, float64, string) {}
	nolog := func(string, any) {}
	lookup := &adapter.Request{Args: args, ArgsJSON: argsJSON, Static: tbl.Static, Progress: nop, Log: nolog, Vars: map[string]cty.Value{"steps": table.StepsValue(tool.Steps, nil)}}
	ctx := context.Background()
	res, err := step.Action.Invoke(ctx, lookup)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := step.Value(res.Fields)
	if err != nil {
		tb.Fatal(err)
	}
	order := &adapter.Request{Args: args, ArgsJSON: argsJSON, Static: tbl.Static, Progress: nop, Log: nolog,
		Vars: map[string]cty.Value{"steps": table.StepsValue(tool.Steps, map[string]cty.Value{"plant": v})}}
	return func() error {
		if _, err := step.Action.Invoke(ctx, lookup); err != nil {
			return err
		}
		_, err := tool.Action.Invoke(ctx, order)
		return err
	}
}

func toolCall(tbl *table.Table) func() (*ToolResult, error) {
	in := &CallInput{Arguments: json.RawMessage(`{"plant_id":2,"quantity":3}`)}
	ctx := context.Background()
	return func() (*ToolResult, error) { return CallTool(ctx, tbl, "place_order", in) }
}

func BenchmarkTwoStepTool(b *testing.B) {
	url, _ := shopServer(b)
	tbl := twoStepTable(b, url)
	direct, call := directCalls(b, tbl), toolCall(tbl)
	if res, err := call(); err != nil || res.IsError || res.Content[0].Text != "Order 101 placed: 3 x Rose." {
		b.Fatalf("place_order = %+v, %v", res, err)
	}
	// The two sides alternate within each iteration, each timed on its
	// own, so that the loopback's drift (hundreds of µs a call on a
	// shared machine) falls on both alike.
	b.ReportAllocs()
	var directNs, toolNs time.Duration
	for b.Loop() {
		start := time.Now()
		if err := direct(); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if _, err := call(); err != nil {
			b.Fatal(err)
		}
		directNs, toolNs = directNs+mid.Sub(start), toolNs+time.Since(mid)
	}
	n := float64(b.N)
	b.ReportMetric(float64(directNs.Nanoseconds())/n, "direct-ns/op")
	b.ReportMetric(float64(toolNs.Nanoseconds())/n, "tool-ns/op")
	b.ReportMetric(float64((toolNs-directNs).Nanoseconds())/n, "added-ns/op")
}

// TestTwoStepToolBudget keeps the steps' cost honest in ordinary runs:
// what the tool call allocates beyond its two backend calls made directly
// must stay within 10 KB. Time is read from the benchmark only.
func TestTwoStepToolBudget(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures allocations (not with -short, nor under the race detector, which allocates per access)")
	}
	url, orders := shopServer(t)
	tbl := twoStepTable(t, url)
	direct, call := directCalls(t, tbl), toolCall(tbl)
	if res, err := call(); err != nil || res.IsError || !strings.HasPrefix(res.Content[0].Text, "Order 101") || *orders != 1 {
		t.Fatalf("place_order = %+v, %v (%d orders)", res, err, *orders)
	}
	bytesOf := func(fn func()) float64 {
		r := testing.Benchmark(func(b *testing.B) { _, _, bytes := measureCalls(b, fn); b.ReportMetric(bytes, "B/call") })
		return r.Extra["B/call"]
	}
	base := bytesOf(func() { _ = direct() })
	tool := bytesOf(func() { _, _ = call() })
	t.Logf("allocated per call: direct %.0f B, tool %.0f B, added %.0f B", base, tool, tool-base)
	if added := tool - base; added > 10*1024 {
		t.Errorf("the two-step tool allocates %.0f B per call beyond its two backend calls; the budget is 10 KB", added)
	}
}

// measureCalls runs fn b.N times and returns wall ns, process CPU ns and
// bytes allocated per call.
func measureCalls(b *testing.B, fn func()) (ns, cpu, bytes float64) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := processCPU()
	b.ResetTimer()
	for range b.N {
		fn()
	}
	b.StopTimer()
	cpu = float64(processCPU()-cpu0) / float64(b.N)
	runtime.ReadMemStats(&after)
	b.ReportMetric(cpu, "cpu-ns/op")
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N), cpu, float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
}

func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
