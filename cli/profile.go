package cli

import (
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// profileEnv names a file to write a CPU profile of the terminal UI (or of
// `ahptui serve`) to (`go tool pprof ahptui FILE`), and traceEnv one for an execution trace
// (`go tool trace FILE`; `go tool trace -pprof=sched FILE` shows where
// goroutines waited to run), for measurements such as
// scripts/stream-bench.sh; unset, nothing is recorded.
const (
	profileEnv = "AHPTUI_CPUPROFILE"
	traceEnv   = "AHPTUI_TRACE"
)

// startProfile starts the CPU profile and the execution trace the
// environment asks for and returns what stops them (a no-op when none was
// asked for or it failed).
func startProfile(log *slog.Logger) func() {
	stopCPU := record(log, profileEnv, pprof.StartCPUProfile, pprof.StopCPUProfile)
	stopTrace := record(log, traceEnv, trace.Start, trace.Stop)
	return func() { stopTrace(); stopCPU() }
}

// record starts one recording into the file $env names; the returned
// function stops it and closes the file.
func record(log *slog.Logger, env string, start func(w io.Writer) error, stop func()) func() {
	path := lookupEnv(env)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		log.Warn("recording", "env", env, "err", err)
		return func() {}
	}
	if err := start(f); err != nil {
		log.Warn("recording", "env", env, "err", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		stop()
		if err := f.Close(); err != nil {
			log.Warn("recording", "env", env, "err", err)
		}
	}
}
