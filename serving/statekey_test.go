package serving

import (
	"crypto/rand"
	"encoding/base64"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestParseStateKeys(t *testing.T) {
	key := randomKey(t)
	raw := make([]byte, 40)
	rand.Read(raw)
	urlKey := base64.RawURLEncoding.EncodeToString(raw)
	keys, err := parseStateKeys("# rotated 2026-12-01\n"+key+"\n\n  "+urlKey+"  \n", "keys")
	if err != nil || len(keys) != 2 || len(keys[0]) != 32 || len(keys[1]) != 40 {
		t.Fatalf("got %d keys, %v", len(keys), err)
	}
	fromEnv, err := stateKeys("", key+","+urlKey)
	if err != nil || len(fromEnv) != 2 {
		t.Fatalf("MCPDECL_STATE_KEYS: got %d keys, %v", len(fromEnv), err)
	}
	short := base64.StdEncoding.EncodeToString([]byte("sixteen bytes!!!"))
	for text, want := range map[string]string{
		key + "\n" + short:   "keys:2: the key has 16 bytes; use at least 32",
		"not*base64":         "keys:1: the key is not base64",
		"# only a comment\n": "keys: no key found",
	} {
		_, err := parseStateKeys(text, "keys")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
		if err != nil && strings.Contains(err.Error(), short) {
			t.Errorf("the error shows the key: %v", err)
		}
	}
}

// TestStateKeyFileMustBeRegular: a --state-key-file that is a named pipe
// is refused at once; it is read again on every SIGHUP, which a pipe
// without a writer would hang forever.
func TestStateKeyFileMustBeRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := stateKeys(fifo, "")
	if err == nil || !strings.Contains(err.Error(), "--state-key-file") || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("keys from a named pipe: %v", err)
	}
}
