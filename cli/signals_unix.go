//go:build !windows

package cli

import (
	"os"
	"syscall"
)

// termSignals are the signals, besides os.Interrupt, that end the program
// cleanly: the terminal is restored and the exit code is 128+signo.
var termSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP}

// signalExitCode is the conventional exit code for a process ended by sig.
func signalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitInterrupted
}
