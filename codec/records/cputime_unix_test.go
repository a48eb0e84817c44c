//go:build unix

package records

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU time so far, all threads
// (the garbage collector's too).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds a cpu-ns/op metric, which a busy machine disturbs less
// than the wall time of ns/op; start is cpuTime() before the loop.
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}
