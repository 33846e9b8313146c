package limits

import (
	"context"
	"strings"
	"testing"
)

// TestRedisURLErrorsHideThePassword: the limit store's URL errors, which
// serve logs, never carry the URL's password (a URL net/url cannot parse
// came back quoted whole).
func TestRedisURLErrorsHideThePassword(t *testing.T) {
	const password = "pw-Limits-unlikely"
	for _, url := range []string{
		"redis://user:" + password + "@[::1:6379/0",
		"redis://user:" + password + "@127.0.0.1:1/0",
	} {
		_, err := OpenRedis(context.Background(), url)
		if err == nil || strings.Contains(err.Error(), password) {
			t.Errorf("%v; want an error without the password", err)
		}
	}
}
