package server_test

import (
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/metrics"
	"github.com/mcpdecl/mcpdecl/server"
)

// BenchmarkToolsCallMetrics is the greet call of BenchmarkToolsCall with
// metrics off (no observer, no request hook: what serve runs without
// --metrics) and on (serve --metrics), in one run; the "on" lines report
// what metrics add per call:
//
//	go test ./server/ -run '^$' -bench ToolsCallMetrics -benchmem
func BenchmarkToolsCallMetrics(b *testing.B) {
	table := compileFile(b, interopConfig)
	off := mcp.NewServer(server.New(table, nil), nil).HTTPHandler(nil)
	reg := metrics.New()
	on := mcp.NewServer(server.New(table, &server.Options{Observer: reg}), &mcp.Options{OnRequest: reg.Request}).HTTPHandler(nil)
	for _, era := range []string{"modern", "legacy"} {
		var base [2]float64
		b.Run("off/"+era, func(b *testing.B) {
			ns, bytes := measureCalls(b, "metrics off", off, era)
			base = [2]float64{ns, bytes}
		})
		b.Run("on/"+era, func(b *testing.B) {
			ns, bytes := measureCalls(b, "metrics on", on, era)
			if base[0] > 0 {
				b.ReportMetric(ns-base[0], "extra-ns/op")
				b.ReportMetric(bytes-base[1], "extra-B/op")
			}
		})
	}
}
