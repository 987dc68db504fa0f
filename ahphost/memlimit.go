package ahphost

import (
	"os"
	"runtime/debug"
)

// DefaultServeMemoryLimit is the Go runtime's soft memory limit under
// `ahptui serve` (unless GOMEMLIMIT is set): the garbage collector works
// harder as the heap approaches it, so transient garbage from large
// snapshots under load does not inflate the process's RSS. Live data is
// bounded by the host's own limits (see the package documentation).
const DefaultServeMemoryLimit = 384 << 20

// applyServeMemoryLimit sets DefaultServeMemoryLimit unless the user chose
// a limit with GOMEMLIMIT. It returns the limit in effect.
func applyServeMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	debug.SetMemoryLimit(DefaultServeMemoryLimit)
	return DefaultServeMemoryLimit
}
