package mcp

import (
	"bytes"
	"strings"
	"testing"
)

func TestKeysRotation(t *testing.T) {
	oldKey, newKey := bytes.Repeat([]byte("o"), MinKeyLen), bytes.Repeat([]byte("n"), MinKeyLen)
	old, _ := NewKeys([][]byte{oldKey})
	rotated, _ := NewKeys([][]byte{newKey, oldKey})
	mac := old.Sign("payload", "binding")
	if !rotated.Verify(mac, "payload", "binding") {
		t.Error("the previous key is not accepted during a rotation")
	}
	if old.Verify(rotated.Sign("payload", "binding"), "payload", "binding") {
		t.Error("a key not in the list was accepted")
	}
	if old.Verify(mac, "payload\x00binding") == false {
		t.Error("parts are not joined with NUL as documented")
	}
	if old.Verify(mac, "payload", "bindinG") {
		t.Error("a changed message verified")
	}
	if err := old.Set([][]byte{newKey}); err != nil || old.Verify(mac, "payload", "binding") {
		t.Errorf("after Set the retired key still verifies (%v)", err)
	}
	random, _ := NewKeys(nil)
	if random.Verify(mac, "payload", "binding") {
		t.Error("a random key verified another key's MAC")
	}
}

func TestShortKeyRefused(t *testing.T) {
	if _, err := NewKeys([][]byte{[]byte("short")}); err == nil || !strings.Contains(err.Error(), "32 bytes") {
		t.Fatalf("a 5-byte key: %v", err)
	}
	k, _ := NewKeys(nil)
	if err := k.Set([][]byte{bytes.Repeat([]byte("k"), MinKeyLen), make([]byte, 31)}); err == nil {
		t.Fatal("Set accepted a 31-byte key")
	}
}

// TestKeysSealRotation: what the first key sealed opens under a ring that
// still lists it, for the same purpose and associated data only; its text
// cannot be read in the sealed bytes; and a retired key opens nothing.
func TestKeysSealRotation(t *testing.T) {
	oldKey, newKey := bytes.Repeat([]byte("o"), MinKeyLen), bytes.Repeat([]byte("n"), MinKeyLen)
	old, _ := NewKeys([][]byte{oldKey})
	rotated, _ := NewKeys([][]byte{newKey, oldKey})
	secret := []byte(`{"answer":"the secret plan"}`)
	sealed := old.Seal("state", secret, []byte("alice"))
	if bytes.Contains(sealed, []byte("secret")) {
		t.Fatal("the plaintext is visible in the sealed bytes")
	}
	if got, err := rotated.Open("state", sealed, []byte("alice")); err != nil || !bytes.Equal(got, secret) {
		t.Errorf("the previous key does not open during a rotation: %q %v", got, err)
	}
	if _, err := old.Open("state", rotated.Seal("state", secret, []byte("alice")), []byte("alice")); err == nil {
		t.Error("a key not in the list opened")
	}
	if _, err := rotated.Open("state", sealed, []byte("bob")); err == nil {
		t.Error("other associated data opened")
	}
	if _, err := rotated.Open("session", sealed, []byte("alice")); err == nil {
		t.Error("another purpose opened")
	}
	if bytes.Equal(old.Seal("state", secret, nil), old.Seal("state", secret, nil)) {
		t.Error("two seals of the same text are equal: the nonce is not random")
	}
	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 1
		if _, err := rotated.Open("state", bad, []byte("alice")); err == nil {
			t.Fatalf("a flipped bit at %d opened", i)
		}
	}
	for _, short := range [][]byte{nil, sealed[:5], sealed[:20]} {
		if _, err := rotated.Open("state", short, nil); err == nil {
			t.Errorf("%d bytes opened", len(short))
		}
	}
	if err := rotated.Set([][]byte{newKey}); err != nil {
		t.Fatal(err)
	}
	if _, err := rotated.Open("state", sealed, []byte("alice")); err == nil {
		t.Error("after Set the retired key still opens")
	}
}
