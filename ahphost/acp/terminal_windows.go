//go:build windows

package acp

import "errors"

// terminalsSupported: no ptys on Windows here.
const terminalsSupported = false

func (b *Bridge) startTerminal(t *terminal, command string, args []string, dir string, env []string) error {
	return errors.New("terminals are not supported on Windows")
}

func (t *terminal) kill() {}
