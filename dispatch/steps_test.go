package dispatch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// stepsAPI answers GET /pair/{x} only once another GET /pair/ request is
// in flight at the same time (else, after a while, 503), so two steps
// pass only when they run together; every other request is recorded in
// the order it arrived.
type stepsAPI struct {
	mu      sync.Mutex
	arrived []string
	waiting chan struct{}
}

func (a *stepsAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.arrived = append(a.arrived, r.Method+" "+r.URL.Path)
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasPrefix(r.URL.Path, "/pair/"):
		a.mu.Lock()
		partner := a.waiting
		if partner == nil {
			a.waiting = make(chan struct{})
			partner = a.waiting
		} else {
			a.waiting = nil
			close(partner)
		}
		a.mu.Unlock()
		select {
		case <-partner:
			json.NewEncoder(w).Encode(map[string]string{"v": strings.TrimPrefix(r.URL.Path, "/pair/")})
		case <-time.After(5 * time.Second):
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	case strings.HasPrefix(r.URL.Path, "/sleep/"):
		ms, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/sleep/"))
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
		}
		w.Write([]byte(`{"slept":true}`))
	case strings.HasPrefix(r.URL.Path, "/missing/"):
		time.Sleep(time.Duration(len(r.URL.Path)) * time.Millisecond) // the later step answers first
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{}`))
	default:
		json.NewEncoder(w).Encode(map[string]string{"v": strings.TrimPrefix(r.URL.Path, "/")})
	}
}

// take returns the requests that arrived so far and forgets them.
func (a *stepsAPI) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.arrived
	a.arrived = nil
	return out
}

func stepsTable(t *testing.T, src string) (*table.Table, *stepsAPI) {
	t.Helper()
	api := &stepsAPI{}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	cfg, diags := lang.LoadSource("steps.hcl", []byte(`
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
	return tbl, api
}

// TestReadingStepsRunTogether: two lookups that do not read each other
// run at the same time (the API answers neither until both are in).
func TestReadingStepsRunTogether(t *testing.T) {
	tbl, _ := stepsTable(t, `
tool "both" {
  description = "Two lookups."
  step "a" {
    http "api" {
      path = "/pair/A"
    }
  }
  step "b" {
    http "api" {
      path = "/pair/B"
    }
  }
  result {
    text = "{{ steps.a.body.v }} {{ steps.b.body.v }}"
  }
}`)
	res := callTableTool(t, tbl, "both", `{}`)
	if res.IsError || res.Content[0].Text != "A B" {
		t.Errorf("both = %+v; want the two lookups made together", res)
	}
}

// TestWritingStepsKeepTheirOrder: a write runs alone, after the steps
// above it and before those below it; a step reading another's answer
// waits for it.
func TestWritingStepsKeepTheirOrder(t *testing.T) {
	tbl, api := stepsTable(t, `
tool "ordered" {
  description = "Reads around a write."
  step "before" {
    http "api" {
      path = "/before"
    }
  }
  step "write" {
    http "api" {
      method = "POST"
      path   = "/write"
    }
  }
  step "after" {
    http "api" {
      path = "/after"
    }
  }
  step "then" {
    http "api" {
      path = "/then-${steps.after.body.v}"
    }
  }
  result {
    text = "steps.then.body.v"
  }
}`)
	for range 5 {
		res := callTableTool(t, tbl, "ordered", `{}`)
		want := []string{"GET /before", "POST /write", "GET /after", "GET /then-after"}
		if got := api.take(); res.IsError || res.Content[0].Text != "then-after" || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("ordered = %+v, requests %q; want %q", res, got, want)
		}
	}
}

// TestFirstStopWins: when steps that ran together both stop the call, the
// message is the first step's in source order, whichever answered first.
func TestFirstStopWins(t *testing.T) {
	tbl, _ := stepsTable(t, `
tool "missing" {
  description = "Two lookups that find nothing."
  step "long" {
    http "api" {
      path = "/missing/a-longer-path-answered-later"
    }
    error {
      when    = "status == 404"
      message = "The first is missing."
    }
  }
  step "short" {
    http "api" {
      path = "/missing/b"
    }
    error {
      when    = "status == 404"
      message = "The second is missing."
    }
  }
  result {
    text = "'found'"
  }
}`)
	for range 3 {
		res := callTableTool(t, tbl, "missing", `{}`)
		if !res.IsError || res.Content[0].Text != "The first is missing." {
			t.Fatalf("missing = %+v; want the first step's message", res)
		}
	}
}

// TestStepAnswersRedacted: a step's answer that repeats a sensitive
// variable (an echo endpoint) reaches the model redacted, in the result
// and in a step's error message alike.
func TestStepAnswersRedacted(t *testing.T) {
	tbl, _ := stepsTable(t, `
variable "token" {
  sensitive = true
  default   = "tok-8812-secret"
}
tool "echo" {
  description = "Echoes a path."
  arg "fail" {
    type    = bool
    default = false
  }
  step "a" {
    http "api" {
      path = "/${var.token}"
    }
    error {
      when    = "args.fail"
      message = "Refused: {{ body.v }}."
    }
  }
  result {
    text = "'got ' + steps.a.body.v"
  }
}`)
	for args, want := range map[string]string{`{}`: "got [redacted]", `{"fail":true}`: "Refused: [redacted]."} {
		res := callTableTool(t, tbl, "echo", args)
		if got := res.Content[0].Text; got != want {
			t.Errorf("echo %s = %q, want %q", args, got, want)
		}
	}
}

// TestStepLogsAndProgressReachTheClient: what a step's command writes on
// stderr reaches the client as log lines, and its progress as progress,
// as for a tool's own call.
func TestStepLogsAndProgressReachTheClient(t *testing.T) {
	tbl, _ := stepsTable(t, `
tool "copy" {
  description = "Copies nothing, noisily."
  step "dd" {
    shell {
      command          = ["dd", "if=/dev/null", "of=/dev/null"]
      progress_pattern = "^([0-9]+)[+]0 records in"
    }
  }
  result {
    text = "'exit ' + string(steps.dd.exit_code)"
  }
}`)
	var mu sync.Mutex
	var logs []string
	var progress []float64
	in := &CallInput{
		Arguments: json.RawMessage(`{}`),
		Log: func(level string, data any) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, level+": "+data.(string))
		},
		Progress: func(p, total float64, message string) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, p)
		},
	}
	res, err := CallTool(context.Background(), tbl, "copy", in)
	if err != nil || res.IsError || res.Content[0].Text != "exit 0" {
		t.Fatalf("copy = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(logs, "\n"), "records in") || len(progress) == 0 || progress[0] != 0 {
		t.Errorf("logs %q, progress %v; want dd's stderr lines and progress 0", logs, progress)
	}
}

// TestStepsShareTheToolsDeadline: the tool's timeout bounds its steps and
// its call together: a step taking most of it leaves the call the rest,
// and the model is told the tool's timeout.
func TestStepsShareTheToolsDeadline(t *testing.T) {
	tbl, api := stepsTable(t, `
tool "slow" {
  description = "Two slow calls."
  timeout     = "400ms"
  step "first" {
    http "api" {
      path = "/sleep/300"
    }
  }
  http "api" {
    path = "/sleep/300"
  }
}`)
	res := callTableTool(t, tbl, "slow", `{}`)
	if !res.IsError || !strings.Contains(res.Content[0].Text, "400ms") {
		t.Errorf("slow = %+v; want the call stopped at the tool's 400ms for both calls together", res)
	}
	if n := len(api.take()); n != 2 {
		t.Errorf("the API saw %d requests, want the step's and the call's", n)
	}
}
