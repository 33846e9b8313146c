package sqladapter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/mcpdecl/mcpdecl/adapter"
)

var (
	_ adapter.Pinger = (*Backend)(nil)
	_ adapter.Pooled = (*Backend)(nil)
)

// errNotOpen answers a ping of a backend that serve has not opened (or
// has closed after a reload).
var errNotOpen = errors.New("not open")

// Ping checks that the database answers on each of the backend's pools,
// within ctx. A pool whose every connection is in use is not waited on:
// its calls show the database answers, and a probe that queued behind
// them would call a busy replica unready. The error names the backend,
// never the DSN's password.
func (b *Backend) Ping(ctx context.Context) error {
	p := b.state.Load()
	if p == nil {
		return fmt.Errorf("backend \"sql\" %q: %w", b.Name, errNotOpen)
	}
	for _, db := range p.each() {
		if s := db.Stats(); s.MaxOpenConnections > 0 && s.InUse >= s.MaxOpenConnections {
			continue
		}
		if err := db.PingContext(ctx); err != nil {
			return &redactedError{msg: fmt.Sprintf("backend \"sql\" %q: %s", b.Name, b.scrub(err.Error())), err: err}
		}
	}
	return nil
}

// PoolStats returns the counts of the backend's pools, added up: a
// read-write SQLite backend keeps a pool for its read-only calls besides
// the one for writes.
func (b *Backend) PoolStats() (sql.DBStats, bool) {
	p := b.state.Load()
	if p == nil {
		return sql.DBStats{}, false
	}
	var sum sql.DBStats
	for _, db := range p.each() {
		s := db.Stats()
		sum.MaxOpenConnections += s.MaxOpenConnections
		sum.OpenConnections += s.OpenConnections
		sum.InUse += s.InUse
		sum.Idle += s.Idle
		sum.WaitCount += s.WaitCount
		sum.WaitDuration += s.WaitDuration
		sum.MaxIdleClosed += s.MaxIdleClosed
		sum.MaxIdleTimeClosed += s.MaxIdleTimeClosed
		sum.MaxLifetimeClosed += s.MaxLifetimeClosed
	}
	return sum, true
}

// each lists the distinct pools.
func (p *pools) each() []*sql.DB {
	out := make([]*sql.DB, 0, 2)
	if p.ro != nil {
		out = append(out, p.ro)
	}
	if p.rw != nil && p.rw != p.ro {
		out = append(out, p.rw)
	}
	return out
}
