package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// Exact numbers: a decimal the backend wrote (NUMERIC 304.80, a JSON
// 12345678901234567.89, an integer past 64 bits) reaches the client with
// the same digits, through paths, templates, structured output, error
// messages and resource templates. The answers are read as raw JSON-RPC
// bytes: a client library decoding numbers as doubles would hide the very
// loss these tests look for.

// exactServer serves the configuration src in process and returns a
// function posting one modern JSON-RPC request and returning the raw
// response body.
func exactServer(t *testing.T, src string, vars map[string]string) func(method, name, params string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "exact.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcp.NewServer(openServer(t, path, vars, nil, nil), nil).HTTPHandler(nil))
	t.Cleanup(ts.Close)
	return func(method, name, params string) string {
		t.Helper()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s,`+
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, method, params)
		req, err := http.NewRequestWithContext(testCtx(t), http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
		req.Header.Set("Mcp-Method", method)
		req.Header.Set("Mcp-Name", name)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// callTool posts tools/call of a tool without arguments.
func callTool(post func(method, name, params string) string, tool string) string {
	return post("tools/call", tool, fmt.Sprintf(`"name":%q,"arguments":{}`, tool))
}

// wantIn checks that the raw answer holds each piece, byte for byte.
func wantIn(t *testing.T, what, raw string, pieces ...string) {
	t.Helper()
	for _, p := range pieces {
		if !strings.Contains(raw, p) {
			t.Errorf("%s: the answer lacks %s:\n%s", what, p, raw)
		}
	}
}

// exactJSON is the API answer: numbers a double would change.
const exactJSON = `{"price":304.80,"big":12345678901234567.89,"huge":123456789012345678901234567890,` +
	`"tiny":1.0e-7,"neg":-0,"items":[{"sku":"a","price":0.10},{"sku":"b","price":99999999999999999.99}]}`

func TestHostileExactNumbersHTTP(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/dear") {
			_, _ = io.WriteString(w, `{"price":1000.50}`)
			return
		}
		_, _ = io.WriteString(w, exactJSON)
	}))
	t.Cleanup(api.Close)
	post := exactServer(t, `
variable "base_url" {
  type = string
}
backend "http" "api" {
  base_url = var.base_url
}
tool "plain" {
  description = "The answer as it is."
  http "api" {
    path = "/price"
  }
}
tool "picked" {
  description = "One item, its price in words."
  http "api" {
    path = "/price"
  }
  result {
    structured = "{'item': body.items[1], 'prices': map(body.items, .price), 'big': body.big, 'huge': body.huge, 'tiny': body.tiny, 'neg': body.neg}"
    text       = "Price {{ body.price }}, big {{ body.big }}, huge {{ body.huge }}, tiny {{ body.tiny }}, dear {{ body.price > 300 }}"
  }
}
tool "filtered" {
  description = "Items over a price."
  http "api" {
    path = "/price"
  }
  result {
    structured = "filter(body.items, .price > 1)[0]"
    text       = "{{ sum(body.items, .price) > 1e16 }} {{ body.price + 0.2 }}"
  }
}
tool "dear" {
  description = "Refuses dear things."
  http "api" {
    path = "/dear"
  }
  error {
    when    = "body.price >= 1000.5"
    message = "Too dear: {{ body.price }}."
  }
}
resource_template "price" {
  uri_template = "prices://{sku}"
  mime_type    = "text/plain"
  arg "sku" {
    pattern = "^[a-z]+$"
  }
  http "api" {
    path = "/price"
  }
  result {
    text = "{{ args.sku }}: {{ body.items[0].price }} and {{ body.big }}"
  }
}
resource_template "price_json" {
  uri_template = "prices-json://{sku}"
  mime_type    = "application/json"
  arg "sku" {
    pattern = "^[a-z]+$"
  }
  http "api" {
    path = "/price"
  }
  result {
    structured = "body.items[1]"
  }
}
`, map[string]string{"base_url": api.URL})

	raw := callTool(post, "plain")
	wantIn(t, "plain", raw, `"price":304.80`, `"big":12345678901234567.89`, `"huge":123456789012345678901234567890`,
		`"tiny":1.0e-7`, `"neg":-0,`, `"price":99999999999999999.99`)

	raw = callTool(post, "picked")
	wantIn(t, "picked", raw, `"item":{"price":99999999999999999.99,"sku":"b"}`, `"prices":[0.10,99999999999999999.99]`,
		`"big":12345678901234567.89`, `"huge":123456789012345678901234567890`, `"tiny":1.0e-7`, `"neg":-0`,
		`Price 304.80, big 12345678901234567.89, huge 123456789012345678901234567890, tiny 1.0e-7, dear true`)

	raw = callTool(post, "filtered")
	wantIn(t, "filtered", raw, `"structuredContent":{"price":99999999999999999.99,"sku":"b"}`, `"text":"true 305`)

	raw = callTool(post, "dear")
	wantIn(t, "dear", raw, `Too dear: 1000.50.`, `"isError":true`)

	raw = post("resources/read", "prices://a", `"uri":"prices://a"`)
	wantIn(t, "resource template text", raw, `a: 0.10 and 12345678901234567.89`)
	raw = post("resources/read", "prices-json://a", `"uri":"prices-json://a"`)
	wantIn(t, "resource template JSON", raw, `{\"price\":99999999999999999.99,\"sku\":\"b\"}`)
}

// exactSQL is one database the SQL exactness cases run on.
type exactSQL struct {
	name, driver, dsn, column string
	// total is how the database gives a stored 304.80.
	total string
}

func exactDatabases(t *testing.T) []exactSQL {
	dbs := []exactSQL{
		// SQLite has no decimal type: NUMERIC stores 304.80 as the double
		// 304.8 (docs/language.md says so); TEXT keeps what was written.
		{name: "sqlite-numeric", driver: "sqlite", column: "NUMERIC", total: "304.8"},
		{name: "sqlite-text", driver: "sqlite", column: "TEXT", total: `"304.80"`},
	}
	if dsn := testenv.Postgres.Optional(t, "the PostgreSQL NUMERIC case"); dsn != "" {
		dbs = append(dbs, exactSQL{name: "postgres", driver: "postgres", dsn: dsn, column: "NUMERIC(40,2)", total: "304.80"})
	}
	if dsn := testenv.MySQL.Optional(t, "the MariaDB DECIMAL case"); dsn != "" {
		dbs = append(dbs, exactSQL{name: "mariadb", driver: "mysql", dsn: dsn, column: "DECIMAL(40,2)", total: "304.80"})
	}
	return dbs
}

// prepareExact creates an orders table on db and returns the DSN the
// backend uses and the table's name.
func prepareExact(t *testing.T, db exactSQL) (dsn, table string) {
	t.Helper()
	drv, dsn := db.driver, db.dsn
	if db.driver == "sqlite" {
		dsn = "file:" + filepath.Join(t.TempDir(), "exact.db")
	}
	if drv == "postgres" {
		drv = "pgx"
	}
	admin, err := sql.Open(drv, strings.TrimPrefix(dsn, "file:"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	table = fmt.Sprintf("exact_orders_%d", time.Now().UnixNano())
	stmts := []string{
		fmt.Sprintf("CREATE TABLE %s (id INTEGER PRIMARY KEY, total %s NOT NULL)", table, db.column),
		fmt.Sprintf("INSERT INTO %s VALUES (1, '304.80'), (2, '12345678901234567.89'), (3, '0.10')", table),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, s := range stmts {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() { _, _ = admin.Exec("DROP TABLE " + table) })
	return dsn, table
}

func TestHostileExactNumbersSQL(t *testing.T) {
	for _, db := range exactDatabases(t) {
		t.Run(db.name, func(t *testing.T) {
			dsn, table := prepareExact(t, db)
			num := func(x string) string { // a column read as a number; TEXT needs float()
				if db.column == "TEXT" {
					return "float(" + x + ")"
				}
				return x
			}
			src := fmt.Sprintf(`
backend "sql" "db" {
  driver = %q
  dsn    = %q
}
tool "first" {
  description = "The first order."
  sql "db" {
    query = "SELECT id, total FROM %[3]s ORDER BY id"
  }
  result {
    structured = "rows[0]"
    text       = "Order {{ rows[0].id }}: {{ rows[0].total }}; big {{ rows[1].total }}; over 300: {{ `+num("rows[0].total")+` > 300 }}"
  }
}
tool "big" {
  description = "The big order, found by a comparison."
  sql "db" {
    query = "SELECT id, total FROM %[3]s ORDER BY id"
  }
  error {
    when    = "len(rows) == 3 && `+num("rows[2].total")+` < 0.05"
    message = "Too small: {{ rows[2].total }}"
  }
  result {
    structured = "{'big': filter(rows, .id == 2)[0].total, 'all': map(rows, .total)}"
  }
}
resource_template "order" {
  uri_template = "orders://{id}"
  mime_type    = "text/plain"
  arg "id" {
    type = integer
  }
  sql "db" {
    query = "SELECT total FROM %[3]s WHERE id = ${args.id}"
  }
  result {
    text = "Order {{ args.id }} costs {{ rows[0].total }}"
  }
}
`, db.driver, dsn, table)
			post := exactServer(t, src, nil)

			raw := callTool(post, "first")
			wantIn(t, "rows[0]", raw, fmt.Sprintf(`"structuredContent":{"id":1,"total":%s}`, db.total),
				fmt.Sprintf(`Order 1: %s; `, strings.Trim(db.total, `"`)), "over 300: true")
			raw = post("resources/read", "orders://1", `"uri":"orders://1"`)
			wantIn(t, "resource template", raw, fmt.Sprintf(`Order 1 costs %s`, strings.Trim(db.total, `"`)))
			if strings.HasPrefix(db.name, "sqlite-numeric") {
				return // the doubles SQLite keeps are checked above
			}
			raw = callTool(post, "first")
			wantIn(t, "big row", raw, "big 12345678901234567.89;")
			raw = callTool(post, "big")
			var big, all string
			if db.column == "TEXT" {
				big, all = `"12345678901234567.89"`, `["304.80","12345678901234567.89","0.10"]`
			} else {
				big, all = `12345678901234567.89`, `[304.80,12345678901234567.89,0.10]`
			}
			wantIn(t, "big", raw, fmt.Sprintf(`"structuredContent":{"all":%s,"big":%s}`, all, big))
			var resp struct {
				Result struct{ IsError bool } `json:"result"`
			}
			if err := json.Unmarshal([]byte(raw), &resp); err != nil || resp.Result.IsError {
				t.Errorf("big: the error rule fired on 0.10 < 0.05, or the answer is not JSON (%v):\n%s", err, raw)
			}
		})
	}
}
