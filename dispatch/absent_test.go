package dispatch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// absentTool reads each optional argument (none has a default) in
// expr-lang programs: whether it is nil, and what ?? gives.
const absentTool = `
tool "opt" {
  description = "Reads optional arguments."
  arg "s" {
    type     = string
    required = false
  }
  arg "i" {
    type     = integer
    optional = true
  }
  arg "n" {
    type     = number
    optional = true
  }
  arg "b" {
    type     = bool
    optional = true
  }
  arg "l" {
    type     = list(string)
    optional = true
  }
  arg "m" {
    type     = map(string)
    optional = true
  }
  arg "o" {
    type     = object({ p = optional(number), q = string })
    optional = true
  }
  arg "a" {
    type     = any
    optional = true
  }
  arg "d" {
    type    = string
    default = "dflt"
  }
  result {
    text = <<-EOT
      s={{ args.s == nil }},{{ args.s ?? 'x' }}
      i={{ args.i == nil }},{{ args.i ?? 'x' }}
      n={{ args.n == nil }},{{ args.n ?? 'x' }}
      b={{ args.b == nil }},{{ args.b ?? 'x' }}
      l={{ args.l == nil }},{{ args.l ?? 'x' }}
      m={{ args.m == nil }},{{ args.m ?? 'x' }}
      o={{ args.o == nil }},{{ args.o?.q ?? 'x' }},{{ args.o?.p ?? 'x' }}
      a={{ args.a == nil }},{{ args.a ?? 'x' }}
      d={{ args.d == nil }},{{ args.d ?? 'x' }}
      EOT
  }
}
`

// TestAbsentArgumentsAreNilInPrograms: an optional argument without a
// default that the call leaves out is nil in expr-lang (== nil holds, ??
// falls back); one that is sent, even as "", 0, false or empty, is not.
func TestAbsentArgumentsAreNilInPrograms(t *testing.T) {
	tbl := compileTableForCalls(t, absentTool)
	for _, c := range []struct{ args, want string }{
		{`{}`, "s=true,x\ni=true,x\nn=true,x\nb=true,x\nl=true,x\nm=true,x\no=true,x,x\na=true,x\nd=false,dflt\n"},
		{`{"s":"","i":0,"n":0,"b":false,"l":[],"m":{},"o":{"q":""},"a":0,"d":""}`,
			"s=false,\ni=false,0\nn=false,0\nb=false,false\nl=false,[]\nm=false,{}\no=false,,x\na=false,0\nd=false,\n"},
		{`{"s":"v","i":2,"n":1.50,"b":true,"l":["e"],"m":{"k":"v"},"o":{"p":2.50,"q":"w"},"a":"z"}`,
			"s=false,v\ni=false,2\nn=false,1.50\nb=false,true\nl=false,[\"e\"]\nm=false,{\"k\":\"v\"}\no=false,w,2.50\na=false,z\nd=false,dflt\n"},
	} {
		res := callTableTool(t, tbl, "opt", c.args)
		if res.IsError || len(res.Content) != 1 || res.Content[0].Text != c.want {
			t.Errorf("%s: got %+v\nwant %q", c.args, res.Content, c.want)
		}
	}
}

// TestWholeArgsShowAbsentAsNull: a program that returns the arguments
// whole shows an absent optional one as null, a sent one as sent.
func TestWholeArgsShowAbsentAsNull(t *testing.T) {
	tbl := compileTableForCalls(t, `
tool "echo_args" {
  description = "Returns its arguments."
  arg "name" {
    type = string
  }
  arg "nick" {
    type     = string
    optional = true
  }
  arg "o" {
    type     = object({ p = optional(integer), q = optional(bool) })
    optional = true
  }
  result {
    structured = "args"
  }
}`)
	for args, want := range map[string]string{
		`{"name":"ada"}`: `{"name":"ada","nick":null,"o":null}`,
		`{"name":"ada","nick":"","o":{"q":false}}`: `{"name":"ada","nick":"","o":{"p":null,"q":false}}`,
	} {
		res := callTableTool(t, tbl, "echo_args", args)
		if string(res.Structured) != want {
			t.Errorf("%s: structured content %s, want %s", args, res.Structured, want)
		}
	}
}

