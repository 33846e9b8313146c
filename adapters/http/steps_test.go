package httpadapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestHostileStepValuesInRequest: the answer of an earlier step reaches a
// request as an argument does: each value escaped in the path and the
// query, a separator refused, a header value checked, a JSON body built
// from values.
func TestHostileStepValuesInRequest(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileScoped(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s/api" }
http "api" {
  method  = "POST"
  path    = "/items/${steps.prev.body.id}"
  query   = { next = steps.prev.body.next }
  headers = { X-Trace = steps.prev.body.trace }
  body    = { name = steps.prev.body.name, price = steps.prev.body.price }
}`, srv.URL), nil, checktest.WithSteps)
	call := func(body map[string]cty.Value) error {
		_, err := c.actions[0].Invoke(context.Background(), &adapter.Request{
			Args: args(nil), Static: c.static, Vars: checktest.StepsVars(cty.ObjectVal(body)),
			Progress: func(float64, float64, string) {}, Log: func(string, any) {},
		})
		return err
	}
	body := func(id, trace string) map[string]cty.Value {
		return map[string]cty.Value{"id": str(id), "next": str("x&admin=1"), "trace": str(trace),
			"name": str("Fern"), "price": cty.MustParseNumberVal("4.50")}
	}
	if err := call(body("a?b#c", "t1")); err != nil {
		t.Fatal(err)
	}
	got := srv.requests()
	if len(got) != 1 {
		t.Fatalf("want one request, got %v", got)
	}
	want := seen{Method: "POST", URI: "/api/items/a%3Fb%23c?next=x%26admin%3D1", Body: `{"name":"Fern","price":4.5}`}
	if diff := cmp.Diff(want, seen{Method: got[0].Method, URI: got[0].URI, Body: got[0].Body}); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if h := got[0].Header.Get("X-Trace"); h != "t1" {
		t.Errorf("X-Trace = %q", h)
	}
	for _, tc := range []struct{ id, trace, refuse string }{
		{"../admin", "t", `holds a "/"`},
		{"a/b", "t", `holds a "/"`},
		{"%2e%2e", "t", `a path segment would be ".."`},
		{"a", "t\r\nHost: evil", "holds a line break"},
	} {
		before := srv.count()
		err := call(body(tc.id, tc.trace))
		var ce *adapter.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, tc.refuse) {
			t.Errorf("%q/%q: error = %v, want a CallError with %q", tc.id, tc.trace, err, tc.refuse)
		}
		if sent := srv.requests()[before:]; len(sent) != 0 {
			t.Errorf("%q/%q: the request was sent: %v", tc.id, tc.trace, sent)
		}
	}
}

// TestHostileStepNamesRefusedAtLoad: names a backend's answer would choose
// (headers, query or form names from a step's body or headers), a path
// that is a step's value as a whole, and a step's value where the config
// must be known at load time, are refused as they are for arguments.
func TestHostileStepNamesRefusedAtLoad(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
backend "http" "api" { base_url = "https://api.example.com" }
http "api" {
  path    = "/a"
  headers = steps.prev.body
}
http "api" {
  path  = "/a"
  query = steps.prev.headers
}
http "api" {
  method = "POST"
  path   = "/a"
  form   = merge(steps.prev.body, {})
}
http "api" {
  path = steps.prev.body.next
}
http "api" {
  path   = "/a"
  method = steps.prev.text
}
http "api" {
  path = "/a/${steps.prev.bdy}"
}`, checktest.WithSteps)
	want := []string{
		"5:13 Names from the arguments",
		"9:11 Names from the arguments",
		"14:12 Names from the arguments",
		"17:10 Invalid request path",
		"21:12 Value known only when called",
		"24:16 Reference to unknown field",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestHostileStepEachValuesInRequest: the item of a step with for_each
// reaches its request as an argument does: escaped in the path and the
// query, a separator or a dot segment refused, a header value checked.
func TestHostileStepEachValuesInRequest(t *testing.T) {
	srv := newRecorder(t, nil)
	c := compileScoped(t, fmt.Sprintf(`
backend "http" "api" { base_url = "%s/api" }
http "api" {
  path    = "/items/${each.value.id}/${each.index}"
  query   = { q = each.value.q }
  headers = { X-Trace = each.value.trace }
}`, srv.URL), nil, checktest.WithEach)
	call := func(id, q, trace string) error {
		item := cty.ObjectVal(map[string]cty.Value{"id": str(id), "q": str(q), "trace": str(trace)})
		_, err := c.actions[0].Invoke(context.Background(), &adapter.Request{
			Args: args(nil), Static: c.static, Vars: checktest.EachVars(item, 3),
			Progress: func(float64, float64, string) {}, Log: func(string, any) {},
		})
		return err
	}
	if err := call("a?b#c", "x&admin=1", "t1"); err != nil {
		t.Fatal(err)
	}
	got := srv.requests()
	if len(got) != 1 || got[0].URI != "/api/items/a%3Fb%23c/3?q=x%26admin%3D1" || got[0].Header.Get("X-Trace") != "t1" {
		t.Fatalf("requests = %+v", got)
	}
	for _, tc := range []struct{ id, trace, refuse string }{
		{"../admin", "t", `holds a "/"`},
		{"a/b", "t", `holds a "/"`},
		{"..", "t", `a path segment would be ".."`},
		{"%2e%2e", "t", `a path segment would be ".."`},
		{"a", "t\r\nHost: evil", "holds a line break"},
	} {
		before := srv.count()
		err := call(tc.id, "q", tc.trace)
		var ce *adapter.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, tc.refuse) {
			t.Errorf("%q/%q: error = %v, want a CallError with %q", tc.id, tc.trace, err, tc.refuse)
		}
		if sent := srv.requests()[before:]; len(sent) != 0 {
			t.Errorf("%q/%q: the request was sent: %v", tc.id, tc.trace, sent)
		}
	}
}

// TestHostileStepEachNamesRefusedAtLoad: an item never names a header, a
// query parameter or a form field, is never a whole path, and cannot set
// what must be known at load time, as an argument cannot.
func TestHostileStepEachNamesRefusedAtLoad(t *testing.T) {
	got := checktest.CompileScoped(t, New(), `
backend "http" "api" { base_url = "https://api.example.com" }
http "api" {
  path    = "/a"
  headers = each.value
}
http "api" {
  path  = "/a"
  query = each.value
}
http "api" {
  method = "POST"
  path   = "/a"
  form   = merge(each.value, {})
}
http "api" {
  path = each.value
}
http "api" {
  path   = "/a"
  method = each.value
}
http "api" {
  path = "/a/${each.valu}"
}`, checktest.WithEach)
	want := []string{
		"5:13 Names from the arguments",
		"9:11 Names from the arguments",
		"14:12 Names from the arguments",
		"17:10 Invalid request path",
		"21:12 Value known only when called",
		"24:16 Reference to unknown field",
	}
	if diff := cmp.Diff(want, checktest.Format(got.Diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
