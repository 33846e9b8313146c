//go:build !unix

package sqladapter

import "time"

// cpuTime is not measured here; the benchmark's CPU metrics read 0.
func cpuTime() time.Duration { return 0 }
