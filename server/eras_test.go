package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// TestEveryRevisionOverStdio serves testdata/interop.hcl over one stdio
// pipe per legacy revision, each also carrying modern requests (dual-era on
// one pipe), sends every method the configuration
// supports, and validates every answer against the schema of its revision.
// It also pins the per-era differences a schema cannot see.
func TestEveryRevisionOverStdio(t *testing.T) {
	requireSchemas(t)
	requests := []string{
		`"method":"tools/list"`,
		`"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}%s}`,
		`"method":"tools/call","params":{"name":"add","arguments":{"a":-1,"b":"x"}%s}`,
		`"method":"resources/list"`,
		`"method":"resources/templates/list"`,
		`"method":"resources/read","params":{"uri":"docs://readme"%s}`,
		`"method":"resources/read","params":{"uri":"greet://Bob"%s}`,
		`"method":"resources/read","params":{"uri":"docs://missing"%s}`,
		`"method":"prompts/list"`,
		`"method":"prompts/get","params":{"name":"review","arguments":{"code":"x"}%s}`,
		`"method":"prompts/get","params":{"name":"review","arguments":{}%s}`,
		`"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"p"}%s}`,
		`"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"greet://{name}"},"argument":{"name":"name","value":""}%s}`,
	}
	for _, rev := range []string{mcp.Version20250326, mcp.Version20250618, mcp.Version20251125} {
		t.Run(rev, func(t *testing.T) {
			log := &wireLog{}
			proto := mcp.NewServer(server.New(compileFile(t, interopConfig), nil), nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			tap := newStdioTap(log)
			w, r := tap.clientWriter(inW), tap.serverReader(outR)
			go func() { _ = proto.ServeStdio(ctx, inR, outW); outW.Close() }()
			lines := readLines(r)
			answers := map[string]json.RawMessage{}
			ask := func(id, body string) {
				t.Helper()
				if _, err := io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,`+body+"}\n"); err != nil {
					t.Fatal(err)
				}
			}
			await := func(n int) {
				t.Helper()
				for len(answers) < n {
					select {
					case line, ok := <-lines:
						if !ok {
							t.Fatal("stdout closed")
						}
						var m struct{ ID json.RawMessage }
						_ = json.Unmarshal(line, &m)
						answers[string(m.ID)] = line
					case <-time.After(10 * time.Second):
						t.Fatalf("only %d of %d answers", len(answers), n)
					}
				}
			}
			ask("0", `"method":"initialize","params":{"protocolVersion":"`+rev+`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
			await(1)
			io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			for i, req := range requests {
				legacyReq := strings.ReplaceAll(req, "%s", "")
				modernReq := strings.ReplaceAll(req, "%s", ","+modernMeta)
				if !strings.Contains(req, "%s") {
					modernReq = req + `,"params":{` + modernMeta + `}`
				}
				ask(fmt.Sprint(100+i), legacyReq)
				ask(fmt.Sprintf(`"m%d"`, i), modernReq)
			}
			ask(`"discover"`, `"method":"server/discover","params":{`+modernMeta+`}`)
			ask("99", `"method":"ping"`)
			await(2 + 2*len(requests) + 1)

			errCode := func(id string) int {
				var m struct{ Error *struct{ Code int } }
				_ = json.Unmarshal(answers[id], &m)
				if m.Error == nil {
					return 0
				}
				return m.Error.Code
			}
			// Missing resource: -32002 in every legacy revision, -32602 modern.
			if got := errCode("107"); got != mcp.CodeResourceNotFound {
				t.Errorf("legacy missing resource: code %d, want -32002: %s", got, answers["107"])
			}
			if got := errCode(`"m7"`); got != mcp.CodeInvalidParams {
				t.Errorf("modern missing resource: code %d, want -32602: %s", got, answers[`"m7"`])
			}
			// Missing required prompt argument: -32602 in both eras.
			for _, id := range []string{"110", `"m10"`} {
				if got := errCode(id); got != mcp.CodeInvalidParams {
					t.Errorf("prompts/get without code (%s): code %d, want -32602", id, got)
				}
			}
			// structuredContent and outputSchema arrived in 2025-06-18.
			hasStructured := strings.Contains(string(answers["101"]), "structuredContent")
			hasOutputSchema := strings.Contains(string(answers["100"]), "outputSchema")
			if want := rev != mcp.Version20250326; hasStructured != want || hasOutputSchema != want {
				t.Errorf("%s: structuredContent %v, outputSchema %v; want %v", rev, hasStructured, hasOutputSchema, want)
			}
			// Argument violations are isError results, never protocol errors.
			for _, id := range []string{"102", `"m2"`} {
				if !strings.Contains(string(answers[id]), `"isError":true`) {
					t.Errorf("invalid arguments (%s): %s", id, answers[id])
				}
			}
			inW.Close()
			log.verify(t, rev+" initialize", rev+" tools/call", rev+" resources/read", rev+" completion/complete",
				rev+" ping", "2026-07-28 server/discover", "2026-07-28 tools/call", "2026-07-28 resources/templates/list")
		})
	}
}
