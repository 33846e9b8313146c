package serving

import (
	"encoding/base64"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/guessable"
	"github.com/mcpdecl/mcpdecl/internal/regularfile"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// makeKeyHint is the one command that makes a good key, named by every
// refusal.
const makeKeyHint = "make one with: head -c 32 /dev/urandom | base64"

// The signing keys (Options.StateKeyFile, Options.StateKeys) sign a
// 2026-07-28 requestState and a 2025 session id. Replicas behind one load
// balancer must share them, or a multi-round call whose next round lands
// on another replica is refused, and so is a 2025 session id minted by
// another replica.

// openKeys returns the signing keys the options name, or one random key.
func (f *Instance) openKeys() (*mcp.Keys, error) {
	keys, err := stateKeys(f.opts.StateKeyFile, f.opts.StateKeys)
	if err != nil {
		return nil, err
	}
	return mcp.NewKeys(keys)
}

// reloadKeys re-reads the key file, so that a rotated Secret takes effect
// without a restart; a broken file keeps the current keys.
func (f *Instance) reloadKeys(k *mcp.Keys, log *slog.Logger) {
	if f.opts.StateKeyFile == "" {
		return
	}
	keys, err := stateKeys(f.opts.StateKeyFile, f.opts.StateKeys)
	if err == nil {
		err = k.Set(keys)
	}
	if err != nil {
		log.Error("signing keys not reloaded; keeping the current ones", "error", err)
		return
	}
	log.Info("signing keys reloaded", "keys", len(keys))
}

// stateKeys reads the request-state keys: from file when one is named,
// else from list (MCPDECL_STATE_KEYS: comma- or newline-separated), else
// none.
func stateKeys(file, list string) ([][]byte, error) {
	if file != "" {
		b, err := regularfile.Read(file)
		if err != nil {
			return nil, fmt.Errorf("--state-key-file: %w", err)
		}
		return parseStateKeys(string(b), file)
	}
	if list != "" {
		return parseStateKeys(strings.ReplaceAll(list, ",", "\n"), "MCPDECL_STATE_KEYS")
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
			return nil, fmt.Errorf("%s:%d: the key is not base64; write one key per line; %s", source, i+1, makeKeyHint)
		}
		if len(key) < mcp.MinKeyLen {
			return nil, fmt.Errorf("%s:%d: the key has %d bytes; use at least %d (%s)", source, i+1, len(key), mcp.MinKeyLen, makeKeyHint)
		}
		if why := guessable.Why(line, key); why != "" {
			return nil, fmt.Errorf("%s:%d: the key is not random enough to sign with: %s; %s", source, i+1, why, makeKeyHint)
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no key found; write one base64 key per line (%s)", source, makeKeyHint)
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
