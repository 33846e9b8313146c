package openapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func githubDoc(t testing.TB) string {
	return filepath.Join(npmPackage(t, "openapi-specs", "@octokit/openapi"), "generated", "api.github.com.json")
}

// TestGitHubWhole imports every operation of GitHub's REST description and
// validates the result.
func TestGitHubWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: GitHub's 1,000 operations take a while to validate")
	}
	doc := githubDoc(t)
	out := importFile(t, doc, Filter{})
	warnings := checkConfig(t, "api.github.com.json", out)
	t.Logf("%d bytes, %d warnings", len(out), len(warnings))
	if len(warnings) > 20 {
		t.Errorf("%d warnings; the first: %s", len(warnings), warnings[0].Error())
	}
}

// TestGitHubIssuesGolden imports the operations tagged "issues", the
// reviewable subset committed as testdata/github-issues.hcl.
func TestGitHubIssuesGolden(t *testing.T) {
	out := importFile(t, githubDoc(t), Filter{Tags: []string{"issues"}})
	checkConfig(t, "github issues", out)
	golden(t, filepath.Join("testdata", "github-issues.hcl"), out)
}

// BenchmarkImportGitHub reads, parses and generates the whole of GitHub's
// REST description (13 MB, about 1,000 operations), as `mcpdecl import
// openapi` does. Besides wall time it reports the process's CPU time per
// import (cpu-ms/op: the machine may be shared, and then wall time says
// little), and as a baseline in the same run the CPU time of decoding the
// same file with encoding/json into generic values (json-cpu-ms/op).
func BenchmarkImportGitHub(b *testing.B) {
	doc := githubDoc(b)
	data, err := os.ReadFile(doc)
	if err != nil {
		b.Fatal(err)
	}
	var jsonCPU time.Duration
	for range 3 {
		start := cpuTime()
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		jsonCPU += cpuTime() - start
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		importFile(b, doc, Filter{})
	}
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(jsonCPU.Milliseconds())/3, "json-cpu-ms/op")
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
