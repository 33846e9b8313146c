package serving

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// b64 is the standard base64 of s.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// weakStateKeys are keys people write by hand or copy from an example,
// each 32 bytes or more so that only the strength check can refuse them.
var weakStateKeys = []struct{ name, line, why string }{
	{"the key once shipped in deploy/kubernetes", "cmVwbGFjZS1tZS13aXRoLW9wZW5zc2wtcmFuZC1iYXNlNjQtMzI=", "example key once shipped"},
	{"the old key without padding", "cmVwbGFjZS1tZS13aXRoLW9wZW5zc2wtcmFuZC1iYXNlNjQtMzI", "placeholder"},
	{"replace-me text", b64("replace-me-replace-me-replace-me-x"), "placeholder"},
	{"changeme text", b64("changeme0changeme1changeme2changeme3"), "placeholder"},
	{"secret text", b64("my-super-secret-signing-key-2026!!"), "placeholder"},
	{"example text", b64("an-example-key-for-the-docs-only-1"), "placeholder"},
	{"a text placeholder that is valid base64", "ChangeMeChangeMeChangeMeChangeMeChangeMeChangeMe", "placeholder"},
	{"upper-case placeholder", b64("REPLACE_ME_WITH_A_REAL_KEY_PLEASE_"), "placeholder"},
	{"all zero bytes", base64.StdEncoding.EncodeToString(make([]byte, 32)), "distinct bytes"},
	{"one letter", b64(strings.Repeat("o", 32)), "distinct bytes"},
	{"two bytes alternating", base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xde, 0xad}, 16)), "distinct bytes"},
	{"a 16-byte random block twice", base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("\x8a\x11\xf3\x07\xc2\x9e\x44\x5b\xd0\x38\x6f\xa1\x1c\xe7\x72\xb9"), 2)), "repeats a pattern of 16 bytes"},
	{"a word repeated with a tail", b64("hunter2!hunter2!hunter2!hunter2!xy"), "repeats a pattern"},
	{"counting bytes", base64.StdEncoding.EncodeToString(func() []byte {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(i * 7)
		}
		return b
	}()), "sequence"},
	{"the alphabet", b64("abcdefghijklmnopqrstuvwxyz012345"), "sequence"},
	{"decimal digits", b64("3141592653589793238462643383279502"), "small alphabet"},
	{"a passphrase", b64("correct horse battery staple, then a hat!"), "read as words"},
}

// TestHostileWeakStateKeys: a signing key that is a placeholder, a
// pattern or text is refused, with the line it is on and the command
// that makes a good one, and never shown (the serve command's refusals at
// start and on reload are TestHostileWeakStateKeysServe in cmd/mcpdecl).
func TestHostileWeakStateKeys(t *testing.T) {
	good := randomKey(t)
	for _, k := range weakStateKeys {
		t.Run(k.name, func(t *testing.T) {
			if raw, _ := decodeBase64(k.line); len(raw) < 32 {
				t.Fatalf("the case has %d bytes: the length check, not the strength check, would refuse it", len(raw))
			}
			_, err := parseStateKeys("# keys\n"+good+"\n"+k.line+"\n", "state.keys")
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			for _, want := range []string{"state.keys:3:", "not random enough", k.why, "head -c 32 /dev/urandom | base64"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q: want %q in it", msg, want)
				}
			}
			if strings.Contains(msg, k.line) {
				t.Errorf("the error shows the key: %s", msg)
			}
		})
	}
}

// TestRandomStateKeysAccepted: keys of random bytes, as the documented
// command makes them, are never refused (the checks' false positives are
// far too rare to show in a thousand).
func TestRandomStateKeysAccepted(t *testing.T) {
	for i := 0; i < 1000; i++ {
		n := 32 + i%33
		key := make([]byte, n)
		if _, err := rand.Read(key); err != nil {
			t.Fatal(err)
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding} {
			line := enc.EncodeToString(key)
			if _, err := parseStateKeys(line+"\n", "keys"); err != nil {
				t.Fatalf("a random %d-byte key %s was refused: %v", n, line, err)
			}
		}
	}
	// Hex text of 32 random bytes, base64'd (openssl rand -hex 32 | base64).
	key := make([]byte, 32)
	rand.Read(key)
	if _, err := parseStateKeys(b64(hex.EncodeToString(key)+"\n"), "keys"); err != nil {
		t.Errorf("base64 of 64 random hex digits: %v", err)
	}
}

func randomKey(t *testing.T) string {
	t.Helper()
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(key)
}
