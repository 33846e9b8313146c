package mcp

import "net/http"

// Every request enters under MaxInFlight: the Host checks, the guard's
// token check and reading the body all cost. A request that turns out to
// be an open stream that only waits then moves to MaxStreams, so that
// idle listeners cannot starve the calls doing work, while the number of
// streams (each holds a connection, two goroutines and a few buffers)
// stays bounded on its own.

// waitsToPush reports the methods whose request stays open waiting for
// something to send: a subscriptions/listen stream, or tasks/result
// waiting for a task that runs on without it. A call streaming progress
// while it works is not one of them.
func waitsToPush(method string) bool {
	return method == "subscriptions/listen" || method == "tasks/result"
}

// toStream moves the request from MaxInFlight to MaxStreams; beyond
// MaxStreams it answers 503 with Retry-After and reports false.
func (h *httpHandler) toStream(w http.ResponseWriter, r *http.Request, rc *connControl) bool {
	if rc.stream {
		return true
	}
	if n := h.streams.Add(1); h.opts.MaxStreams > 0 && n > int64(h.opts.MaxStreams) {
		h.streams.Add(-1)
		w.Header().Set("Retry-After", "5")
		refuse(w, r, http.StatusServiceUnavailable, Errorf(CodeInternalError, "server busy: too many open streams; retry later"))
		return false
	}
	h.inFlight.Add(-1)
	rc.stream = true
	return true
}

// leave counts the request out of the cap it is counted against.
func (h *httpHandler) leave(rc *connControl) {
	if rc.stream {
		h.streams.Add(-1)
	} else {
		h.inFlight.Add(-1)
	}
}
