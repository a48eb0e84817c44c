//go:build unix

package codec

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, in user and system
// mode, on every thread (so a benchmark's garbage collection counts).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
