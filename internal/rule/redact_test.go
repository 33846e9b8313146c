package rule

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name    string
		s       string
		secrets []string
		want    string
	}{
		{"no secret", "hello world", []string{"token-1234"}, "hello world"},
		{"one secret, every occurrence", "a token-1234 b token-1234", []string{"token-1234"}, "a [redacted] b [redacted]"},
		{"a secret holding another is replaced whole", "key=token-1234", []string{"1234", "token-1234"}, "key=[redacted]"},
		{"longest first whatever the order given", "key=token-1234 pin=1234", []string{"1234", "token-1234"}, "key=[redacted] pin=[redacted]"},
		{"empty secrets are ignored", "abc", []string{"", "zzzz"}, "abc"},
		{"secrets shorter than MinSecretLen are ignored", "pin 123 on", []string{"123", "on"}, "pin 123 on"},
		{"a secret of MinSecretLen is replaced", "pin 1234", []string{"1234"}, "pin [redacted]"},
		{"no secrets", "abc", nil, "abc"},
		{"several secrets", "user alice pass hunter2", []string{"alice", "hunter2"}, "user [redacted] pass [redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.s, tt.secrets); got != tt.want {
				t.Errorf("Redact(%q, %q) = %q, want %q", tt.s, tt.secrets, got, tt.want)
			}
		})
	}
}

func TestRedactLeavesSecretsUnchanged(t *testing.T) {
	secrets := []string{"1234", "token-1234"}
	Redact("token-1234", secrets)
	if secrets[0] != "1234" || secrets[1] != "token-1234" {
		t.Errorf("Redact reordered the caller's list: %q", secrets)
	}
}

func TestRedactWithoutSecretAllocatesNothing(t *testing.T) {
	secrets := []string{"token-1234", "hunter2"}
	s := strings.Repeat("an ordinary log line ", 10)
	if n := testing.AllocsPerRun(100, func() { Redact(s, secrets) }); n != 0 {
		t.Errorf("Redact allocated %v times for a text without secrets", n)
	}
}

func TestLongestFirst(t *testing.T) {
	got := LongestFirst([]string{"bb", "a", "ccc", "dd"})
	want := []string{"ccc", "bb", "dd", "a"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("LongestFirst = %q, want %q", got, want)
	}
}

var benchText = strings.Repeat("GET /v1/items?page=2 answered 200 in 31ms for user alice; ", 8)
var benchSecrets = []string{"sk-live-0123456789abcdef", "hunter2-password", "alice@example"}

// BenchmarkRedact compares Redact with a strings.Replacer built once for
// the same secrets, on text without a secret (the common case) and with one.
func BenchmarkRedact(b *testing.B) {
	withSecret := benchText + benchSecrets[0]
	replacer := strings.NewReplacer(benchSecrets[0], Redacted, benchSecrets[1], Redacted, benchSecrets[2], Redacted)
	b.Run("none/Redact", func(b *testing.B) {
		for b.Loop() {
			Redact(benchText, benchSecrets)
		}
	})
	b.Run("none/Replacer", func(b *testing.B) {
		for b.Loop() {
			replacer.Replace(benchText)
		}
	})
	b.Run("one/Redact", func(b *testing.B) {
		for b.Loop() {
			Redact(withSecret, benchSecrets)
		}
	})
	b.Run("one/Replacer", func(b *testing.B) {
		for b.Loop() {
			replacer.Replace(withSecret)
		}
	})
}
