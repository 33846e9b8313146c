package dispatch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
)

// TestStepDeadlineNamesTheStep: when the call's one deadline runs out
// during a later step, the message names that step and the steps that
// answered before it, instead of calling the backend overloaded or down
// (it may have had only what the earlier steps left of the time).
func TestStepDeadlineNamesTheStep(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/first", "/second":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"ok":true}`))
		default:
			select { // answers only after the call gave up
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer api.Close()
	tbl, diags := compileSource(t, "deadline.hcl", `
backend "http" "api" {
  base_url = "`+api.URL+`"
}
tool "slow_third" {
  description = "Two quick lookups, then a step that hangs."
  timeout     = "300ms"
  step "first" {
    http "api" {
      path = "/first"
    }
  }
  step "second" {
    http "api" {
      path = "/second"
    }
  }
  step "third" {
    http "api" {
      path = "/hang"
    }
  }
  http "api" {
    path = "/first"
  }
}
tool "slow_call" {
  description = "One quick lookup, then a main call that hangs."
  timeout     = "300ms"
  step "first" {
    http "api" {
      path = "/first"
    }
  }
  http "api" {
    path = "/hang"
  }
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for name, want := range map[string]string{
		"slow_third": `The call did not finish within its time limit of 300ms: step "third" was still waiting for its answer when the time ran out, after steps "first" and "second" had answered.`,
		"slow_call":  `The call did not finish within its time limit of 300ms: the tool's own call was still waiting for its answer when the time ran out, after step "first" had answered.`,
	} {
		start := time.Now()
		res, err := dispatch.CallTool(context.Background(), tbl, name, &dispatch.CallInput{Arguments: []byte(`{}`)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !res.IsError || !res.TimedOut || len(res.Content) != 1 {
			t.Fatalf("%s: want one error result marked TimedOut, got %+v", name, res)
		}
		text := res.Content[0].Text
		if !strings.HasPrefix(text, want) {
			t.Errorf("%s: message\n%s\nwant it to start with\n%s", name, text, want)
		}
		if strings.Contains(text, "overloaded or down") {
			t.Errorf("%s: the message blames the backend: %s", name, text)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: took %s, past its 300ms deadline", name, d)
		}
	}
}