// TestAbsentArgumentsAreNullInHCL: the same arguments are null in HCL
// expressions, where == null, coalesce and conditionals see it, and in
// validations.
func TestAbsentArgumentsAreNullInHCL(t *testing.T) {
	api := &absentAPI{}
	tbl := absentTable(t, api, `
tool "find" {
  description = "Finds things."
  arg "q" {
    type     = string
    optional = true
  }
  arg "limit" {
    type     = integer
    optional = true
  }
  arg "exact" {
    type     = bool
    optional = true
  }
  arg "tags" {
    type     = list(string)
    optional = true
  }
  arg "o" {
    type     = object({ k = string })
    optional = true
  }
  validation {
    condition     = args.limit == null || args.limit < 100
    error_message = "limit must be below 100"
  }
  http "api" {
    path = "/find"
    query = {
      q      = args.q
      limit  = args.limit
      exact  = args.exact
      tags   = args.tags
      q_null = args.q == null
      q_or   = coalesce(args.q, "any")
      l_or   = args.limit != null ? args.limit : -1
      k      = args.o == null ? "none" : args.o.k
    }
  }
}`)
	for args, want := range map[string]string{
		`{}`: "GET /find?k=none&l_or=-1&q_null=true&q_or=any",
		`{"q":"","limit":0,"exact":false,"tags":[],"o":{"k":""}}`: "GET /find?exact=false&k=&l_or=0&limit=0&q=&q_null=false&q_or=",
		`{"q":"a","limit":5,"exact":true,"tags":["x"]}`:           "GET /find?exact=true&k=none&l_or=5&limit=5&q=a&q_null=false&q_or=a&tags=x",
	} {
		res := callTableTool(t, tbl, "find", args)
		if res.IsError {
			t.Errorf("%s: %+v", args, res.Content)
			continue
		}
		if got := api.take(); len(got) != 1 || got[0] != want {
			t.Errorf("%s: requests %q, want %q", args, got, want)
		}
	}
	if res := callTableTool(t, tbl, "find", `{"limit":200}`); !res.IsError || !strings.Contains(res.Content[0].Text, "limit must be below 100") {
		t.Errorf("got %+v, want the validation's message", res.Content)
	}
}

// TestStepSkippedWhenArgumentAbsent: a step guarded by args.card != nil
// does not run when card is left out, and runs (reading the value in its
// path) when it is sent, "" included.
func TestStepSkippedWhenArgumentAbsent(t *testing.T) {
	api := &absentAPI{}
	tbl := absentTable(t, api, `
tool "pay" {
  description = "Pays, checking the card when one is given."
  arg "amount" {
    type = integer
  }
  arg "card" {
    type     = string
    optional = true
  }
  step "check" {
    when = "args.card != nil"
    http "api" {
      path = "/cards/${args.card}"
    }
  }
  http "api" {
    path = "/pay"
    query = {
      amount = args.amount
    }
  }
  result {
    text = "{{ steps.check.status == 0 ? 'unchecked' : 'checked' }} {{ args.card ?? 'no card' }}"
  }
}`)
	res := callTableTool(t, tbl, "pay", `{"amount":5}`)
	if res.IsError || res.Content[0].Text != "unchecked no card" {
		t.Errorf("without a card: %+v", res.Content)
	}
	if got := api.take(); len(got) != 1 || got[0] != "GET /pay?amount=5" {
		t.Errorf("without a card: requests %q, want only the payment", got)
	}
	res = callTableTool(t, tbl, "pay", `{"amount":5,"card":"c1"}`)
	if res.IsError || res.Content[0].Text != "checked c1" {
		t.Errorf("with a card: %+v", res.Content)
	}
	if got := api.take(); len(got) != 2 || got[0] != "GET /cards/c1" {
		t.Errorf("with a card: requests %q, want the check first", got)
	}
}

