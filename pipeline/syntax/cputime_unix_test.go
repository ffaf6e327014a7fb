//go:build unix

package syntax

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system. The
// benchmarks report it beside wall time: on a shared machine, wall time
// counts the other processes' turns too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
