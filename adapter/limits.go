package adapter

import (
	"context"
	"time"
)

// RoundLimit rounds the time a deadline left, or a limit measured at a
// call's start, to what its author likely wrote ("1s", not "999.8ms"), so
// that messages naming the limit read as the config does.
func RoundLimit(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	}
	return d
}

// CallLimit is the time limit a message should name for this call: the
// tool's timeout as configured when there is one (ctx then carries the
// same deadline), else what ctx's deadline leaves now, rounded; zero when
// the call has no deadline. Naming the configured value keeps the message
// exact however long the call took to start.
func (r *Request) CallLimit(ctx context.Context) time.Duration {
	if r != nil && r.Timeout > 0 {
		return r.Timeout
	}
	if dl, ok := ctx.Deadline(); ok {
		return RoundLimit(time.Until(dl))
	}
	return 0
}
