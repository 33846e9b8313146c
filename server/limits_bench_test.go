package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/server"
)

// benchLimit is a per-caller limit on echo that never refuses: each call
// takes a token from the memory store.
const benchLimit = `
limit "bench" {
  per   = "caller"
  rate  = "1000000/second"
  burst = 1000000
}
`

// BenchmarkLimitsAudit is BenchmarkEcho's call through the whole HTTP
// handler with limits and the audit trail off, with a limit, with the
// audit trail (to a file), and with both; "off" is the same call as
// BenchmarkEcho/mcpdecl, and the others' extra cost is their time over
// it in the same run.
//
//	go test ./server/ -run '^$' -bench LimitsAudit -benchmem -count 6
func BenchmarkLimitsAudit(b *testing.B) {
	echo := hooksBenchEcho
	for _, c := range []struct {
		name   string
		limits bool
		audit  bool
	}{{"off", false, false}, {"limits", true, false}, {"audit", false, true}, {"both", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			src := echo
			if c.limits {
				src += benchLimit
			}
			tbl, err := compileSource("echo.hcl", src)
			if err != nil {
				b.Fatal(err)
			}
			opts := &server.Options{}
			if c.audit {
				l, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"))
				if err != nil {
					b.Fatal(err)
				}
				defer l.Close()
				opts.Audit = l
			}
			srv := server.New(tbl, opts)
			runEcho(b, mcp.NewServer(srv, nil).HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard}))
		})
	}
}

// BenchmarkHooksDirect is the same comparison without HTTP: CallTool
// called directly, so that the hooks' cost is not lost in the noise of
// the transport.
//
//	go test ./server/ -run '^$' -bench HooksDirect -benchmem -count 10
func BenchmarkHooksDirect(b *testing.B) {
	for _, c := range []struct {
		name   string
		limits bool
		audit  bool
	}{{"off", false, false}, {"limits", true, false}, {"audit", false, true}, {"both", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			src := hooksBenchEcho
			if c.limits {
				src += benchLimit
			}
			tbl, err := compileSource("echo.hcl", src)
			if err != nil {
				b.Fatal(err)
			}
			opts := &server.Options{}
			if c.audit {
				l, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"))
				if err != nil {
					b.Fatal(err)
				}
				defer l.Close()
				opts.Audit = l
			}
			srv := server.New(tbl, opts)
			ctx := context.Background()
			req := &mcp.Request{Method: "tools/call", Era: mcp.EraModern, ProtocolVersion: mcp.Version20260728, Header: http.Header{}, Notifier: benchNotifier{}}
			p := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hello"}`)}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if res, err := srv.CallTool(ctx, req, p); err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}

const hooksBenchEcho = `
server {
  name    = "echo"
  version = "1.0.0"
}
tool "echo" {
  description = "Echoes the text back."
  arg "text" {
    type        = string
    description = "Text to echo."
  }
  content "text" {
    text = "echo: ${args.text}"
  }
}
`

type benchNotifier struct{}

func (benchNotifier) Progress(context.Context, float64, float64, string) error { return nil }
func (benchNotifier) Log(context.Context, string, string, any) error           { return nil }
func (benchNotifier) Request(context.Context, string, any) (json.RawMessage, error) {
	return nil, mcp.ErrNoBackChannel
}
