package testrun

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpdecl/mcpdecl/table"
)

// TestUnsetEnvFallbackKept checks that in tests env() with a default
// still gives the default, and that env() without one gives the
// placeholder: the mocks match each by the header it sends.
func TestUnsetEnvFallbackKept(t *testing.T) {
	config := `
server {
  name      = "f"
  version   = "1.0.0"
  allow_env = ["A_TOKEN", "B_TOKEN"]
}

backend "http" "api" {
  base_url = "http://127.0.0.1:9"
  headers  = { X-A = env("A_TOKEN", "fallback-a"), X-B = env("B_TOKEN") }
}

tool "ping" {
  description = "Ping."
  http "api" {
    path = "/ping"
  }
}
`
	tests := `
test "ping" {
  call = tool.ping
  mock "api" {
    request {
      headers = { X-A = "fallback-a", X-B = "mcpdecl-test-unset-B_TOKEN" }
    }
    response {
      json = {}
    }
  }
}
`
	dir := write(t, map[string]string{"f.hcl": config, "f_test.hcl": tests})
	env := func(string) (string, bool) { return "", false }
	results := runSuite(t, filepath.Join(dir, "f.hcl"), Options{Compile: table.Options{LookupEnv: env}})
	if len(results) != 1 || results[0].Status != Passed {
		t.Fatalf("%+v", results[0].Problems)
	}
}

func TestUnsetIn(t *testing.T) {
	got := unsetIn("Bearer mcpdecl-test-unset-API_TOKEN", "k=mcpdecl-test-unset-API&x=1", "mcpdecl-test-unset-API_TOKEN", "nothing")
	if want := []string{"API", "API_TOKEN"}; !slices.Equal(got, want) {
		t.Errorf("unsetIn = %q, want %q", got, want)
	}
}
