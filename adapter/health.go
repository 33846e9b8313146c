package adapter

import (
	"context"
	"database/sql"
)

// Pinger is implemented by backends that can tell whether what they call
// answers, cheaply and without running anything of the configuration (a
// database ping). The readiness probe calls it with a short deadline; a
// backend without it (an HTTP API, commands) is not checked, so a probe
// never sends a request a backend would count or bill. The error names
// the backend and holds no secret (no DSN password).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Pooled is implemented by backends that keep a pool of connections. It
// returns the pool's counts (summed over the backend's pools when it keeps
// more than one), read at scrape time by metrics, and false while the
// backend is not open.
type Pooled interface {
	PoolStats() (sql.DBStats, bool)
}
