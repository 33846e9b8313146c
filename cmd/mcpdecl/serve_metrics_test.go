package main

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const metricsConfig = `
backend "shell" "local" {}

tool "echo" {
  description = "Echoes the text."
  arg "text" {
    type = string
  }
  shell {
    command = ["echo", args.text]
  }
}

tool "fail" {
  description = "Always fails."
  shell {
    command = ["false"]
  }
}

resource_template "note" {
  uri_template = "notes://{id}"
  mime_type    = "text/plain"
  text         = "note ${args.id}"
}
`

// secretArgument is sent as an argument and in a URI; it must never
// become a label value.
const secretArgument = "zebra-7f3a-unlikely"

// TestServeMetrics runs `serve --http --metrics`, makes calls of every
// outcome the client can cause, and reads /metrics: the counters match,
// and neither an argument nor a URI shows in the exposition.
func TestServeMetrics(t *testing.T) {
	bin := buildBinary(t)
	p, config := startMetricsServe(t, bin, "--metrics")
	base, mcpURL := p.url, p.url+"/mcp"

	callModern(t, mcpURL, "echo", `"arguments":{"text":"`+secretArgument+`"}`, `{}`)
	callModern(t, mcpURL, "echo", `"arguments":{"text":"again"}`, `{}`)
	callModern(t, mcpURL, "fail", `"arguments":{}`, `{}`)
	callModern(t, mcpURL, "no-such-"+secretArgument, `"arguments":{}`, `{}`)
	callModern(t, mcpURL, "echo", `"arguments":{"text":42}`, `{}`) // wrong type: an error result
	if raw := readModern(t, mcpURL, "notes://"+secretArgument); !strings.Contains(raw, `"contents"`) {
		t.Fatalf("resources/read of the template: %s", raw)
	}
	if raw := readModern(t, mcpURL, "other://"+secretArgument); !strings.Contains(raw, `"error"`) {
		t.Fatalf("resources/read of an unknown URI: %s", raw)
	}

	status, body := get(t, base+"/metrics")
	if status != http.StatusOK {
		t.Fatalf("/metrics: %d %s", status, body)
	}
	if strings.Contains(body, secretArgument) {
		t.Errorf("an argument value became a label:\n%s", grepLines(body, secretArgument))
	}
	families := parseExposition(t, body)
	for _, c := range []struct {
		labels string
		want   float64
	}{
		{`kind=tool,name=echo,outcome=ok`, 2},
		{`kind=tool,name=fail,outcome=tool_error`, 1},
		{`kind=tool,name=unknown,outcome=protocol_error`, 1},
		{`kind=tool,name=echo,outcome=tool_error`, 1},
		{`kind=resource,name=note,outcome=ok`, 1},
		{`kind=resource,name=unknown,outcome=protocol_error`, 1},
	} {
		if got := value(families, "mcpdecl_calls_total", c.labels); got != c.want {
			t.Errorf("mcpdecl_calls_total{%s} = %v, want %v", c.labels, got, c.want)
		}
	}
	if got := value(families, "mcpdecl_requests_total", "era=modern,method=tools/call"); got != 5 {
		t.Errorf("tools/call requests = %v, want 5", got)
	}
	if got := value(families, "mcpdecl_calls_in_flight", "kind=tool"); got != 0 {
		t.Errorf("tool calls in flight = %v, want 0", got)
	}
	if got := value(families, "mcpdecl_config_generation", ""); got != 1 {
		t.Errorf("generation = %v, want 1", got)
	}
	if got := histogramCount(families, "mcpdecl_call_duration_seconds", "kind=tool,name=echo"); got != 3 {
		t.Errorf("echo latency observations = %v, want 3", got)
	}

	// A broken configuration, then a good one: one reload failed, one
	// succeeded and the second generation is served.
	writeFile(t, config, "tool {")
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.waitLog(t, "reload failed")
	writeFile(t, config, metricsConfig)
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.waitLog(t, "configuration reloaded")
	_, body = get(t, base+"/metrics")
	families = parseExposition(t, body)
	for _, c := range []struct {
		name, labels string
		want         float64
	}{
		{"mcpdecl_config_reloads_total", "result=failed", 1},
		{"mcpdecl_config_reloads_total", "result=ok", 1},
		{"mcpdecl_config_generation", "", 2},
	} {
		if got := value(families, c.name, c.labels); got != c.want {
			t.Errorf("%s{%s} = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}

// TestServeWithoutMetrics: without the flag there is no /metrics.
func TestServeWithoutMetrics(t *testing.T) {
	bin := buildBinary(t)
	p, _ := startMetricsServe(t, bin)
	if status, _ := get(t, p.url+"/metrics"); status != http.StatusNotFound {
		t.Errorf("/metrics without --metrics: %d, want 404", status)
	}
}

// TestServeMetricsAddr serves the metrics on a listener of their own,
// next to stdio.
func TestServeMetricsAddr(t *testing.T) {
	bin := buildBinary(t)
	config := filepath.Join(t.TempDir(), "metrics.hcl")
	writeFile(t, config, metricsConfig)
	cmd := exec.Command(bin, "serve", "--metrics-addr", "127.0.0.1:0", config)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe() // open: stdio serves until it closes
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	url := waitFor(t, stderr, metricsOn)
	status, body := get(t, url)
	if status != http.StatusOK || !strings.Contains(body, "mcpdecl_config_generation 1") {
		t.Errorf("%s: %d\n%s", url, status, body)
	}
}

// TestServeMetricsNeedsHTTP: --metrics over stdio says what to use.
func TestServeMetricsNeedsHTTP(t *testing.T) {
	bin := buildBinary(t)
	config := filepath.Join(t.TempDir(), "metrics.hcl")
	writeFile(t, config, metricsConfig)
	out, err := exec.Command(bin, "serve", "--metrics", config).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--metrics-addr") {
		t.Errorf("serve --metrics over stdio: %v\n%s", err, out)
	}
}
