//go:build !linux

package shelladapter

// waitExited reports false at once: this system offers no portable way to
// wait for a child without reaping it.
func waitExited(pid int) bool { return false }
