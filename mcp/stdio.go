package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// MaxStdioLine bounds one stdio message (4 MiB, like the HTTP body limit).
const MaxStdioLine = 4 << 20

// ServeStdio serves newline-delimited JSON-RPC from r to w. Only
// protocol messages are written to w, one per line; log to stderr. Requests
// are handled concurrently, so responses may be written out of order. When r
// reaches EOF, listen streams end and every pending response is still written
// before ServeStdio returns nil (go-sdk #1061 drops them). Cancelling ctx
// cancels in-flight requests and returns once they finished.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	c := &stdioConn{s: s, w: w, sess: newSession(""), eof: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go c.read(r, lines, readErr, ctx.Done())
	var err error
loop:
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				err = <-readErr
				break loop
			}
			c.handle(ctx, line)
		case <-ctx.Done():
			err = ctx.Err()
			break loop
		}
	}
	close(c.eof) // ends listen streams and the legacy push loop
	c.wg.Wait()
	return err
}

// stdioConn is one stdio connection: a write lock, in-flight cancel funcs
// and the legacy session state of the process.
type stdioConn struct {
	s       *Server
	w       io.Writer
	wmu     sync.Mutex
	wg      sync.WaitGroup
	sess    *session
	eof     chan struct{}
	pushing sync.Once
}

// read feeds lines to ServeStdio. stop ends it once ServeStdio stopped
// listening (a Read already blocked on r still waits for input or close).
func (c *stdioConn) read(r io.Reader, lines chan<- []byte, errc chan<- error, stop <-chan struct{}) {
	defer close(lines)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			select {
			case lines <- line:
			case <-stop:
				errc <- nil
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			errc <- err
			return
		}
	}
}

// readLine returns one line without its terminator, skipping blank lines'
// content; an over-long line is consumed and reported as a parse error line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxStdioLine {
			buf = []byte("!too long")
		} else {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		n := len(buf)
		for n > 0 && (buf[n-1] == '\n' || buf[n-1] == '\r') {
			n--
		}
		if firstByte(buf[:n]) == 0 {
			return nil, err
		}
		return buf[:n], err
	}
}

// write emits one message as one line; the lock keeps lines whole.
func (c *stdioConn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		return err
	}
	return nil
}

// handle processes one line: notifications and responses inline (they are
// cheap and order matters for cancellation), requests on their own goroutine.
func (c *stdioConn) handle(ctx context.Context, line []byte) {
	if IsBatch(line) {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			if out := c.s.serveBatch(ctx, line, nil, c.sess); out != nil {
				_ = c.write(out)
			}
		}()
		return
	}
	m, id, e := DecodeMessage(line)
	if e != nil {
		_ = c.write(encodeError(id, e))
		return
	}
	switch {
	case m.IsResponse():
		c.sess.deliver(m)
	case m.IsNotification():
		c.notification(m)
	default:
		c.request(ctx, m)
	}
}

// notification handles client notifications; they are never answered.
func (c *stdioConn) notification(m *Message) {
	switch m.Method {
	case "notifications/cancelled":
		c.sess.cancel(m.Params)
	case "notifications/initialized":
		c.startPush()
	}
}

func (c *stdioConn) request(ctx context.Context, m *Message) {
	rctx, cancel := context.WithCancel(ctx)
	untrack := c.sess.track(m.ID, cancel)
	c.wg.Add(1)
	c.s.inflight.Add(1)
	go func() {
		defer c.s.inflight.Done()
		defer c.wg.Done()
		defer func() { untrack(); cancel() }()
		in := &inbound{msg: m, sess: c.sess, stdio: true, out: c.sink(rctx)}
		out := c.s.serve(rctx, in)
		if out.body == nil {
			return
		}
		if rctx.Err() != nil && ctx.Err() == nil {
			return // cancelled by the client: MUST NOT answer
		}
		_ = c.write(out.body)
		if m.Method == "initialize" && out.era == EraLegacy {
			c.startPush()
		}
	}()
}

// sink binds a request's notifications to stdout. Writes stop once the
// request is cancelled, since nothing more may be sent for it.
func (c *stdioConn) sink(rctx context.Context) sink {
	send := func(b []byte) error {
		if rctx.Err() != nil {
			return rctx.Err()
		}
		return c.write(b)
	}
	return sink{
		send:   send,
		ending: c.eof,
		call: func(ctx context.Context, method string, params any) (json.RawMessage, error) {
			return c.sess.call(ctx, send, method, params)
		},
	}
}

// startPush begins legacy list_changed delivery on stdout after initialize,
// for the kinds the server advertises listChanged for.
func (c *stdioConn) startPush() {
	c.pushing.Do(func() {
		caps := c.s.h.Info().Capabilities
		l := c.s.legacyListener(&caps, c.sess)
		c.s.listeners.add(l)
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer c.s.listeners.remove(l)
			c.s.pushLoop(context.Background(), l, sink{send: c.write, ending: c.eof})
		}()
	})
}

// legacyListener builds the listener of a legacy session.
func (s *Server) legacyListener(caps *ServerCapabilities, sess *session) *listener {
	var kinds ListKind
	if caps.Tools != nil && caps.Tools.ListChanged {
		kinds |= ToolsListChanged
	}
	if caps.Prompts != nil && caps.Prompts.ListChanged {
		kinds |= PromptsListChanged
	}
	if caps.Resources != nil && caps.Resources.ListChanged {
		kinds |= ResourcesListChanged
	}
	l := newListener(kinds, nil)
	if caps.Resources != nil && caps.Resources.Subscribe {
		l.sess = sess
	}
	return l
}
