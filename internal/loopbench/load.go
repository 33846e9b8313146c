package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// protocolVersion is the MCP version every call is made in: the stateless
// era, where each request says its version and capabilities itself.
const protocolVersion = "2026-07-28"

// loadPlan says what to call and for how long: calls > 0 stops after that
// many calls, otherwise after duration.
type loadPlan struct {
	url      string
	job      string
	workers  int
	duration time.Duration
	calls    int64
}

func runLoad(args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	var p loadPlan
	fs.StringVar(&p.url, "url", "", "the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp")
	fs.StringVar(&p.job, "job", "echo", "echo, rest or sql")
	fs.IntVar(&p.workers, "c", 8, "concurrent workers")
	fs.DurationVar(&p.duration, "d", 5*time.Second, "how long to call")
	fs.Int64Var(&p.calls, "n", 0, "how many calls to make (instead of -d)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	start := time.Now()
	done, err := load(context.Background(), p)
	if err != nil {
		return err
	}
	// Wall time is only the rate's denominator; the script reads the
	// server's CPU per call, which load on the machine disturbs less.
	secs := time.Since(start).Seconds()
	fmt.Printf("%d %.3f %.1f\n", done, secs, float64(done)/secs)
	return nil
}

// load makes the plan's calls from its workers on one keep-alive client
// and returns how many it made; any wrong answer stops it with an error.
func load(ctx context.Context, p loadPlan) (int64, error) {
	if p.url == "" || p.workers < 1 {
		return 0, errors.New("load needs -url and -c of at least 1")
	}
	if _, err := callFor(p.job, 1); err != nil {
		return 0, err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: p.workers}}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deadline := time.Now().Add(p.duration)
	var next, made atomic.Int64
	var once sync.Once
	var firstErr error
	var wg sync.WaitGroup
	for range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				n := next.Add(1)
				if (p.calls > 0 && n > p.calls) || (p.calls == 0 && time.Now().After(deadline)) {
					return
				}
				if err := callOnce(ctx, client, p, n); err != nil {
					once.Do(func() { firstErr = fmt.Errorf("call %d: %w", n, err); cancel() })
					return
				}
				made.Add(1)
			}
		}()
	}
	wg.Wait()
	return made.Load(), firstErr
}

// call is one tools/call: its tool, its arguments and a piece its answer
// must contain.
type call struct {
	tool, arguments, want string
}

// callFor is the n-th call of the job: ids cycle over every item, so
// each answer differs from the last and is checked for its own item.
func callFor(job string, n int64) (call, error) {
	id := strconv.FormatInt(n%itemCount+1, 10)
	switch job {
	case "echo":
		return call{"echo", `{"text":"hello ` + id + `"}`, "echo: hello " + id}, nil
	case "rest", "sql":
		return call{"item", `{"id":` + id + `}`, "item-" + id + "-name"}, nil
	}
	return call{}, fmt.Errorf("unknown job %q: use echo, rest or sql", job)
}

func callOnce(ctx context.Context, client *http.Client, p loadPlan, n int64) error {
	c, _ := callFor(p.job, n)
	body := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(n, 10) +
		`,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":` + c.arguments +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + protocolVersion +
		`","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", c.tool)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return checkAnswer(resp.StatusCode, answer, n, c.want)
}

// checkAnswer accepts a successful result of call n that holds want
// (in the text block, or escaped inside JSON text).
func checkAnswer(status int, answer []byte, n int64, want string) error {
	wantID := []byte(`"id":` + strconv.FormatInt(n, 10) + `,`)
	switch {
	case status != http.StatusOK:
		return fmt.Errorf("status %d: %s", status, answer)
	case !bytes.Contains(answer, wantID):
		return fmt.Errorf("the answer is not to request %d: %s", n, answer)
	case !bytes.Contains(answer, []byte(`"result"`)) || bytes.Contains(answer, []byte(`"isError":true`)):
		return fmt.Errorf("not a successful result: %s", answer)
	case !bytes.Contains(answer, []byte(want)):
		return fmt.Errorf("the answer lacks %q: %s", want, answer)
	}
	return nil
}
