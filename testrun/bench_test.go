package testrun

import (
	"context"
	"net/http"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	httpadapter "github.com/mcpdecl/mcpdecl/adapters/http"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/table"
)

const benchTests = `
test "add" {
  call = tool.add
  args = { title = "milk" }
  mock "api" {
    request {
      method = "POST"
      path   = "/items"
      json   = { title = "milk", done = false }
    }
    response {
      status = 201
      json   = { id = 3 }
    }
  }
  expect {
    text = "id 3"
  }
}
`

// BenchmarkTestCase measures what running a test adds to the call it
// makes: compiling a table of its own, standing in for its backend,
// opening and closing it, checking the expectation. The baseline is the
// same call on a table compiled and opened once, answered by the same
// mock. The two sides alternate within each iteration.
func BenchmarkTestCase(b *testing.B) {
	dir := write(b, map[string]string{"m.hcl": mockConfig, "m_test.hcl": benchTests})
	suites, err := Discover([]string{filepath.Join(dir, "m.hcl")})
	if err != nil {
		b.Fatal(err)
	}
	p, diags := Prepare(suites[0], table.Options{})
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	c := p.Cases[0]
	r := &runner{opts: Options{Parallel: 1}}
	tbl := baselineTable(b, p, c)
	ctx := context.Background()
	in := &dispatch.CallInput{Arguments: c.Target.Arguments}

	b.ReportAllocs()
	var callNs, testNs, callCPU, testCPU int64
	var callBytes, testBytes uint64
	var ms runtime.MemStats
	for b.Loop() {
		start, cpu0, bytes0 := time.Now(), processCPU(), allocated(&ms)
		if res, err := dispatch.CallTool(ctx, tbl, "add", in); err != nil || res.IsError {
			b.Fatalf("baseline call: %+v %v", res, err)
		}
		mid, cpu1, bytes1 := time.Now(), processCPU(), allocated(&ms)
		if res := r.run(ctx, p, c); res.Status != Passed {
			b.Fatalf("test: %s", res.Problems)
		}
		callNs, testNs = callNs+mid.Sub(start).Nanoseconds(), testNs+time.Since(mid).Nanoseconds()
		callCPU, testCPU = callCPU+cpu1-cpu0, testCPU+processCPU()-cpu1
		callBytes, testBytes = callBytes+bytes1-bytes0, testBytes+allocated(&ms)-bytes1
	}
	n := float64(b.N)
	b.ReportMetric(float64(callNs)/n, "call-ns/op")
	b.ReportMetric(float64(testNs)/n, "test-ns/op")
	b.ReportMetric(float64(callCPU)/n, "call-cpu-ns/op")
	b.ReportMetric(float64(testCPU)/n, "test-cpu-ns/op")
	b.ReportMetric(float64(callBytes)/n, "call-B/op")
	b.ReportMetric(float64(testBytes)/n, "test-B/op")
}

// baselineTable compiles the case's configuration once and answers its
// HTTP backend with the case's mocks.
func baselineTable(b *testing.B, p *Prepared, c *Case) *table.Table {
	tbl, diags := table.Compile(p.Config, all.Registry(), table.Options{})
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	api := tbl.Backends["api"].(*httpadapter.Backend)
	api.WrapTransport = func(http.RoundTripper) http.RoundTripper {
		return &mockTransport{backend: "api", basePath: "/base", mocks: c.mocks["api"], misses: &misses{}, used: map[*mock]bool{}}
	}
	if failed := tbl.OpenBackends(context.Background()); len(failed) > 0 {
		b.Fatal(failed[0].Err)
	}
	b.Cleanup(func() { tbl.CloseBackends(nil) })
	return tbl
}

func allocated(ms *runtime.MemStats) uint64 {
	runtime.ReadMemStats(ms)
	return ms.TotalAlloc
}

func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
