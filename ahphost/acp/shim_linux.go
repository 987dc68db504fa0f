package acp

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/ahptui/ahptui/internal/proctab"
)

// shimTermWait is how long the shim waits for the processes it asked to
// stop (SIGTERM) before it kills them; shimKillWait bounds the wait for
// the killed ones to be reaped.
const (
	shimTermWait = time.Second
	shimKillWait = 2 * time.Second
)

// shimState is the shim's view of the agent.
type shimState struct {
	agent  int                // the agent's pid (and process group)
	status syscall.WaitStatus // once reaped
	reaped bool
	quiet  bool // a terminal's: nothing on its stderr (the terminal)
}

// runShim is the shim's main (shim.go): args are the agent's executable,
// its argv[0] and arguments. For a terminal (tty) the shim is the pty's
// session leader: the command leads a group of its own in the terminal's
// foreground (it gets the keys' signals, the shim does not), and the
// shim says nothing on the terminal.
func runShim(args []string, tty bool) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "ahptui: the agent shim needs the agent's command")
		return 2
	}
	syscall.CloseOnExec(shimControlFd) // not for the agent
	syscall.CloseOnExec(shimReportFd)
	report := os.NewFile(shimReportFd, "ahptui-shim-report")
	control := os.NewFile(shimControlFd, "ahptui-shim-control")
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(report, "err cannot become the subreaper of the agent: %v\n", err)
		return 127
	}
	// Caught (not ignored) signals are the default again in the agent.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGCHLD, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	attr := &syscall.SysProcAttr{Setpgid: true} // its group, killed as one
	if tty {
		attr.Foreground, attr.Ctty = true, 0 // (the shim's stdin is the pty)
	}
	pid, err := syscall.ForkExec(args[0], args[1:], &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   attr,
	})
	if err != nil {
		fmt.Fprintf(report, "err %v\n", err)
		return 127
	}
	fmt.Fprintf(report, "pid %d\n", pid)
	_ = report.Close()
	releaseStdio() // the agent's pipes end with the agent's tree, not with the shim
	st := &shimState{agent: pid, quiet: tty}
	ctl := make(chan byte, 1)
	go func() {
		b := make([]byte, 1)
		if n, _ := control.Read(b); n == 0 {
			b[0] = 0 // the end: the host is gone
		}
		ctl <- b[0]
	}()
	now := false
wait:
	for {
		select {
		case s := <-sigs:
			switch s {
			case syscall.SIGCHLD:
				if st.reap(); st.reaped {
					break wait
				}
			case syscall.SIGPIPE:
			default:
				break wait // asked to stop: as when the host is gone
			}
		case c := <-ctl:
			now = c == shimKill
			break wait
		}
	}
	st.stopAll(now)
	return st.exit()
}

// releaseStdio points the shim's stdin and stdout at /dev/null: only the
// agent (and what it starts) holds its pipes. Stderr stays, for the
// shim's own last words.
func releaseStdio() {
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	_ = syscall.Dup3(null, 0, 0)
	_ = syscall.Dup3(null, 1, 0)
	_ = syscall.Close(null)
}

// reap reaps every child that ended (the agent, and orphans that
// reparented to the shim) and notes the agent's status.
func (s *shimState) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if pid <= 0 || err != nil {
			return
		}
		if pid == s.agent {
			s.status, s.reaped = ws, true
		}
	}
}

// stopAll stops every process below the shim: SIGTERM, then SIGKILL for
// what is left after shimTermWait (at once when now), reaping them. A
// process that forks while it is stopped is found on the next pass: its
// children are below the shim too.
func (s *shimState) stopAll(now bool) {
	sig := syscall.SIGTERM
	if now {
		sig = syscall.SIGKILL
	}
	if !s.reaped { // (its pid, and so its group id, is not reused until reaped)
		_ = syscall.Kill(-s.agent, sig)
	}
	stopped := map[int]bool{}
	deadline := time.Now().Add(shimTermWait)
	for {
		s.reap()
		ds := proctab.Descendants(os.Getpid())
		if len(ds) == 0 {
			break
		}
		if sig == syscall.SIGTERM && time.Now().After(deadline) {
			sig, deadline = syscall.SIGKILL, time.Now().Add(shimKillWait)
		} else if time.Now().After(deadline) {
			break // (unkillable: left to the next subreaper)
		}
		for _, pid := range ds {
			_ = syscall.Kill(pid, sig)
			if sig == syscall.SIGTERM {
				_ = syscall.Kill(pid, syscall.SIGCONT) // a stopped process hears it
			}
			if pid != s.agent {
				stopped[pid] = true
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The agent's status, once it is a zombie (a dying process is left
	// out of descendants before its parent can reap it).
	for end := time.Now().Add(shimTermWait); ; time.Sleep(5 * time.Millisecond) {
		if s.reap(); s.reaped || time.Now().After(end) {
			break
		}
	}
	if len(stopped) > 0 && !s.quiet {
		fmt.Fprintf(os.Stderr, "ahptui: stopped the processes the agent left behind: %d\n", len(stopped))
	}
}

// exit ends the shim as the agent ended: its exit code, or the signal
// that killed it, raised on the shim (128+signal if that fails).
func (s *shimState) exit() int {
	if !s.reaped {
		return 128 + int(syscall.SIGKILL)
	}
	if !s.status.Signaled() {
		return s.status.ExitStatus()
	}
	sig := s.status.Signal()
	signal.Reset(sig)
	dieBy(sig)
	time.Sleep(time.Second) // (the signal ends the shim first)
	return 128 + int(sig)
}

// dieBy kills the shim with sig under the system's default action (not
// the Go runtime's handler, which turns a SIGSEGV or SIGQUIT into its own
// crash report and exit code 2), without a core file of the shim.
func dieBy(sig syscall.Signal) {
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	// struct sigaction all zero: SIG_DFL, no flags, an empty mask (the
	// layouts of amd64 and arm64 alike).
	var sa [4]uint64
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&sa)), 0, 8, 0, 0)
	_ = syscall.Kill(os.Getpid(), sig)
}

// underTermShim is underShim for a terminal's command, which pty then
// starts: the shim becomes the pty's session leader (pty sets Setsid and
// Setctty; a session leader cannot also change its group).
func underTermShim(cmd *exec.Cmd, shim string) (*agentShim, error) {
	s, err := underShim(cmd, shim)
	if s != nil {
		cmd.Args[0] = shimTermArg0
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	return s, err
}

// underShim turns cmd, built to start the agent, into the start of the
// shim (the executable shim) that starts it; nil when there is no shim,
// or the agent's executable was not found (cmd.Start says so).
func underShim(cmd *exec.Cmd, shim string) (*agentShim, error) {
	if shim == "" || cmd.Err != nil {
		return nil, nil
	}
	cr, cw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("shim control pipe: %w", err)
	}
	rr, rw, err := os.Pipe()
	if err != nil {
		_, _ = cr.Close(), cw.Close()
		return nil, fmt.Errorf("shim report pipe: %w", err)
	}
	cmd.Args = append([]string{ShimArg0, cmd.Path}, cmd.Args...)
	cmd.Path = shim
	cmd.ExtraFiles = []*os.File{cr, rw} // shimControlFd, shimReportFd
	// A session of its own, away from the terminal the host may run in
	// (its job control stopped the agent's whole group when one process
	// touched it: proc_unix.go); no parent-death signal: the end of the
	// control pipe tells it, and it cleans up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return &agentShim{control: cw, report: rr, ends: []*os.File{cr, rw}}, nil
}
