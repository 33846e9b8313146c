package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// Hostile argument values: what a client sends must be refused cheaply
// and clearly, or reach the backend exactly as sent.

// TestHostileNumbers: numbers of absurd size are refused, naming the
// argument, and never reach the API; a flood of wrong items gets a short
// answer that lists the first problems and counts the rest.
func TestHostileNumbers(t *testing.T) {
	requireSchemas(t)
	api := echoAPI(t)
	srv := setups[1].connect(t, repoPath(t, "internal/e2e/testdata/hostile_args.hcl"), map[string]string{"base_url": api.URL}, nil)
	defer srv.c.close()
	ctx := testCtx(t)
	nums := make([]any, 60)
	for i := range nums {
		nums[i] = json.Number("1e999999")
	}
	res, err := srv.c.callTool(ctx, "sum", map[string]any{"nums": nums})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "- argument nums.0: 1e999999 has an exponent beyond ±400") ||
		!strings.Contains(res.Text, "- and 40 more") {
		t.Errorf("60 × 1e999999 = %+v, %v; want the first 20 named and the rest counted", res, err)
	}
	wrong := make([]any, 100000)
	for i := range wrong {
		wrong[i] = "x"
	}
	res, err = srv.c.callTool(ctx, "sum", map[string]any{"nums": wrong})
	if err != nil || !res.IsError || len(res.Text) > 2000 || !strings.HasSuffix(res.Text, "- argument nums.19: got string, want integer\n- and 99980 more") {
		t.Errorf("100,000 wrong items = %d bytes (%.300s...), %v; want 20 lines and a count", len(res.Text), res.Text, err)
	}
	if reqs := api.take(); len(reqs) != 0 {
		t.Errorf("the API received %d requests for refused calls", len(reqs))
	}
	res, err = srv.c.callTool(ctx, "sum", map[string]any{"nums": []any{json.Number("1e3"), 2}})
	if reqs := api.take(); err != nil || res.IsError || len(reqs) != 1 || reqs[0].Body != `{"nums":[1000,2]}` {
		t.Errorf("nums [1e3, 2] = %+v, %v, requests %+v; want one request with [1000,2]", res, err, reqs)
	}
	srv.wire.verify(t)
}

// TestMissingArgumentReportedOnce: examples/calendar.hcl's add_event
// without a date gets the schema's line only, not also a line from the
// date's validation block that cannot be written about a missing date.
func TestMissingArgumentReportedOnce(t *testing.T) {
	requireSchemas(t)
	api := calendarAPI(t)
	srv := setups[0].connect(t, repoPath(t, "examples/calendar.hcl"), calendarVars(api), nil)
	defer srv.c.close()
	res, err := srv.c.callTool(testCtx(t), "add_event", map[string]any{"title": "Planning meeting"})
	want := "The arguments are not valid; fix these and call again:\n- arguments: missing property 'date'"
	if err != nil || !res.IsError || res.Text != want {
		t.Errorf("add_event without date = %+v, %v; want only %q", res, err, want)
	}
	checkRequests(t, "add_event without date", api)
	srv.wire.verify(t)
}
