package table_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// liveBytesPerTool is the budget of what a compiled table keeps per tool
// of an import-like configuration (internal/largecfg), once the load's
// garbage is collected (3.6 KB now). It was 7.6 KB while every tool held its own
// schemas and annotations.
const liveBytesPerTool = 4500

// TestTableMemoryPerTool: the table of a generated 2,000-tool config keeps
// at most liveBytesPerTool per tool of live heap.
func TestTableMemoryPerTool(t *testing.T) {
	const n = 2000
	var src bytes.Buffer
	if err := largecfg.Write(&src, n); err != nil {
		t.Fatal(err)
	}
	before := liveHeap()
	cfg, diags := lang.LoadSource("large.hcl", src.Bytes())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg = nil
	src = bytes.Buffer{}
	perTool := (int64(liveHeap()) - int64(before)) / n
	runtime.KeepAlive(tbl)
	t.Logf("%d bytes live per tool", perTool)
	if perTool > liveBytesPerTool {
		t.Errorf("the table keeps %d bytes per tool, over the budget of %d", perTool, liveBytesPerTool)
	}
}

// liveHeap is the heap in use by reachable objects after a full
// collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
