//go:build !windows

package acp

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

// terminalsSupported is advertised as the ACP client terminal capability.
const terminalsSupported = true

// inputQueue bounds typed input waiting for the pty (pieces, not bytes;
// each piece is one client action).
const inputQueue = 256

// errInputFull drops input the pty does not take.
var errInputFull = errors.New("the terminal is not reading its input")

// startTerminal starts the command in a pty (its own session and process
// group) and pumps its output until it exits.
func (b *Bridge) startTerminal(t *terminal, command string, args []string, dir string, env []string) error {
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	dieWithHost(cmd.SysProcAttr) // (pty adds its own session)
	// Under the shim (shim.go) what the command leaves behind (`setsid
	// daemon &`) is stopped with it, and when the host dies.
	shim, err := underTermShim(cmd, b.cfg.Shim)
	if err != nil {
		return err
	}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 30})
	if err == nil && shim != nil {
		if _, err = shim.started(b.cfg.RequestTimeout); err != nil {
			_ = cmd.Process.Kill() // (it started no command)
			_ = cmd.Wait()
			_ = f.Close()
		}
	}
	if err != nil {
		if shim != nil {
			shim.abandon()
		}
		return err
	}
	t.cmd, t.shim = cmd, shim
	t.resize = func(cols, rows int) { // within the host's terminal limits (ahpstate.ValidateTerminalAction)
		_ = pty.Setsize(f, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}) // (after exit: EBADF, ignored)
	}
	in := make(chan string, inputQueue)
	t.input = func(s string) error {
		select {
		case in <- s:
			return nil
		default:
			return errInputFull
		}
	}
	b.wg.Add(2)
	go func() { // typed input, written without holding the host's lock
		defer b.wg.Done()
		for {
			select {
			case s := <-in:
				if _, err := io.WriteString(f, s); err != nil {
					return
				}
			case <-t.exited:
				return
			}
		}
	}()
	go func() {
		defer b.wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				t.output(buf[:n])
			}
			if err != nil {
				break
			}
		}
		werr := cmd.Wait()
		if shim != nil {
			shim.release()
		}
		_ = f.Close()
		var code *int
		var sig *string
		var ee *exec.ExitError
		switch {
		case werr == nil:
			c := 0
			code = &c
		case errors.As(werr, &ee):
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				s := ws.Signal().String()
				sig = &s
			} else {
				c := ee.ExitCode()
				code = &c
			}
		}
		t.exit(code, sig)
	}()
	return nil
}

// kill kills the terminal's process group (pty.Start makes the command a
// session leader, so its group id is its pid).
func (t *terminal) kill() {
	if t.cmd == nil || t.cmd.Process == nil {
		return
	}
	select {
	case <-t.exited:
		return
	default:
	}
	if t.shim != nil {
		t.shim.kill() // (the command and all below it)
		return
	}
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
}
