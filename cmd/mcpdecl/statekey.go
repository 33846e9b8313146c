package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"github.com/mcpdecl/mcpdecl/server"
)

// stateKeyFlags say where the keys that sign a 2026-07-28 requestState
// come from. Replicas behind one load balancer must share them, or a
// multi-round call whose next round lands on another replica is refused.
type stateKeyFlags struct {
	StateKeyFile string `name:"state-key-file" env:"MCPDECL_STATE_KEY_FILE" placeholder:"PATH" help:"File of request-state keys shared by replicas: one base64 key (32 bytes or more, e.g. from 'openssl rand -base64 32') per line; the first signs, every one is accepted, so a rotation puts the new key first and drops the old one once its states expired (15 minutes). Re-read on SIGHUP. Without it or MCPDECL_STATE_KEYS, each process has a random key."`
	// Only from the environment in practice (a flag's value shows in ps).
	StateKeys string `name:"state-keys" hidden:"" env:"MCPDECL_STATE_KEYS" help:"Request-state keys, comma-separated base64; prefer the environment variable."`
}

// keys reads the request-state keys: from the file when one is named,
// else from MCPDECL_STATE_KEYS (comma- or newline-separated), else none.
func (f *stateKeyFlags) keys() ([][]byte, error) {
	if f.StateKeyFile != "" {
		b, err := os.ReadFile(f.StateKeyFile)
		if err != nil {
			return nil, fmt.Errorf("--state-key-file: %w", err)
		}
		return parseStateKeys(string(b), f.StateKeyFile)
	}
	if f.StateKeys != "" {
		return parseStateKeys(strings.ReplaceAll(f.StateKeys, ",", "\n"), "MCPDECL_STATE_KEYS")
	}
	return nil, nil
}

// parseStateKeys reads one base64 key per line; blank lines and lines
// starting with # are skipped. Errors name the line, never the key.
func parseStateKeys(text, source string) ([][]byte, error) {
	var keys [][]byte
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, err := decodeBase64(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: the key is not base64; write one key per line, e.g. from 'openssl rand -base64 32'", source, i+1)
		}
		if len(key) < server.MinStateKeyLen {
			return nil, fmt.Errorf("%s:%d: the key has %d bytes; use at least %d (openssl rand -base64 32)", source, i+1, len(key), server.MinStateKeyLen)
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no key found; write one base64 key per line", source)
	}
	return keys, nil
}

// decodeBase64 accepts standard and URL-safe base64, padded or not.
func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}
