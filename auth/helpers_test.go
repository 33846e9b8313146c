package auth_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
)

const resource = "https://mcp.example.com/mcp"

// newVerifier builds a verifier for resource trusting issuer, with a
// refresh interval long enough that only the first fetch happens unless a
// test shortens it.
func newVerifier(t testing.TB, issuer string, edit ...func(*auth.Config)) *auth.Verifier {
	t.Helper()
	cfg := &auth.Config{
		Resource:             resource,
		AuthorizationServers: []string{issuer},
		KeyRefreshInterval:   1 << 62,
	}
	for _, e := range edit {
		e(cfg)
	}
	v, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

// mustVerify verifies a token that must be accepted.
func mustVerify(t testing.TB, v *auth.Verifier, token string) *auth.Identity {
	t.Helper()
	id, err := v.Verify(context.Background(), token)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return id
}

// mustRefuse verifies a token that must be refused with this code and a
// description holding want.
func mustRefuse(t testing.TB, v *auth.Verifier, token, code, want string) {
	t.Helper()
	id, err := v.Verify(context.Background(), token)
	if err == nil {
		t.Fatalf("Verify accepted the token (subject %q); want %s", id.Subject, code)
	}
	var ae *auth.Error
	if !errors.As(err, &ae) {
		t.Fatalf("Verify error %T %v is not *auth.Error", err, err)
	}
	if ae.Code != code || !bytes.Contains([]byte(ae.Description), []byte(want)) {
		t.Fatalf("Verify error = %q / %q; want code %q, description with %q", ae.Code, ae.Description, code, want)
	}
}

// logBuffer is a debug-level slog logger writing to a buffer.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
