package limits

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/redisurl"

	"github.com/redis/go-redis/v9"
)

// Redis keeps buckets in Redis, shared by every replica using the same
// URL and key prefix. A take is one Lua script (atomic, with the Redis
// server's clock, so replicas' clocks do not matter); a bucket's key
// expires when the bucket would be full again.
type Redis struct {
	c      *redis.Client
	prefix string
}

// defaultKeyPrefix is where buckets are kept without key_prefix.
const defaultKeyPrefix = "mcpdecl-limits:"

// OpenRedis connects to url (redis://[user:password@]host:port/db
// [?key_prefix=NAME]) and checks that it answers.
func OpenRedis(ctx context.Context, url string) (*Redis, error) {
	opts, prefix, err := redisurl.Options(url, defaultKeyPrefix)
	if err != nil {
		return nil, fmt.Errorf("limit store URL: %w", err)
	}
	c := redis.NewClient(opts)
	if err := c.Ping(ctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("limit store: redis at %s does not answer: %v", opts.Addr, err)
	}
	return &Redis{c: c, prefix: prefix}, nil
}

// WithPrefix returns the store with its keys under prefix.
func (r *Redis) WithPrefix(prefix string) *Redis {
	r.prefix = prefix
	return r
}

// takeScript is refill in Lua: KEYS[1] the bucket (a hash of t, the
// tokens, and ts, the time in microseconds), ARGV[1] the rate in tokens
// per microsecond, ARGV[2] the burst. It answers {allowed, microseconds
// to wait}.
var takeScript = redis.NewScript(`
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local b = redis.call('HMGET', KEYS[1], 't', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
if tokens == nil or ts == nil then tokens = burst; ts = now end
if now > ts then tokens = math.min(burst, tokens + (now - ts) * rate) end
local ok, wait = 0, 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
else
  wait = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'ts', string.format('%d', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate / 1000) + 1000)
return {ok, wait}
`)

// Take implements Store. The key is hashed: what it names (a caller's
// subject) never reaches Redis as text.
func (r *Redis) Take(ctx context.Context, key string, b Bucket) (Decision, error) {
	perMicro := b.Rate.perSecond() / 1e6
	res, err := takeScript.Run(ctx, r.c, []string{r.bucketKey(key)},
		fmt.Sprintf("%.17g", perMicro), b.Burst).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("limit store: %v", err)
	}
	if len(res) != 2 {
		return Decision{}, fmt.Errorf("limit store: unexpected answer %v", res)
	}
	return Decision{Allowed: res[0] == 1, RetryAfter: time.Duration(res[1]) * time.Microsecond}, nil
}

// bucketKey is where the bucket of key is kept: hashed, so that what key
// names (a caller's subject) never reaches Redis as text.
func (r *Redis) bucketKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return r.prefix + "bucket:" + hex.EncodeToString(sum[:16])
}

// returnScript gives a token back to KEYS[1], a bucket takeScript keeps,
// never beyond the burst ARGV[1]; a bucket that has gone stays gone (it
// was full).
var returnScript = redis.NewScript(`
local tokens = tonumber(redis.call('HGET', KEYS[1], 't'))
if tokens == nil then return 0 end
tokens = math.min(tonumber(ARGV[1]), tokens + 1)
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens))
return 1
`)

// Return implements Store.
func (r *Redis) Return(ctx context.Context, key string, b Bucket) error {
	if err := returnScript.Run(ctx, r.c, []string{r.bucketKey(key)}, b.Burst).Err(); err != nil {
		return fmt.Errorf("limit store: %v", err)
	}
	return nil
}

// Close implements Store.
func (r *Redis) Close() error { return r.c.Close() }
