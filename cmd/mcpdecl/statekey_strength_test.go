package main

import (
	"bytes"
	"encoding/base64"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// b64 is the standard base64 of s.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// shippedStateKey is the example key once shipped in deploy/kubernetes.
const shippedStateKey = "cmVwbGFjZS1tZS13aXRoLW9wZW5zc2wtcmFuZC1iYXNlNjQtMzI="

// TestHostileWeakStateKeysServe: a weak signing key is refused at start,
// from the file and from MCPDECL_STATE_KEYS, and on a SIGHUP reload
// (which keeps the keys); serving's TestHostileWeakStateKeys checks every
// kind of weak key.
func TestHostileWeakStateKeysServe(t *testing.T) {
	good := randomKey(t)
	// The serve command refuses at start, from either source.
	dir := t.TempDir()
	config := filepath.Join(dir, "config.hcl")
	writeFile(t, config, elicitingConfig)
	weak := filepath.Join(dir, "weak.keys")
	writeFile(t, weak, shippedStateKey+"\n")
	var out, errOut bytes.Buffer
	if code := run([]string{"serve", "--state-key-file", weak, config}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), weak+":1: the key is not random enough") {
		t.Errorf("serve --state-key-file with the old shipped key: exit %d, %s", code, errOut.String())
	}
	errOut.Reset()
	t.Setenv("MCPDECL_STATE_KEYS", good+","+b64(strings.Repeat("ab", 20)))
	if code := run([]string{"serve", config}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "MCPDECL_STATE_KEYS:2: the key is not random enough") {
		t.Errorf("serve with a weak MCPDECL_STATE_KEYS: exit %d, %s", code, errOut.String())
	}
	t.Setenv("MCPDECL_STATE_KEYS", "")

	// A reload to a weak key is refused and the served keys stay.
	keys := filepath.Join(dir, "state.keys")
	writeFile(t, keys, good+"\n")
	bin := buildBinary(t)
	a := startHTTPServe(t, bin, config, "--state-key-file", keys)
	state := askRound(t, a.url)
	writeFile(t, keys, b64("changeme-changeme-changeme-changeme")+"\n")
	a.cmd.Process.Signal(syscall.SIGHUP)
	a.waitLog(t, "signing keys not reloaded")
	if !strings.Contains(a.stderr.String(), "not random enough") {
		t.Errorf("the reload's log does not say why:\n%s", a.stderr)
	}
	if got := answerRound(t, a.url, state); got != "action=accept" {
		t.Errorf("after a refused reload, a state the served key signed: %s", got)
	}
}
