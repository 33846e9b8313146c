package mcp

import "time"

// Idle stateful sessions are ended in the background, not only when their
// id comes back: what an abandoned session holds is freed, and the count
// of open sessions falls, within a quarter of SessionIdleTimeout after it
// expired. The timer runs only while there are sessions.

// armSweep starts the sweep timer, unless sessions never expire or it
// runs already; h.mu is held.
func (h *httpHandler) armSweep() {
	idle := h.opts.SessionIdleTimeout
	if idle <= 0 || h.sweep != nil {
		return
	}
	h.sweep = time.AfterFunc(sweepInterval(idle), h.sweepIdle)
}

func sweepInterval(idle time.Duration) time.Duration { return max(idle/4, time.Millisecond) }

// sweepIdle ends the expired sessions, and runs again later while
// sessions remain.
func (h *httpHandler) sweepIdle() {
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, sess := range h.sessions {
		if h.expired(sess, now) {
			h.end(sess)
		}
	}
	if len(h.sessions) == 0 {
		h.sweep = nil
		return
	}
	h.sweep.Reset(sweepInterval(h.opts.SessionIdleTimeout))
}
