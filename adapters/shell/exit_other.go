//go:build !linux

package shelladapter

// leaderExited returns nil: this system offers no portable way to wait for
// a child without reaping it.
func leaderExited(pid int) <-chan struct{} { return nil }
