//go:build !linux

package acp

import (
	"fmt"
	"os"
	"os/exec"
)

// runShim: the shim exists on Linux only (a child subreaper); elsewhere
// agents are started directly.
func runShim([]string, bool) int {
	fmt.Fprintln(os.Stderr, "ahptui: the agent shim runs on Linux only")
	return 2
}

// underShim: agents are started directly here.
func underShim(*exec.Cmd, string) (*agentShim, error) { return nil, nil }

// underTermShim: terminals are started directly here.
func underTermShim(*exec.Cmd, string) (*agentShim, error) { return nil, nil }
