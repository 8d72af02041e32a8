package main

import (
	"os"
	"syscall"
	"time"
)

// rusage returns the processor time (user and system) and the peak
// resident memory, in bytes, of a process that ended.
func rusage(ps *os.ProcessState) (cpu time.Duration, maxrss int64, ok bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss << 10, true // kilobytes on Linux
}
