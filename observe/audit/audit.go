// Package audit writes the audit trail: one JSON line per call, each
// holding the SHA-256 of the line before it, so that an edited, inserted
// or deleted line breaks the chain where it was (Verify finds the first
// broken link). The first line of a trail holds a random seed in place
// of a previous line. It knows nothing of mcpdecl: the server fills the
// records.
package audit

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Record is one call. Empty fields are left out of the line.
type Record struct {
	Time time.Time
	// Principal is whom limits and tasks see as the caller ("sub:" and
	// the token's issuer and subject, "session:…", "stdio",
	// "anonymous"); Subject the token's subject; Client its client id.
	Principal, Subject, Client string
	// Method is the JSON-RPC method; Tool the tool, prompt or resource
	// name (the real tool through call_tool); Via the meta-tool that
	// called it ("call_tool"); URI the resource read.
	Method, Tool, Via, URI string
	// Arguments are the call's arguments, redacted, as JSON.
	Arguments json.RawMessage
	// Outcome is "ok", "tool_error", "protocol_error", "refused",
	// "timeout" or "cancelled"; Code the JSON-RPC error code of a
	// protocol error; Limit the limit that refused the call.
	Outcome string
	Code    int
	Limit   string
	// Duration is how long the call took.
	Duration          time.Duration
	TaskID, RequestID string
	// Protocol is the protocol revision of the request.
	Protocol string
}

// Log appends records to a file or a stream. Lines are written by the
// writer goroutine at most flushEvery after they are recorded (one write
// for all the lines waiting), and the file is synced to disk at most
// syncEvery, and on Close.
type Log struct {
	mu      sync.Mutex
	buf     []byte // lines waiting for the writer
	prev    [sha256.Size]byte
	scratch []byte
	spare   []byte       // the writer's last buffer, reused
	compact bytes.Buffer // arguments on one line
	out     io.Writer
	file    *os.File // nil for stdout
	kick    chan struct{}
	done    chan struct{}
	stopped chan struct{}
	err     error // the first write error, reported by Close
}

const (
	flushEvery = 100 * time.Millisecond
	syncEvery  = time.Second
	// flushAt is how much waiting text makes the writer write at once.
	flushAt = 64 << 10
)

