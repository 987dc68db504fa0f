package cli

import (
	"os"
	"runtime/debug"
)

// defaultServeMemoryLimit is the Go runtime's soft memory limit under
// `ahptui serve` (unless GOMEMLIMIT is set): the garbage collector works
// harder as the heap approaches it, so transient garbage from large
// snapshots under load does not inflate the process's RSS. Live data is
// bounded by the host's own limits (see ahphost's package documentation).
// It is a process-wide setting, so the command line, not ahphost, owns it.
const defaultServeMemoryLimit = 384 << 20

// applyServeMemoryLimit sets defaultServeMemoryLimit unless the user chose
// a limit with GOMEMLIMIT. It returns the limit in effect.
func applyServeMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	debug.SetMemoryLimit(defaultServeMemoryLimit)
	return defaultServeMemoryLimit
}
