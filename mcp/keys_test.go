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
