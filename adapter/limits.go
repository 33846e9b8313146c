package adapter

import "time"

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
