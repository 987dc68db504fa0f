package acp

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// A message "!CMD" is Claude Code's bash mode, for every agent: the host
// runs CMD in a shell in the session's directory (a host-owned pty, shown
// as a terminal in the transcript, as the agent's own commands are), sends
// the agent nothing, and passes the command and its output to the agent
// with the next prompt.

// Bounds of the shell mode.
const (
	// shellOutput is the output a command keeps (its last bytes).
	shellOutput = 64 << 10
	// shellNoteMax is the output passed to the agent per command.
	shellNoteMax = 16 << 10
	// maxShellNotes bounds the commands kept for the next prompt.
	maxShellNotes = 8
)

// shellCommand returns CMD of a message "!CMD" ("" = not one).
func shellCommand(text string) string {
	if !strings.HasPrefix(text, "!") {
		return ""
	}
	return strings.TrimSpace(text[1:])
}

// userShell returns the shell that runs a "!" command and its arguments.
func userShell(cmd string) (string, []string) {
	if runtime.GOOS == "windows" {
		return "cmd.exe", []string{"/c", cmd}
	}
	sh := os.Getenv("SHELL")
	if sh == "" {
		sh = "/bin/sh"
	}
	return sh, []string{"-c", cmd}
}

// runShell runs a "!" command as the turn: a tool call showing its
// terminal, ended when the command exits (or killed with the turn).
func (b *Bridge) runShell(ctx context.Context, tm *turnMap, cmd string) error {
	s := tm.s
	c := &client{b: b}
	sh, args := userShell(cmd)
	limit := shellOutput
	ct, err := c.CreateTerminal(ctx, sdk.CreateTerminalRequest{SessionId: sdk.SessionId(s.acpID), Command: sh, Args: args, OutputByteLimit: &limit})
	if err != nil {
		return tm.fail(ctx, fmt.Errorf("!%s: %w", cmd, err))
	}
	id := "shell-" + ct.TerminalId
	title := "!" + cmd
	tm.toolCall(&sdk.SessionUpdateToolCall{ToolCallId: sdk.ToolCallId(id), Title: title, Kind: sdk.ToolKindExecute,
		Status: sdk.ToolCallStatusInProgress, RawInput: map[string]any{"command": cmd},
		Content: []sdk.ToolCallContent{sdk.ToolTerminalRef(ct.TerminalId)}})
	term := s.terminal(ct.TerminalId)
	defer func() {
		_, _ = c.ReleaseTerminal(context.WithoutCancel(ctx), sdk.ReleaseTerminalRequest{SessionId: sdk.SessionId(s.acpID), TerminalId: ct.TerminalId})
	}()
	select {
	case <-term.exited:
	case <-ctx.Done():
		term.kill()
		return ctx.Err()
	}
	st := term.status()
	term.mu.Lock()
	out := strings.ToValidUTF8(string(term.out), "\uFFFD")
	term.mu.Unlock()
	status := sdk.ToolCallStatusCompleted
	exit := "exit 0"
	switch {
	case st.ExitCode != nil && *st.ExitCode != 0:
		status, exit = sdk.ToolCallStatusFailed, fmt.Sprintf("exit %d", *st.ExitCode)
	case st.Signal != nil:
		status, exit = sdk.ToolCallStatusFailed, "killed by "+*st.Signal
	}
	tm.toolCallUpdate(&sdk.SessionToolCallUpdate{ToolCallId: sdk.ToolCallId(id), Status: &status})
	s.noteShell(cmd, exit, out)
	return tm.stop(ctx, sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn})
}

// noteShell keeps a command and its output for the next prompt.
func (s *session) noteShell(cmd, exit, out string) {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	if len(out) > shellNoteMax {
		cut := len(out) - shellNoteMax
		for cut < len(out) && out[cut]&0xC0 == 0x80 {
			cut++
		}
		out = "…" + out[cut:]
	}
	fence := "```"
	for strings.Contains(out, fence) {
		fence += "`"
	}
	note := fmt.Sprintf("I ran `%s` in the shell (%s); its output:\n%s\n%s\n%s", cmd, exit, fence, strings.TrimRight(out, "\n"), fence)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.shellNotes) >= maxShellNotes {
		s.shellNotes = s.shellNotes[1:]
	}
	s.shellNotes = append(s.shellNotes, note)
}

// takeShellNotes returns (and forgets) the commands run since the last
// prompt, as the text that goes first in the next one ("" = none).
func (s *session) takeShellNotes() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.shellNotes) == 0 {
		return ""
	}
	text := strings.Join(s.shellNotes, "\n\n")
	s.shellNotes = nil
	return text
}
