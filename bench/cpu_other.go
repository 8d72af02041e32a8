//go:build !linux

package bench

import "time"

// cpuTime and threadTime are not measured here: the benchmarks report no
// CPU time.
func cpuTime() time.Duration { return 0 }

func threadTime() time.Duration { return 0 }
