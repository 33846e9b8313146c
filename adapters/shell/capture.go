package shelladapter

import (
	"bytes"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxLineBytes caps one line handed to the line callbacks (a log
// notification, a progress match); the rest of a longer line is dropped.
const maxLineBytes = 4096

// capture is the writer of one output stream. It keeps the first limit
// bytes and counts the rest, so that a command printing gigabytes costs at
// most limit bytes of memory; it never fails, so the command is never
// blocked or killed by a full pipe. When onLine is set, it also hands over
// each line as soon as its end is written, while the command runs.
//
// exec.Cmd calls Write from one goroutine per stream; Invoke reads the
// fields only after Wait returned.
type capture struct {
	limit   int64
	buf     []byte
	dropped int64

	// onLine, when set, gets each line and whether it ended within the
	// first limit bytes.
	onLine func(line []byte, kept bool)
	line   []byte // the current line, up to maxLineBytes
	offset int64  // how many bytes were split into lines
}

func (c *capture) Write(p []byte) (int, error) {
	if room := c.limit - int64(len(c.buf)); room > 0 {
		keep := min(int64(len(p)), room)
		c.buf = append(c.buf, p[:keep]...)
		c.dropped += int64(len(p)) - keep
	} else {
		c.dropped += int64(len(p))
	}
	if c.onLine != nil {
		c.split(p)
	}
	return len(p), nil
}

// bufPool holds the read buffers of ReadFrom, so that a call does not
// allocate 32 KiB per stream (io.Copy's default).
var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 32<<10)
	return &b
}}

// ReadFrom reads r to its end into c. exec.Cmd's copying goroutine calls
// it (through io.Copy) with the read end of the output pipe.
func (c *capture) ReadFrom(r io.Reader) (int64, error) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	var n int64
	for {
		m, err := r.Read(*bp)
		if m > 0 {
			_, _ = c.Write((*bp)[:m])
			n += int64(m)
		}
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// split cuts p into lines ended by "\n" or "\r" (progress bars redraw a
// line with "\r"), carrying a partial line over to the next Write.
func (c *capture) split(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			c.appendLine(p)
			c.offset += int64(len(p))
			return
		}
		c.appendLine(p[:i])
		c.offset += int64(i) + 1
		c.flush()
		p = p[i+1:]
	}
}

func (c *capture) appendLine(p []byte) {
	if room := maxLineBytes - len(c.line); room < len(p) {
		p = p[:max(room, 0)]
	}
	c.line = append(c.line, p...)
}

// flush hands over the current line, if it is not empty.
func (c *capture) flush() {
	if len(c.line) > 0 {
		c.onLine(c.line, c.offset <= c.limit)
	}
	c.line = c.line[:0]
}

// endOnCharacter moves a UTF-8 character that the limit cut in two from
// the kept output to the dropped count, so that what is kept ends on a
// character boundary, as result.max_bytes cuts.
func (c *capture) endOnCharacter() {
	if c.dropped == 0 {
		return
	}
	n := wholeRunes(c.buf)
	c.dropped += int64(len(c.buf) - n)
	c.buf = c.buf[:n]
}

// wholeRunes returns the length of b without a UTF-8 character cut short
// at its end (bytes that are not UTF-8 at all are kept, to be replaced
// where the output is read as text).
func wholeRunes(b []byte) int {
	for j := len(b) - 1; j >= 0 && j >= len(b)-utf8.UTFMax; j-- {
		if utf8.RuneStart(b[j]) {
			if !utf8.FullRune(b[j:]) {
				return j
			}
			break
		}
	}
	return len(b)
}

// lineText is a line handed to the callbacks as text: a character cut by
// maxLineBytes is left out rather than replaced.
func lineText(line []byte) string {
	if len(line) >= maxLineBytes {
		line = line[:wholeRunes(line)]
	}
	return strings.ToValidUTF8(string(line), "\uFFFD")
}

// streamer turns output lines into notifications: each stderr line is a
// log line (up to max_output_bytes of stderr, so that a flood of output is
// not a flood of notifications), and lines of either stream matching the
// progress pattern are progress notifications, sent only when the progress
// increases.
type streamer struct {
	log      func(level string, data any)
	progress func(progress, total float64, message string)
	pattern  *regexp.Regexp // nil: no progress

	mu   sync.Mutex // the two streams are written from two goroutines
	sent bool
	last float64
}

func (s *streamer) stdoutLine(line []byte, _ bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.matchProgress(line)
}

func (s *streamer) stderrLine(line []byte, kept bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept {
		s.log("info", lineText(line))
	}
	s.matchProgress(line)
}

func (s *streamer) matchProgress(line []byte) {
	if s.pattern == nil {
		return
	}
	m := s.pattern.FindSubmatch(line)
	if m == nil {
		return
	}
	progress, ok := parseNumber(m[1])
	if !ok || (s.sent && progress <= s.last) {
		return
	}
	var total float64
	if len(m) > 2 {
		if t, ok := parseNumber(m[2]); ok {
			total = t
		}
	}
	s.sent, s.last = true, progress
	s.progress(progress, total, lineText(line))
}

// parseNumber reads a progress group, such as "42" or "42.5".
func parseNumber(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
