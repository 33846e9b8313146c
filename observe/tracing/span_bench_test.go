package tracing

import (
	"context"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// discardSpans is an exporter that drops what it is given: the spans'
// making is measured, not their export (BenchmarkOTLPExport is that).
type discardSpans struct{}

func (discardSpans) ExportSpans(context.Context, []*Span) error { return nil }
func (discardSpans) Shutdown(context.Context) error             { return nil }

// BenchmarkCallSpans makes the spans of one traced tools/call with one
// SQL statement, as the server and the adapter ask for them (a server
// span, a client span under it), batched and dropped; per call:
//
//	go test ./observe/tracing/ -run '^$' -bench CallSpans -benchmem
func BenchmarkCallSpans(b *testing.B) {
	// A queue long enough that no span is dropped while the loop outruns
	// the exporting goroutine (a dropped span would cost less).
	p := NewProvider(NewBatcher(discardSpans{}, BatchOptions{MaxQueue: 1 << 16}), ProviderOptions{Sampler: AlwaysOn})
	b.Cleanup(func() { _ = p.Shutdown(context.Background()) })
	t := p.Tracer()
	req := &mcp.Request{Method: "tools/call", ID: []byte("7"), ProtocolVersion: "2026-07-28"}
	summary := &adapter.CallSummary{Kind: "sql", Backend: "db", Operation: "sqlite greet",
		Attributes: []adapter.Attribute{{Key: "db.system.name", Value: "sqlite"}, {Key: "db.operation.name", Value: "SELECT"}}}
	b.ReportAllocs()
	for b.Loop() {
		ctx := t.StartCall(context.Background(), req, server.KindTool, "greet")
		call := &adapter.Call{Summary: summary}
		bctx := t.CallStarted(ctx, call)
		call.Outcome = adapter.OutcomeOK
		t.CallEnded(bctx, call)
		t.EndCall(ctx, server.OutcomeOK, "")
	}
}
