package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

var metricsOn = regexp.MustCompile(`metrics on (http://\S+/metrics)`)

// startMetricsServe runs `serve --http` on metricsConfig with flags; the
// process's url is the server's base URL, config the file it serves.
func startMetricsServe(t *testing.T, bin string, flags ...string) (p *servedProcess, config string) {
	t.Helper()
	config = filepath.Join(t.TempDir(), "metrics.hcl")
	writeFile(t, config, metricsConfig)
	args := append([]string{"serve", "--http", "127.0.0.1:0"}, flags...)
	cmd := exec.Command(bin, append(args, config)...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &servedProcess{cmd: cmd, stderr: stderr, url: waitListening(t, stderr)}, config
}

// waitFor returns the first group of re once the server has logged it.
func waitFor(t *testing.T, stderr *lockedBuffer, re *regexp.Regexp) string {
	t.Helper()
	for range 1500 {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server never logged %s:\n%s", re, stderr)
	return ""
}

// parseExposition reads the text format with Prometheus's own parser, so
// a malformed exposition fails the test.
func parseExposition(t *testing.T, body string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	return families
}

// sample finds the metric of family name whose labels, written
// "k=v,k=v" in name order, are exactly labels.
func sample(families map[string]*dto.MetricFamily, name, labels string) *dto.Metric {
	f := families[name]
	if f == nil {
		return nil
	}
	for _, m := range f.GetMetric() {
		var pairs []string
		for _, l := range m.GetLabel() {
			pairs = append(pairs, l.GetName()+"="+l.GetValue())
		}
		if strings.Join(pairs, ",") == labels {
			return m
		}
	}
	return nil
}

// value is a counter's or gauge's value, -1 when there is no such sample.
func value(families map[string]*dto.MetricFamily, name, labels string) float64 {
	m := sample(families, name, labels)
	switch {
	case m == nil:
		return -1
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	}
	return -1
}

func histogramCount(families map[string]*dto.MetricFamily, name, labels string) float64 {
	m := sample(families, name, labels)
	if m == nil || m.Histogram == nil {
		return -1
	}
	return float64(m.Histogram.GetSampleCount())
}

func grepLines(body, s string) string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
