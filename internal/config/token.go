package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// tokenCmdTimeout bounds a token_cmd (a variable for tests).
var tokenCmdTimeout = 15 * time.Second

// tokenCmdWaitDelay bounds how long a token_cmd's output is waited for once
// the shell has exited or the timeout fired: a background child that keeps
// the output open (`sleep 40 & echo tok`) does not hold the call.
const tokenCmdWaitDelay = 2 * time.Second

// ResolveToken returns the host's token: from token_env, token_cmd (run by the
// shell; its standard output, trimmed) or token. "" when none is set.
// Errors never contain the token or the command's output.
func (h Host) ResolveToken(ctx context.Context, getenv func(string) string) (string, error) {
	switch {
	case h.TokenEnv != "":
		t := strings.TrimSpace(getenv(h.TokenEnv))
		if t == "" {
			return "", fmt.Errorf("token_env: $%s is not set", h.TokenEnv)
		}
		return t, nil
	case h.TokenCmd != "":
		ctx, cancel := context.WithTimeout(ctx, tokenCmdTimeout)
		defer cancel()
		var cmd *exec.Cmd
		if runtime.GOOS == "windows" {
			cmd = exec.CommandContext(ctx, "cmd", "/C", h.TokenCmd)
		} else {
			cmd = exec.CommandContext(ctx, "sh", "-c", h.TokenCmd)
		}
		// The command runs in its own process group, killed whole at the
		// timeout (children included); WaitDelay stops waiting for output a
		// leftover child keeps open.
		setProcessGroup(cmd)
		cmd.WaitDelay = tokenCmdWaitDelay
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ctx.Err() != nil {
			return "", fmt.Errorf("token_cmd did not finish within %v", tokenCmdTimeout)
		}
		if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
			return "", fmt.Errorf("token_cmd failed: %w", err)
		}
		t := strings.TrimSpace(out.String())
		if t == "" || strings.ContainsAny(t, "\n\r") {
			return "", fmt.Errorf("token_cmd must print the token on one line")
		}
		return t, nil
	}
	return h.Token, nil
}
