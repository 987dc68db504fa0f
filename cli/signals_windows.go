//go:build windows

package cli

import (
	"os"
	"syscall"
)

// termSignals are the signals, besides os.Interrupt, that end the program
// cleanly (Windows delivers only a console interrupt and SIGTERM).
var termSignals = []os.Signal{syscall.SIGTERM}

// signalExitCode is the exit code for a process ended by sig.
func signalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitInterrupted
}
