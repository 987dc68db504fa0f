//go:build linux

package render

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU returns the CPU time consumed by the calling OS thread (the
// caller must hold runtime.LockOSThread). Benchmarks use it next to wall
// time because on a shared 2-core machine wall time of a single render
// includes time the thread was not running at all.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
