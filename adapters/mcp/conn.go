package mcpadapter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/internal/tokenclient"
)

// errClosed is a call made after the backend closed (a retired
// generation's backend is closed only after its last call, so this is a
// program error, not a client's).
var errClosed = errors.New("the backend is closed")

// conn is a backend's one session with its server. It connects on Open
// or on the first call, and again on the next call after the session
// ended (the program died, the HTTP server forgot the session); calls
// share it, each with its own request id and progress token.
type conn struct {
	b      *Backend
	client *sdk.Client

	mu     sync.Mutex
	cs     *sdk.ClientSession
	done   chan struct{} // closed when cs has ended
	cmd    *exec.Cmd     // the running program (stdio)
	stderr *tail         // its last lines of stderr
	closed bool
	starts int // sessions started, for tests and the check's note

	tokens   atomic.Uint64
	progress sync.Map // progress token (string) → progressFunc

	// tools are the remote tools, listed by CheckOpen for the calls'
	// Check; nil when they were not listed.
	tools map[string]*sdk.Tool
}

type progressFunc func(progress, total float64, message string)

func newConn(b *Backend) *conn {
	c := &conn{b: b}
	c.client = sdk.NewClient(&sdk.Implementation{Name: "mcpdecl", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: c.onProgress,
		// No roots, sampling or elicitation: the remote's questions would
		// have nobody to answer them.
		Capabilities: &sdk.ClientCapabilities{},
	})
	return c
}

// session returns the live session, connecting first when there is none
// or the last one ended.
func (c *conn) session(ctx context.Context) (*sdk.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errClosed
	}
	if c.cs != nil {
		select {
		case <-c.done:
			c.cs = nil // ended: start again below
		default:
			return c.cs, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, c.b.Timeout)
	defer cancel()
	t, err := c.transport()
	if err != nil {
		return nil, err
	}
	cs, err := c.client.Connect(ctx, t, nil)
	if err != nil {
		return nil, c.withStderr(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cs.Wait()
		close(done)
	}()
	c.cs, c.done = cs, done
	c.starts++
	return cs, nil
}

// transport is a new transport to the server: a fresh process for stdio.
func (c *conn) transport() (sdk.Transport, error) {
	b := c.b
	if b.URL != nil {
		return &sdk.StreamableClientTransport{
			Endpoint:   b.URL.String(),
			HTTPClient: &http.Client{Transport: &headerTransport{headers: b.Headers, bearer: b.Bearer, tokens: b.tokenSource()}},
			// Progress comes on each call's own stream; nothing else the
			// server might send unasked is of use here.
			DisableStandaloneSSE: true,
		}, nil
	}
	if b.ProgramPath == "" {
		return nil, fmt.Errorf("the program %q was not found", b.Command[0])
	}
	cmd := exec.Command(b.ProgramPath, b.Command[1:]...)
	cmd.Dir = b.Dir
	cmd.Env = append([]string{"PATH=" + b.Path}, envList(b.Env)...)
	c.stderr = &tail{max: 2048}
	cmd.Stderr = c.stderr
	c.cmd = cmd
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
}

func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// withStderr adds what the program wrote to stderr to an error starting
// it, the likeliest explanation.
func (c *conn) withStderr(err error) error {
	if c.b.URL != nil || c.stderr == nil {
		return err
	}
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return fmt.Errorf("%w; the program wrote: %s", err, s)
	}
	return err
}

// pid is the running program's process id (tests); 0 when none runs.
func (c *conn) pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// ended returns a channel closed when the current session ends; nil
// when there is none.
func (c *conn) ended() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// close ends the session (stopping the program) for good.
func (c *conn) close() error {
	c.mu.Lock()
	c.closed = true
	cs := c.cs
	c.cs = nil
	c.mu.Unlock()
	if cs == nil {
		return nil
	}
	err := cs.Close()
	if c.b.URL == nil && err != nil {
		return nil // a program stopped by a signal, as asked
	}
	return err
}

// watchProgress routes the progress notifications of one call to report
// until the returned function is called; the token goes in its _meta.
func (c *conn) watchProgress(report progressFunc) (token string, stop func()) {
	token = "mcpdecl-" + strconv.FormatUint(c.tokens.Add(1), 10)
	c.progress.Store(token, report)
	return token, func() { c.progress.Delete(token) }
}

func (c *conn) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	token, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	if f, ok := c.progress.Load(token); ok {
		f.(progressFunc)(req.Params.Progress, req.Params.Total, req.Params.Message)
	}
}

// headerTransport adds the backend's headers and bearer token (its own,
// or one of its client credentials) to every request the SDK sends.
type headerTransport struct {
	headers map[string]string
	bearer  string
	tokens  *tokenclient.Source // nil without oauth2
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	if t.bearer != "" {
		r.Header.Set("Authorization", "Bearer "+t.bearer)
	}
	if t.tokens == nil {
		return http.DefaultTransport.RoundTrip(r)
	}
	token, err := t.tokens.Token(r.Context())
	if err != nil {
		return nil, err
	}
	r.Header.Set("Authorization", token)
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusUnauthorized || r.GetBody == nil {
		return resp, err
	}
	// The server refused the token (revoked, or its keys rotated): get a
	// new one, once.
	t.tokens.Invalidate(token)
	again, err := t.tokens.Token(r.Context())
	if err != nil || again == token {
		return resp, nil
	}
	body, err := r.GetBody()
	if err != nil {
		return resp, nil
	}
	resp.Body.Close()
	r = r.Clone(r.Context())
	r.Body = body
	r.Header.Set("Authorization", again)
	return http.DefaultTransport.RoundTrip(r)
}

// tokenSource is the backend's client credentials token cache, made on
// first use and shared by its sessions; nil without oauth2.
func (b *Backend) tokenSource() *tokenclient.Source {
	if b.OAuth2 == nil {
		return nil
	}
	b.tokensOnce.Do(func() {
		b.tokens = tokenclient.NewSource(*b.OAuth2, http.DefaultTransport, b.Timeout, "mcpdecl", nil)
	})
	return b.tokens
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
