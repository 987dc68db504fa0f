//go:build !linux

package acp

import (
	"fmt"
	"io"
	"os/exec"
)

// agentStdoutPipe makes cmd's stdout a pipe and returns its reader (which
// cmd.Wait closes) and what ends the reading after the process was reaped
// (nothing more here).
func agentStdoutPipe(cmd *exec.Cmd) (io.Reader, func(), func(), error) {
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("stdout pipe: %w", err)
	}
	return r, func() {}, func() {}, nil
}
