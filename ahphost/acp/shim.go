package acp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The agent shim (issue 32). An agent that starts a daemon (`setsid cmd &`
// in its shell) puts it out of the agent's process group and session:
// neither the group kill nor the parent-death signal reaches it, and when
// the host is killed with SIGKILL it lives on under init. Where the
// system allows (Linux), the host therefore starts each agent through a
// shim: this program re-executed with ShimArg0 as its argv[0], handled by
// RunShim before anything else in main. The shim is the child subreaper
// of the agent (every orphan of the agent's tree reparents to it), starts
// the agent with the stdio it was given (the bytes never pass through
// it), and when the agent exits, the host asks, or the host dies (the
// control pipe it holds reaches its end, whatever killed the host), it
// stops every process below it, reaps them and exits with the agent's
// status.

// ShimArg0 is the argv[0] that makes this program the agent shim;
// shimTermArg0 makes it the shim of a terminal's command (a pty's session
// leader that puts the command in the terminal's foreground).
const (
	ShimArg0     = "ahptui-agent-shim"
	shimTermArg0 = "ahptui-terminal-shim"
)

// The shim's file descriptors beside the agent's stdio: the host keeps
// the write end of the control pipe (shimKill asks for the end; its end
// of file says the host is gone) and reads the report pipe (the agent's
// pid, or why it could not start).
const (
	shimControlFd = 3
	shimReportFd  = 4
	shimKill      = 'k'
)

// RunShim runs the agent shim when argv (os.Args) asks for it and returns
// its exit code and true; otherwise it returns false at once. main calls
// it before anything else; a host whose Config.Shim names this program
// relies on it.
func RunShim(argv []string) (code int, ok bool) {
	if len(argv) == 0 || argv[0] != ShimArg0 && argv[0] != shimTermArg0 {
		return 0, false
	}
	return runShim(argv[1:], argv[0] == shimTermArg0), true
}

// agentShim is the host's side of one agent started under the shim.
type agentShim struct {
	control *os.File // the write end of the shim's control pipe
	report  *os.File // the read end of its report pipe
	ends    []*os.File
	once    sync.Once
}

// started releases the shim's ends of the pipes (once the shim started)
// and reads the shim's report, waiting at most wait: the agent's pid, or
// why it could not start.
func (s *agentShim) started(wait time.Duration) (int, error) {
	for _, f := range s.ends {
		_ = f.Close()
	}
	defer s.report.Close()
	_ = s.report.SetReadDeadline(time.Now().Add(wait))
	line, err := bufio.NewReaderSize(io.LimitReader(s.report, 4096), 4096).ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("the agent shim did not report: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	if msg, ok := strings.CutPrefix(line, "err "); ok {
		return 0, errors.New(msg)
	}
	pid, err := strconv.Atoi(strings.TrimPrefix(line, "pid "))
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("the agent shim reported %q", line)
	}
	return pid, nil
}

// kill has the shim kill the agent and everything below it at once.
func (s *agentShim) kill() {
	s.once.Do(func() {
		_, _ = s.control.Write([]byte{shimKill})
		_ = s.control.Close()
	})
}

// release lets go of the control pipe once the shim has exited.
func (s *agentShim) release() {
	s.once.Do(func() { _ = s.control.Close() })
}

// abandon closes every pipe of a shim that did not start.
func (s *agentShim) abandon() {
	for _, f := range append(s.ends, s.report) {
		_ = f.Close()
	}
	s.release()
}
