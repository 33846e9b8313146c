package redisurl

import (
	"strings"
	"testing"
)

// TestSplitKeyPrefix: key_prefix leaves the URL with the client's own
// parameters kept, gets its ":", and a bad one is refused without the
// URL's password in the error.
func TestSplitKeyPrefix(t *testing.T) {
	for _, c := range []struct{ url, rest, prefix string }{
		{"redis://h:6379/0", "redis://h:6379/0", "def:"},
		{"redis://h/0?dial_timeout=2s", "redis://h/0?dial_timeout=2s", "def:"},
		{"redis://h/0?key_prefix=billing", "redis://h/0", "billing:"},
		{"redis://h/0?key_prefix=a.b-c_d:", "redis://h/0", "a.b-c_d:"},
		{"redis://h/0?dial_timeout=2s&key_prefix=x", "redis://h/0?dial_timeout=2s", "x:"},
	} {
		rest, prefix, err := SplitKeyPrefix(c.url, "def:")
		if err != nil || rest != c.rest || prefix != c.prefix {
			t.Errorf("%s: %q %q %v; want %q %q", c.url, rest, prefix, err, c.rest, c.prefix)
		}
	}
	for _, bad := range []string{"", "a%20b", "x%7Dy", strings.Repeat("p", 65)} {
		_, _, err := SplitKeyPrefix("redis://u:secret-pw@h/0?key_prefix="+bad, "def:")
		if err == nil || !strings.Contains(err.Error(), "key_prefix") || strings.Contains(err.Error(), "secret-pw") {
			t.Errorf("key_prefix %q: %v; want it refused without the password", bad, err)
		}
	}
	if _, _, err := SplitKeyPrefix("redis://u:secret-pw@h/0?%zz", "def:"); err == nil || strings.Contains(err.Error(), "secret-pw") {
		t.Errorf("an unreadable query: %v", err)
	}
}

// TestOptionsHideThePassword: a URL the client cannot parse is refused
// with what is wrong, never the URL's password.
func TestOptionsHideThePassword(t *testing.T) {
	const password = "pw-Options-unlikely"
	for _, url := range []string{
		"redis://user:" + password + "@[::1:6379/0",
		"redis://user:" + password + "@h:6379/0?key_prefix=a%20b",
		"redis://user:" + password + "@h:notaport/0",
		"redis://user:" + password + "@h:6379/x",
	} {
		_, _, err := Options(url, "def:")
		if err == nil || strings.Contains(err.Error(), password) {
			t.Errorf("%s: %v; want an error without the password", url, err)
		}
	}
	opts, prefix, err := Options("redis://user:"+password+"@h:6379/3?key_prefix=p", "def:")
	if err != nil || opts.Addr != "h:6379" || opts.DB != 3 || opts.Password != password || prefix != "p:" {
		t.Errorf("a good URL: %+v %q %v", opts, prefix, err)
	}
}
