package httpadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-resty/resty/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// jsonAnswer2K is a 2 KB JSON answer: a list of 16 books.
func jsonAnswer2K() []byte {
	var sb strings.Builder
	sb.WriteString(`{"total": 16, "items": [`)
	for i := range 16 {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"isbn": "978-3-16-1484%02d-0", "title": "Book number %d", "year": %d, "price": %d.5, "ok": true}`, i, i, 1990+i, 10+i)
	}
	sb.WriteString(`]}`)
	s := sb.String()
	for len(s) < 2048 {
		s = strings.Replace(s, `"total"`, `"note": "padding", "total"`, 1)
	}
	return []byte(s)
}

// BenchmarkInvoke compares Action.Invoke of a GET with a 2 KB JSON answer
// against a plain resty call to the same loopback server in the same run.
func BenchmarkInvoke(b *testing.B) {
	body := jsonAnswer2K()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	ctx := context.Background()

	b.Run("mcpdecl", func(b *testing.B) {
		c := compileEnv(b, fmt.Sprintf(`
backend "http" "api" {
  base_url = "%s"
  headers  = { Accept = "application/json" }
  retry { attempts = 3 }
}
http "api" {
  path  = "/books/${args.isbn}"
  query = { q = args.query }
}`, srv.URL), nil)
		req := &adapter.Request{
			Args:     args(map[string]cty.Value{"isbn": cty.StringVal("978-3-16"), "query": cty.StringVal("go lang")}),
			Static:   c.static,
			Progress: func(float64, float64, string) {},
			Log:      func(string, any) {},
		}
		b.ReportAllocs()
		for b.Loop() {
			res, err := c.actions[0].Invoke(ctx, req)
			if err != nil || res.Structured == nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("resty", func(b *testing.B) {
		client := resty.New()
		b.ReportAllocs()
		for b.Loop() {
			resp, err := client.R().SetContext(ctx).
				SetHeader("Accept", "application/json").
				SetQueryParam("q", "go lang").
				Get(srv.URL + "/books/978-3-16")
			if err != nil || len(resp.Body()) != len(body) {
				b.Fatal(err)
			}
		}
	})
	b.Run("resty+json", func(b *testing.B) {
		client := resty.New()
		b.ReportAllocs()
		for b.Loop() {
			resp, err := client.R().SetContext(ctx).
				SetHeader("Accept", "application/json").
				SetQueryParam("q", "go lang").
				Get(srv.URL + "/books/978-3-16")
			if err != nil {
				b.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(resp.Body(), &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOverhead measures the adapter's own work without the network:
// building the request from the arguments, and describing a 2 KB JSON
// answer.
func BenchmarkOverhead(b *testing.B) {
	c := compileEnv(b, `
backend "http" "api" {
  base_url = "http://127.0.0.1:1"
  headers  = { Accept = "application/json" }
}
http "api" {
  path  = "/books/${args.isbn}"
  query = { q = args.query }
}`, nil)
	act := c.actions[0]
	rt, err := act.Backend.runtime()
	if err != nil {
		b.Fatal(err)
	}
	req := &adapter.Request{
		Args:   args(map[string]cty.Value{"isbn": cty.StringVal("978-3-16"), "query": cty.StringVal("go lang")}),
		Static: c.static,
		Log:    func(string, any) {},
	}
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := act.build(rt, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	body := jsonAnswer2K()
	ans := &answer{status: 200, reason: "200 OK", data: body, header: http.Header{
		"Content-Type": {"application/json"}, "Date": {"Tue, 01 Dec 2026 00:00:00 GMT"}, "Content-Length": {"2071"},
	}}
	b.Run("result", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if res := act.result(rt, ans, req); res.Structured == nil {
				b.Fatal("no structured content")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
