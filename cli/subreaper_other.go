//go:build !linux

package cli

import "log/slog"

// startSubreaper does nothing where there is no child subreaper (Linux
// only): there an agent's child that leaves its session may outlive the
// host.
func startSubreaper(*slog.Logger) (shutdown func()) { return func() {} }