// Open opens the trail at path ("-" for stdout), appending, and
// continues its chain from its last line (a new or empty file starts a
// chain from a random seed).
func Open(path string) (*Log, error) {
	if path == "-" {
		return start(os.Stdout, nil, nil)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: %v", err)
	}
	last, err := lastLine(path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return start(f, f, last)
}

// New returns a Log writing to w (tests, or a stream of the caller's).
func New(w io.Writer) (*Log, error) { return start(w, nil, nil) }

func start(w io.Writer, f *os.File, last []byte) (*Log, error) {
	l := &Log{out: w, file: f, kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	if last != nil {
		l.prev = sha256.Sum256(last)
	} else {
		seed := seedLine()
		l.prev = sha256.Sum256(seed)
		l.buf = append(seed, '\n')
	}
	go l.writer()
	return l, nil
}

// seedLine is the first line of a chain: a random seed, which the first
// record's prev is the hash of.
func seedLine() []byte {
	var seed [32]byte
	_, _ = rand.Read(seed[:])
	return fmt.Appendf(nil, `{"seed":"%s","time":"%s"}`, hex.EncodeToString(seed[:]), time.Now().UTC().Format(time.RFC3339Nano))
}

// lastLine reads the last line of the file at path, nil when empty.
func lastLine(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %v", err)
	}
	data = bytes.TrimRight(data, "\n")
	if len(data) == 0 {
		return nil, nil
	}
	return data[bytes.LastIndexByte(data, '\n')+1:], nil
}

// Write records r: its line, chained to the line before, is written by
// the writer soon after. It never blocks on the disk.
func (l *Log) Write(r *Record) {
	l.mu.Lock()
	line := r.appendJSON(l.scratch[:0], l.prev[:], &l.compact)
	l.prev = sha256.Sum256(line)
	l.buf = append(append(l.buf, line...), '\n')
	l.scratch = line
	full := len(l.buf) >= flushAt
	l.mu.Unlock()
	if full {
		select {
		case l.kick <- struct{}{}:
		default:
		}
	}
}

// writer writes what waits every flushEvery (or when much waits), and
// syncs the file every syncEvery.
func (l *Log) writer() {
	defer close(l.stopped)
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	lastSync := time.Now()
	for {
		select {
		case <-l.done:
			l.flush(true)
			return
		case <-tick.C:
		case <-l.kick:
		}
		sync := time.Since(lastSync) >= syncEvery
		l.flush(sync)
		if sync {
			lastSync = time.Now()
		}
	}
}

func (l *Log) flush(sync bool) {
	l.mu.Lock()
	out := l.buf
	l.buf = l.spare[:0]
	l.mu.Unlock()
	if len(out) > 0 {
		if _, err := l.out.Write(out); err != nil && l.err == nil {
			l.err = err
		}
	}
	l.mu.Lock()
	l.spare = out
	l.mu.Unlock()
	if sync && l.file != nil {
		if err := l.file.Sync(); err != nil && l.err == nil {
			l.err = err
		}
	}
}

// Close writes and syncs what waits, and closes the file.
func (l *Log) Close() error {
	close(l.done)
	<-l.stopped
	err := l.err
	if l.file != nil {
		if e := l.file.Close(); err == nil {
			err = e
		}
	}
	return err
}

// appendJSON appends r as one JSON object without a newline.
func (r *Record) appendJSON(dst, prev []byte, compact *bytes.Buffer) []byte {
	dst = append(dst, `{"prev":"`...)
	dst = hex.AppendEncode(dst, prev)
	dst = append(dst, `","time":"`...)
	dst = r.Time.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	dst = field(dst, "principal", r.Principal)
	dst = field(dst, "subject", r.Subject)
	dst = field(dst, "client_id", r.Client)
	dst = field(dst, "method", r.Method)
	dst = field(dst, "name", r.Tool)
	dst = field(dst, "via", r.Via)
	dst = field(dst, "uri", r.URI)
	if len(r.Arguments) > 0 {
		dst = append(dst, `,"arguments":`...)
		dst = appendCompact(dst, r.Arguments, compact)
	}
	dst = field(dst, "outcome", r.Outcome)
	if r.Code != 0 {
		dst = append(dst, `,"code":`...)
		dst = strconv.AppendInt(dst, int64(r.Code), 10)
	}
	dst = field(dst, "limit", r.Limit)
	dst = append(dst, `,"duration_ms":`...)
	dst = strconv.AppendFloat(dst, float64(r.Duration.Microseconds())/1000, 'f', -1, 64)
	dst = field(dst, "task_id", r.TaskID)
	dst = field(dst, "request_id", r.RequestID)
	dst = field(dst, "protocol", r.Protocol)
	return append(dst, '}')
}

// appendCompact appends JSON text on one line; text that is not JSON is
// written as a string.
func appendCompact(dst []byte, raw []byte, b *bytes.Buffer) []byte {
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return append(dst, raw...)
	}
	b.Reset()
	if json.Compact(b, raw) == nil {
		return append(dst, b.Bytes()...)
	}
	return appendString(dst, string(raw))
}

func field(dst []byte, name, value string) []byte {
	if value == "" {
		return dst
	}
	dst = append(append(append(dst, `,"`...), name...), `":`...)
	return appendString(dst, value)
}

// appendString appends s as a JSON string.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			dst = append(dst, c)
			i++
			continue
		}
		if c < 0x80 {
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\r':
				dst = append(dst, '\\', 'r')
			default:
				dst = append(dst, `\u00`...)
				dst = append(dst, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\u2028' || r == '\u2029' || r == 0xFFFD && size == 1 {
			dst = fmt.Appendf(dst, `\u%04x`, r)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// BrokenLink is where a trail's chain breaks.
type BrokenLink struct {
	Line   int // 1-based
	Reason string
}

func (b *BrokenLink) Error() string { return fmt.Sprintf("line %d: %s", b.Line, b.Reason) }

// Verify reads a trail and checks every link: the first line is a seed,
// each later line's prev is the SHA-256 of the line before it. It returns
// the number of records and, when the chain breaks, a *BrokenLink naming
// the first line that does not follow.
func Verify(r io.Reader) (records int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var prev [sha256.Size]byte
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		var head struct {
			Seed *string `json:"seed"`
			Prev *string `json:"prev"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return records, &BrokenLink{Line: n, Reason: "not a JSON record: " + err.Error()}
		}
		switch {
		case n == 1 && head.Seed == nil:
			return records, &BrokenLink{Line: 1, Reason: "the first line is not the seed of a chain (lines were removed from the start)"}
		case n == 1:
		case head.Seed != nil:
			return records, &BrokenLink{Line: n, Reason: "a seed line in the middle of the chain (a trail was started again or pasted)"}
		case head.Prev == nil || *head.Prev != hex.EncodeToString(prev[:]):
			return records, &BrokenLink{Line: n, Reason: "prev is not the SHA-256 of the line before: a line before it was edited, inserted or removed, or this one was edited"}
		default:
			records++
		}
		prev = sha256.Sum256(line)
	}
	if err := sc.Err(); err != nil {
		return records, err
	}
	if n == 0 {
		return 0, errors.New("the trail is empty")
	}
	return records, nil
}
