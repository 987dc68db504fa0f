//go:build windows

package cli

// armCrashPipe does nothing on Windows (no supervisor there).
func armCrashPipe() {}

// maybeSupervise is not available on Windows: the UI runs in-process.
func maybeSupervise([]string, string, stdio) (int, bool) { return 0, false }
