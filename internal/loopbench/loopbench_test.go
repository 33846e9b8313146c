package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/serving"
)

// briefCalls is how many calls each job makes here: enough for every
// worker to reuse its connection, far too few to measure anything.
const briefCalls = 200

// TestJobsAnswer runs each job of scripts/bench-loopback.sh briefly,
// against the hand-written peer and against mcpdecl serving the script's
// config, so that neither side nor the answer checks can rot between
// runs of the script. The load generator fails on any wrong answer.
func TestJobsAnswer(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "items.db")
	if err := runSeed([]string{db}); err != nil {
		t.Fatal(err)
	}
	backend := httptest.NewServer(backendHandler())
	defer backend.Close()
	vars := map[string]map[string]string{
		"echo": {},
		"rest": {"backend_url": backend.URL},
		"sql":  {"db": db},
	}
	for _, job := range []string{"echo", "rest", "sql"} {
		t.Run(job+"/bare", func(t *testing.T) {
			h, closeJob, err := bareHandler(job, backend.URL, db)
			if err != nil {
				t.Fatal(err)
			}
			defer closeJob()
			callBriefly(t, h, job)
		})
		t.Run(job+"/mcpdecl", func(t *testing.T) {
			callBriefly(t, served(t, job, vars[job]), job)
		})
	}
}

// served is mcpdecl's HTTP handler for the job's config in
// scripts/testdata/loopback, as serve --http compiles it.
func served(t *testing.T, job string, vars map[string]string) http.Handler {
	path := filepath.Join("..", "..", "scripts", "testdata", "loopback", job+".hcl")
	cfg, tbl, diags := serving.Compile([]string{path}, vars, os.LookupEnv)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// As validate --strict: a benchmark of a config with findings would
	// measure what users are told not to write.
	if findings := lint.Check(cfg, tbl); len(findings) > 0 {
		t.Fatalf("%s has lint findings: %v", path, findings)
	}
	srv, err := server.Open(context.Background(), tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return mcp.NewServer(srv, nil).HTTPHandler(nil)
}

func callBriefly(t *testing.T, h http.Handler, job string) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	made, err := load(context.Background(), loadPlan{url: ts.URL + "/mcp", job: job, workers: 8, calls: briefCalls})
	if err != nil {
		t.Fatal(err)
	}
	if made != briefCalls {
		t.Errorf("%d calls made, want %d", made, briefCalls)
	}
}

// TestWrongAnswersFail: the checks refuse an answer to another request,
// an error result and a result without the item asked for.
func TestWrongAnswersFail(t *testing.T) {
	good := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"item-8-name"}],"isError":false}}`)
	if err := checkAnswer(http.StatusOK, good, 7, "item-8-name"); err != nil {
		t.Fatalf("a right answer was refused: %v", err)
	}
	for name, c := range map[string]struct {
		status int
		answer string
	}{
		"status":       {http.StatusBadGateway, string(good)},
		"other id":     {http.StatusOK, `{"jsonrpc":"2.0","id":77,"result":{"content":[{"type":"text","text":"item-8-name"}]}}`},
		"error result": {http.StatusOK, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"item-8-name"}],"isError":true}}`},
		"rpc error":    {http.StatusOK, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"item-8-name"}}`},
		"other item":   {http.StatusOK, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"item-88-name"}]}}`},
	} {
		if checkAnswer(c.status, []byte(c.answer), 7, "item-8-name") == nil {
			t.Errorf("%s: a wrong answer was accepted", name)
		}
	}
}
