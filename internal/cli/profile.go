package cli

import (
	"log/slog"
	"os"
	"runtime/pprof"
)

// profileEnv names a file to write a CPU profile of the terminal UI (or of
// `ahptui serve`) to (`go tool pprof ahptui FILE`), for measurements such
// as scripts/stream-bench.sh; unset, nothing is profiled.
const profileEnv = "AHPTUI_CPUPROFILE"

// startProfile starts the CPU profile $AHPTUI_CPUPROFILE asks for and
// returns what stops it (a no-op when none was asked for or it failed).
func startProfile(log *slog.Logger) func() {
	path := lookupEnv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		log.Warn("cpu profile", "err", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Warn("cpu profile", "err", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Warn("cpu profile", "err", err)
		}
	}
}
