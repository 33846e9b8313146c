package dispatch_test

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestTimedOutMarksTheDeadlineOnly: a result is marked TimedOut when the
// tool's own deadline stopped its command, and not when the command failed
// by itself, succeeded, or its caller went away first.
func TestTimedOutMarksTheDeadlineOnly(t *testing.T) {
	tbl, diags := compileSource(t, "timeout.hcl", `
tool "nap" {
  description = "Sleeps past its deadline."
  timeout     = "200ms"
  shell {
    command = ["sleep", "5"]
  }
}
tool "fails" {
  description = "Fails at once (well within a deadline long enough for a loaded machine to start it)."
  timeout     = "30s"
  shell {
    command = ["false"]
  }
}
tool "quick" {
  description = "Ends in time."
  timeout     = "5s"
  shell {
    command = ["true"]
  }
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	call := func(ctx context.Context, name string) *dispatch.ToolResult {
		t.Helper()
		res, err := dispatch.CallTool(ctx, tbl, name, &dispatch.CallInput{Arguments: []byte(`{}`)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	if res := call(context.Background(), "nap"); !res.IsError || !res.TimedOut {
		t.Errorf("nap: want an error result marked TimedOut, got %+v", res)
	}
	if res := call(context.Background(), "fails"); !res.IsError || res.TimedOut {
		t.Errorf("fails: want an error result not marked TimedOut, got %+v", res)
	}
	if res := call(context.Background(), "quick"); res.IsError || res.TimedOut {
		t.Errorf("quick: want a result, got %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if res := call(ctx, "nap"); res.TimedOut {
		t.Errorf("nap cancelled by its caller: marked TimedOut: %+v", res)
	}
}

// compileSource loads and compiles one configuration text.
func compileSource(t *testing.T, name, src string) (*table.Table, hcl.Diagnostics) {
	t.Helper()
	cfg, diags := lang.LoadSource(name, []byte(src))
	if cfg.Incomplete {
		return nil, diags
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	return tbl, append(diags, d...)
}
