package table_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/limits"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestLimitsCompile: scopes, rates, bursts (the rate's count by default)
// and the tools a limit covers.
func TestLimitsCompile(t *testing.T) {
	tbl, diags := compileToolsets(t, `
limit "everyone" {
  per  = "server"
  rate = "100/minute"
}
limit "writers" {
  per   = "caller"
  rate  = "5/s"
  burst = 20
  tools = ["issue_*", "repo_get"]
}
`)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if len(tbl.Limits) != 2 {
		t.Fatalf("%d limits", len(tbl.Limits))
	}
	all, w := tbl.Limits[0], tbl.Limits[1]
	if all.Per != table.LimitPerServer || !all.AllTools || all.Bucket != (limits.Bucket{Rate: limits.Rate{Tokens: 100, Per: time.Minute}, Burst: 100}) || !all.Covers("repo_list") {
		t.Errorf("everyone = %+v", all)
	}
	if w.Per != table.LimitPerCaller || w.AllTools || w.Bucket.Burst != 20 || w.Bucket.Rate != (limits.Rate{Tokens: 5, Per: time.Second}) {
		t.Errorf("writers = %+v", w)
	}
	if !w.Covers("issue_create") || !w.Covers("repo_get") || w.Covers("repo_list") {
		t.Errorf("writers covers the wrong tools")
	}
	got := table.Inspect(tbl).Limits
	want := []table.LimitInspection{{Name: "everyone", Per: "server", Rate: "100/minute", Burst: 100},
		{Name: "writers", Per: "caller", Rate: "5/second", Burst: 20, Tools: []string{"repo_get", "issue_create"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("inspect limits = %+v, want %+v", got, want)
	}
}

func TestLimitsRefused(t *testing.T) {
	for src, want := range map[string]string{
		`limit "a" {
  per = "user"
  rate = "1/s"
}`: "Invalid limit scope",
		`limit "a" {
  per = "caller"
  rate = "1/fortnight"
}`: "Invalid limit rate",
		`limit "a" {
  per = "caller"
  rate = "1/s"
  burst = 0
}`: "Invalid limit burst",
		`limit "a" {
  per = "tool"
  rate = "1/s"
  tools = ["repo_lst"]
}`: `Unknown tool in limit: The limit "a" lists the tool "repo_lst", which the configuration does not declare. Did you mean "repo_list"?`,
		`limit "a" {
  rate = "1/s"
}`: `Missing required argument`,
		`limit "a b" {
  per = "tool"
  rate = "1/s"
}`: "Invalid limit name",
		`limit "a" {
  per = "tool"
  rate = "1/s"
}
limit "a" {
  per = "tool"
  rate = "1/s"
}`: "Duplicate limit",
	} {
		_, diags := compileToolsets(t, src)
		if !strings.Contains(strings.Join(diags, "\n"), want) {
			t.Errorf("%s\ngave %q, want %q", src, diags, want)
		}
	}
}