// TestAbsentArgumentsReachBackendsAsNull: an absent argument is bound as
// NULL in SQL, sent as null in a JSON body, and a path that needs it is an
// error that says so.
func TestAbsentArgumentsReachBackendsAsNull(t *testing.T) {
	api := &absentAPI{}
	tbl := absentTable(t, api, `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
tool "sql_null" {
  description = "Tells whether a parameter is NULL."
  arg "x" {
    type     = string
    optional = true
  }
  sql "db" {
    query = "SELECT ${args.x} IS NULL AS is_null, coalesce(${args.x}, 'none') AS x"
  }
  result {
    text = "{{ rows[0].is_null }} {{ rows[0].x }}"
  }
}
tool "body_null" {
  description = "Sends an optional argument in a body."
  arg "x" {
    type     = string
    optional = true
  }
  http "api" {
    method = "POST"
    path   = "/things"
    body   = { x = args.x }
  }
}
tool "path_null" {
  description = "Needs an optional argument in the path."
  arg "x" {
    type     = string
    optional = true
  }
  http "api" {
    path = "/things/${args.x}"
  }
}`)
	for args, want := range map[string]string{`{}`: "1 none", `{"x":""}`: "0 ", `{"x":"a"}`: "0 a"} {
		if res := callTableTool(t, tbl, "sql_null", args); res.IsError || res.Content[0].Text != want {
			t.Errorf("sql %s: %+v, want %q", args, res.Content, want)
		}
	}
	callTableTool(t, tbl, "body_null", `{}`)
	callTableTool(t, tbl, "body_null", `{"x":""}`)
	if got := api.take(); len(got) != 2 || got[0] != `POST /things {"x":null}` || got[1] != `POST /things {"x":""}` {
		t.Errorf("bodies %q", got)
	}
	if res := callTableTool(t, tbl, "path_null", `{}`); !res.IsError {
		t.Errorf("a null path segment: %+v, want an error", res.Content)
	}
	if got := api.take(); len(got) != 0 {
		t.Errorf("a null path segment sent %q", got)
	}
}

// absentAPI records each request as "METHOD path?query body".
type absentAPI struct {
	mu   sync.Mutex
	seen []string
}

func (a *absentAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.Query().Encode()
	}
	if len(b) > 0 {
		line += " " + strings.TrimSpace(string(b))
	}
	a.mu.Lock()
	a.seen = append(a.seen, line)
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"ok":true}`))
}

func (a *absentAPI) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.seen
	a.seen = nil
	return out
}

func absentTable(t *testing.T, api *absentAPI, src string) *table.Table {
	t.Helper()
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	cfg, diags := lang.LoadSource("absent.hcl", []byte(`
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
	return tbl
}

// TestAbsentArgumentInCommand: a command element that needs an absent
// argument is refused, the command not run; a null stdin writes nothing
// and a null environment value leaves the variable unset.
func TestAbsentArgumentInCommand(t *testing.T) {
	tbl := absentTable(t, &absentAPI{}, `
tool "greet" {
  description = "Greets."
  arg "who" {
    type     = string
    optional = true
  }
  shell {
    command = ["echo", args.who]
  }
}
tool "env_stdin" {
  description = "Reads stdin and the environment."
  arg "x" {
    type     = string
    optional = true
  }
  shell {
    command = ["sh", "-c", "printf '%s|%s' \"$(cat)\" \"$${X-unset}\""]
    stdin   = args.x
    env     = { X = args.x }
  }
}`)
	if res := callTableTool(t, tbl, "greet", `{}`); !res.IsError || !strings.Contains(res.Content[0].Text, "null") {
		t.Errorf("an absent argument in a command: %+v, want an error naming null", res.Content)
	}
	if res := callTableTool(t, tbl, "greet", `{"who":""}`); res.IsError {
		t.Errorf("an empty argument in a command: %+v", res.Content)
	}
	for args, want := range map[string]string{`{}`: "|unset", `{"x":""}`: "|", `{"x":"a"}`: "a|a"} {
		if res := callTableTool(t, tbl, "env_stdin", args); res.IsError || strings.TrimSpace(res.Content[0].Text) != want {
			t.Errorf("%s: %+v, want %q", args, res.Content, want)
		}
	}
}

// TestNullableArgumentSentAsNull: a nullable argument sent as null is nil
// in programs, as an absent one is.
func TestNullableArgumentSentAsNull(t *testing.T) {
	tbl := compileTableForCalls(t, `
tool "n" {
  description = "Reads a nullable argument."
  arg "x" {
    type     = integer
    nullable = true
  }
  result {
    text = "{{ args.x == nil }} {{ args.x ?? 'none' }}"
  }
}`)
	for args, want := range map[string]string{`{"x":null}`: "true none", `{"x":0}`: "false 0"} {
		if res := callTableTool(t, tbl, "n", args); res.IsError || res.Content[0].Text != want {
			t.Errorf("%s: %+v, want %q", args, res.Content, want)
		}
	}
}
