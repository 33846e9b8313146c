package tasks

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The Redis store keeps its finished tasks within Limits with three keys
// besides the tasks: a sorted set of every finished task and one per
// owner, scored by when each expires (so the oldest come first, and those
// that expired by themselves are found without a scan); a hash of each
// finished task's size and owner; a hash of the bytes kept per owner and
// in all. The script that records a task's end also updates them and
// forgets what is over a bound, in one step that no other replica's can
// interleave with.

func (r *Redis) finAllKey() string      { return r.prefix + "finished" }
func (r *Redis) finOwnerPrefix() string { return r.prefix + "finished:" }
func (r *Redis) finInfoKey() string     { return r.prefix + "finished-info" }
func (r *Redis) finBytesKey() string    { return r.prefix + "finished-bytes" }

// SetLimits implements Store; they apply from the next task that ends.
func (r *Redis) SetLimits(l Limits) {
	r.mu.Lock()
	r.limits = l
	r.mu.Unlock()
}

func (r *Redis) currentLimits() Limits {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limits
}

// finishScript is casScript for an update that ends a task: it also
// records the task as finished and forgets the oldest finished tasks of
// its owner, then of the store, while a bound is exceeded (never the task
// that just ended).
//
// KEYS: task, channel, finished (all), finished:<owner>, finished-info,
// finished-bytes. ARGV: old value, new value, expiry (ms), id, owner,
// size, now (ms), owner's count and byte bounds, total count and byte
// bounds, the prefix of task keys, the prefix of owner sets.
var finishScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
redis.call('PUBLISH', KEYS[2], '1')
local all, own, info, bytes = KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local id, owner, size = ARGV[4], ARGV[5], tonumber(ARGV[6])
local taskp, ownp = ARGV[12], ARGV[13]

local function forget(victim, del)
  local rec = redis.call('HGET', info, victim)
  redis.call('ZREM', all, victim)
  if not rec then return end
  local sep = string.find(rec, '|', 1, true)
  local b, o = tonumber(string.sub(rec, 1, sep - 1)), string.sub(rec, sep + 1)
  redis.call('ZREM', ownp .. o, victim)
  redis.call('HDEL', info, victim)
  -- 0 - b, not -b: Lua writes -0 as "-0", which HINCRBY refuses.
  redis.call('HINCRBY', bytes, 'all', 0 - b)
  if redis.call('HINCRBY', bytes, 'o:' .. o, 0 - b) <= 0 then redis.call('HDEL', bytes, 'o:' .. o) end
  if del then redis.call('DEL', taskp .. victim) end
end

-- Tasks that expired by themselves leave the records first.
for _, v in ipairs(redis.call('ZRANGEBYSCORE', all, '-inf', ARGV[7])) do forget(v, false) end

if not redis.call('HGET', info, id) then
  redis.call('ZADD', all, ARGV[3], id)
  redis.call('ZADD', own, ARGV[3], id)
  redis.call('HSET', info, id, ARGV[6] .. '|' .. owner)
  redis.call('HINCRBY', bytes, 'all', size)
  redis.call('HINCRBY', bytes, 'o:' .. owner, size)
end
for _, k in ipairs({all, own, info, bytes}) do
  if redis.call('PEXPIRETIME', k) < tonumber(ARGV[3]) then redis.call('PEXPIREAT', k, ARGV[3]) end
end

local function evict(set, field, maxn, maxb)
  while true do
    local n = redis.call('ZCARD', set)
    local b = tonumber(redis.call('HGET', bytes, field) or '0')
    if not ((maxn > 0 and n > maxn) or (maxb > 0 and b > maxb)) then return end
    local two = redis.call('ZRANGE', set, 0, 1)
    local oldest = two[1]
    if oldest == id then oldest = two[2] end
    if not oldest then return end
    forget(oldest, true)
  end
end
evict(own, 'o:' .. owner, tonumber(ARGV[8]), tonumber(ARGV[9]))
evict(all, 'all', tonumber(ARGV[10]), tonumber(ARGV[11]))
return 1`)

// runFinish runs finishScript for t, which the update ends.
func (r *Redis) runFinish(ctx context.Context, t *Task, old, nb []byte) (int, error) {
	nowMs := time.Now().UnixMilli()
	l := r.currentLimits()
	maxN, maxB := l.ownerBounds(t.Owner)
	keys := []string{r.key(t.ID), r.channel(t.ID), r.finAllKey(), r.finOwnerPrefix() + t.Owner, r.finInfoKey(), r.finBytesKey()}
	return finishScript.Run(ctx, r.c, keys, old, nb, t.ExpiresAt().UnixMilli(), t.ID, t.Owner, resultBytes(t), nowMs,
		maxN, maxB, l.Total, l.TotalBytes, r.prefix+"task:", r.finOwnerPrefix()).Int()
}
