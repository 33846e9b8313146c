package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func record(i int) *Record {
	return &Record{Time: time.Unix(int64(i), 0), Principal: "sub:https://issuer\x00alice", Method: "tools/call", Tool: "echo",
		Arguments: json.RawMessage("{\n \"text\": \"hi \\u2028 there\"}"), Outcome: "ok", Duration: 1500 * time.Microsecond, RequestID: "r-1"}
}

func writeTrail(t *testing.T, path string, n int) {
	t.Helper()
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		l.Write(record(i))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func verifyFile(t *testing.T, path string) (int, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Verify(f)
}

// TestChainAcrossReopen: a trail opened again continues its chain, and
// every line is JSON encoding/json reads back.
func TestChainAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeTrail(t, path, 3)
	writeTrail(t, path, 2)
	n, err := verifyFile(t, path)
	if err != nil || n != 5 {
		t.Fatalf("Verify = %d, %v; want 5 records", n, err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], `{"seed":"`) {
		t.Fatalf("lines %q", lines)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil {
		t.Fatal(err)
	}
	if got["principal"] != "sub:https://issuer\x00alice" || got["duration_ms"] != 1.5 || got["arguments"].(map[string]any)["text"] != "hi \u2028 there" {
		t.Errorf("record = %v", got)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
}

// TestVerifyFindsFirstBrokenLink: an edit, a deletion, an insertion and
// a cut start are each found at the first line that no longer follows.
func TestVerifyFindsFirstBrokenLink(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeTrail(t, path, 5)
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSpace(string(data)), "\n")
	join := func(ls ...string) string { return strings.Join(ls, "") }
	cases := map[string]struct {
		text string
		line int
	}{
		"edited":   {join(lines[0], lines[1], strings.Replace(lines[2], `"ok"`, `"tool_error"`, 1), lines[3], lines[4], lines[5]), 4},
		"deleted":  {join(lines[0], lines[1], lines[3], lines[4], lines[5]), 3},
		"inserted": {join(lines[0], lines[1], lines[2], lines[2], lines[3], lines[4], lines[5]), 4},
		"cut":      {join(lines[2], lines[3]), 1},
		"seed":     {join(lines[0], lines[1], lines[0], lines[2]), 3},
	}
	for name, c := range cases {
		_, err := Verify(strings.NewReader(c.text))
		var bl *BrokenLink
		if !errors.As(err, &bl) || bl.Line != c.line {
			t.Errorf("%s: Verify = %v, want a broken link at line %d", name, err, c.line)
		}
	}
}

func TestWriterStream(t *testing.T) {
	var b syncBuffer
	l, _ := New(&b)
	l.Write(record(1))
	l.Close()
	if n, err := Verify(bytes.NewReader(b.Bytes())); n != 1 || err != nil {
		t.Fatalf("Verify = %d %v", n, err)
	}
}

type syncBuffer struct{ bytes.Buffer }

func BenchmarkWrite(b *testing.B) {
	l, _ := New(discard{})
	defer l.Close()
	r := record(1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l.Write(r)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
