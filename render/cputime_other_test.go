//go:build !linux

package render

import "time"

// threadCPU is unavailable here; benchmarks then report wall time only.
func threadCPU() time.Duration { return 0 }

func lockThread() func() { return func() {} }
