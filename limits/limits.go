package limits

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Rate is how fast a bucket refills: Tokens every Per.
type Rate struct {
	Tokens int
	Per    time.Duration
}

// perSecond is the rate as tokens per second.
func (r Rate) perSecond() float64 { return float64(r.Tokens) / r.Per.Seconds() }

// String is the rate as ParseRate reads it ("10/minute").
func (r Rate) String() string {
	for _, u := range units {
		if r.Per == u.d {
			return strconv.Itoa(r.Tokens) + "/" + u.name
		}
	}
	return strconv.Itoa(r.Tokens) + "/" + r.Per.String()
}

var units = []struct {
	name string
	d    time.Duration
}{{"second", time.Second}, {"minute", time.Minute}, {"hour", time.Hour}, {"day", 24 * time.Hour}}

// ParseRate reads "N/unit" where unit is second, minute, hour or day (or
// s, m, h, d), N a whole number from 1.
func ParseRate(s string) (Rate, error) {
	n, unit, ok := strings.Cut(strings.TrimSpace(s), "/")
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err != nil || count < 1 {
		return Rate{}, fmt.Errorf("the rate %q is not a count and a unit, as in \"10/minute\"", s)
	}
	unit = strings.TrimSpace(unit)
	for _, u := range units {
		if unit == u.name || unit == u.name[:1] {
			return Rate{Tokens: count, Per: u.d}, nil
		}
	}
	return Rate{}, fmt.Errorf("the rate %q has the unit %q: use second, minute, hour or day", s, unit)
}

// Bucket is what a take needs to know of a bucket: its refill rate and
// the tokens it holds at most (at least 1).
type Bucket struct {
	Rate  Rate
	Burst int
}

// fullAfter is how long an empty bucket takes to fill: after that long
// untouched, a bucket is as good as new and need not be kept.
func (b Bucket) fullAfter() time.Duration {
	return time.Duration(float64(b.Burst) / b.Rate.perSecond() * float64(time.Second))
}

// Decision is the answer to a take.
type Decision struct {
	Allowed bool
	// RetryAfter is, when refused, how long until a token is there.
	RetryAfter time.Duration
}

// Store keeps buckets by key.
type Store interface {
	// Take takes a token of the bucket key, created full when unknown.
	Take(ctx context.Context, key string, b Bucket) (Decision, error)
	// Return gives back a token Take took, when a later limit refused
	// the call it was taken for (never beyond the burst).
	Return(ctx context.Context, key string, b Bucket) error
	Close() error
}

// Open opens the store url names: "memory" (or "") for this process, or
// a Redis URL (redis://[user:password@]host:port/db[?key_prefix=NAME]).
func Open(ctx context.Context, url string) (Store, error) {
	if url == "" || url == "memory" {
		return NewMemory(), nil
	}
	if strings.HasPrefix(url, "redis://") || strings.HasPrefix(url, "rediss://") {
		return OpenRedis(ctx, url)
	}
	return nil, fmt.Errorf("limit store %q: use \"memory\" or a redis:// URL", url)
}

// refill is the bucket arithmetic both stores share (the Lua script
// repeats it): tokens held after elapsed, then the take.
func refill(tokens float64, elapsed time.Duration, b Bucket) (left float64, d Decision) {
	rate := b.Rate.perSecond()
	tokens = math.Min(float64(b.Burst), tokens+elapsed.Seconds()*rate)
	if tokens >= 1 {
		return tokens - 1, Decision{Allowed: true}
	}
	wait := (1 - tokens) / rate
	return tokens, Decision{RetryAfter: time.Duration(math.Ceil(wait * float64(time.Second)))}
}
