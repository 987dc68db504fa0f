//go:build !windows

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/ahptui/ahptui/internal/safefile"
)

// childEnv marks the UI process started by supervise; its value is the
// file descriptor of the crash pipe.
const childEnv = "AHPTUI_SUPERVISED"

// resetSequences undo what a full-screen UI may have left switched on:
// the alternate screen, a hidden cursor, mouse reporting, bracketed paste,
// focus reporting and the kitty keyboard protocol.
const resetSequences = "\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1004l\x1b[<u\x1b[0m\r\n"

// parentEnv marks the UI process started by supervise with the file
// descriptor of the read end of a pipe only the supervisor can write to:
// its EOF tells the child that the supervisor died (even by SIGKILL).
const parentEnv = "AHPTUI_PARENT_FD"

// maxCrashReport bounds the crash text the supervisor keeps.
const maxCrashReport = 1 << 20

// armCrashPipe, in a supervised UI process, sends the Go runtime's fatal
// error report (an unrecovered panic in any goroutine) to the supervisor.
func armCrashPipe() {
	if lookupEnv(childEnv) != "3" {
		return
	}
	f := os.NewFile(3, "ahptui-crash")
	if f == nil {
		return
	}
	_ = debug.SetCrashOutput(f, debug.CrashOptions{})
	_ = f.Close() // SetCrashOutput keeps its own duplicate
	watchParent()
}

// watchParent, in a supervised UI process, ends the UI when the
// supervisor dies: a SIGKILLed supervisor cannot restore the terminal, and
// a UI left behind in the alternate screen would take what the user types
// at the shell for chat messages. The pipe's EOF (only the supervisor
// holds its write end) sends this process SIGHUP, which ends the UI
// through Bubble Tea's own shutdown and restores the terminal; SIGTTOU and
// SIGTTIN are ignored first, since the shell has by then taken the
// terminal back and a background process restoring its modes would
// otherwise be stopped. The goroutine lives as long as the process.
func watchParent() {
	if lookupEnv(parentEnv) != "4" {
		return
	}
	syscall.CloseOnExec(4) // not for the UI's own children (ssh, token_cmd)
	f := os.NewFile(4, "ahptui-parent")
	if f == nil {
		return
	}
	go func() {
		_, _ = io.Copy(io.Discard, f)
		signal.Ignore(syscall.SIGTTOU, syscall.SIGTTIN)
		_ = syscall.Kill(os.Getpid(), syscall.SIGHUP)
	}()
}

// maybeSupervise runs a terminal UI command in a child process and watches
// it, so that a panic in any goroutine (which the Go runtime turns into
// exit status 2 with the terminal left raw) restores the terminal and
// exits 1 with a message. It does nothing (ok false) when this process is
// already the child, when stdin or stdout is not a terminal, or when
// AHPTUI_NO_SUPERVISOR is set.
func maybeSupervise(args []string, logPath string, std stdio) (code int, ok bool) {
	if lookupEnv(childEnv) != "" || lookupEnv("AHPTUI_NO_SUPERVISOR") != "" ||
		!term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return 0, false
	}
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	state, err := term.GetState(os.Stdin.Fd())
	if err != nil {
		return 0, false
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, false
	}
	pr, pw, err := os.Pipe() // the child watches pr for this process's death
	if err != nil {
		_ = r.Close()
		_ = w.Close()
		return 0, false
	}
	defer pw.Close() // held open (and alive) until the child has ended
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{w, pr} // fds 3 and 4 in the child
	cmd.Env = append(os.Environ(), childEnv+"=3", parentEnv+"=4")
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, append([]os.Signal{os.Interrupt}, termSignals...)...)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		_ = r.Close()
		_ = w.Close()
		_ = pr.Close()
		return 0, false
	}
	_ = w.Close()
	_ = pr.Close()
	crash := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, maxCrashReport))
		_ = r.Close()
		crash <- b
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr error
loop:
	for {
		select {
		case s := <-sigs:
			_ = cmd.Process.Signal(s) // the child restores the terminal and exits 128+signo
		case werr = <-waited:
			break loop
		}
	}
	var report []byte
	select {
	case report = <-crash:
	case <-time.After(2 * time.Second): // a grandchild may hold the pipe
	}
	return superviseResult(werr, report, state, logPath, std), true
}

// superviseResult turns the child's end into this process's exit code,
// restoring the terminal whenever the child did not end normally.
func superviseResult(werr error, report []byte, state *term.State, logPath string, std stdio) int {
	var ee *exec.ExitError
	if len(bytes.TrimSpace(report)) > 0 {
		restoreTerminal(state, std)
		saveCrash(report, logPath)
		printErr(std.err, "ahptui: internal error: %s\nThe terminal was restored. The full report is in %s.\n",
			firstLine(report), logPath)
		return exitError
	}
	switch {
	case werr == nil:
		return exitOK
	case errors.As(werr, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			restoreTerminal(state, std)
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	restoreTerminal(state, std)
	printErr(std.err, "ahptui: %v\n", werr)
	return exitError
}

// restoreTerminal puts the terminal back as it was before the UI started.
func restoreTerminal(state *term.State, std stdio) {
	_ = term.Restore(os.Stdin.Fd(), state)
	_, _ = io.WriteString(std.out, resetSequences)
}

// saveCrash appends the crash report to the log file (best effort).
func saveCrash(report []byte, logPath string) {
	if logPath == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return
	}
	f, err := safefile.OpenAppend(logPath, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = fmt.Fprintf(f, "{\"time\":%q,\"level\":\"ERROR\",\"msg\":\"crash report\",\"report\":%q}\n",
		time.Now().Format(time.RFC3339Nano), maskBytes(report))
}

// firstLine returns the first non-empty line of a crash report, masked.
func firstLine(b []byte) string {
	for _, l := range bytes.Split(b, []byte("\n")) {
		if s := string(bytes.TrimSpace(l)); s != "" {
			return maskBytes([]byte(s))
		}
	}
	return "crashed"
}
