// Package redisurl reads the one parameter mcpdecl adds to the Redis URLs
// of its stores (tasks, limits): key_prefix, under which a store keeps its
// keys, so that deployments sharing a Redis database keep theirs apart.
// The Redis client refuses parameters it does not know, so the parameter
// is taken out of the URL before the client sees it.
package redisurl

import (
	"errors"
	"fmt"
	neturl "net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// SplitKeyPrefix takes key_prefix out of url and returns the rest and
// the prefix (def when the URL has none). The prefix is 1 to 64 letters,
// digits and "-_.:", so that it can never reach a key as something else;
// a ":" is added when it does not end with one. Errors never quote the
// URL, which may hold a password.
func SplitKeyPrefix(url, def string) (rest, prefix string, err error) {
	q := strings.IndexByte(url, '?')
	if q < 0 {
		return url, def, nil
	}
	params, err := neturl.ParseQuery(url[q+1:])
	if err != nil {
		return "", "", fmt.Errorf("the query after ? cannot be read: %v", err)
	}
	if _, ok := params["key_prefix"]; !ok {
		return url, def, nil
	}
	prefix = params.Get("key_prefix")
	if !validKeyPrefix(prefix) {
		return "", "", fmt.Errorf("key_prefix %q: use 1 to 64 letters, digits, '-', '_', '.' or ':'", prefix)
	}
	if !strings.HasSuffix(prefix, ":") {
		prefix += ":"
	}
	params.Del("key_prefix")
	rest = url[:q]
	if len(params) > 0 {
		rest += "?" + params.Encode()
	}
	return rest, prefix, nil
}

func validKeyPrefix(p string) bool {
	if p == "" || len(p) > 64 {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.:", c) >= 0) {
			return false
		}
	}
	return true
}

// Options reads a store's Redis URL: the client's options, and the key
// prefix (def without key_prefix). A URL that net/url cannot parse comes
// back from the client quoted whole, password and all: the error keeps
// only what is wrong with it.
func Options(url, def string) (*redis.Options, string, error) {
	url, prefix, err := SplitKeyPrefix(url, def)
	if err != nil {
		return nil, "", err
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		var bad *neturl.Error
		if errors.As(err, &bad) {
			err = bad.Err
		}
		return nil, "", err
	}
	return opts, prefix, nil
}
