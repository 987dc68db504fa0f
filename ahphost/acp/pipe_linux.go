package acp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// agentStdout is the pipe an agent writes its stdout to, on Linux. Its
// read end is blocking and outside the Go runtime's poller: a polled pipe
// wakes a thread for every line the agent writes, also while the reader
// naps to let a window's chunks gather (reader.go), which cost more than
// handling the lines. A blocking read cannot be interrupted, so the
// bridge keeps the write end too: stop, once the agent was reaped, ends
// the reading when the pipe is empty (a child of the agent may still hold
// the pipe open, as it may hold a terminal).
type agentStdout struct {
	r, w  *os.File
	rc    syscall.RawConn
	ended atomic.Bool
}

// agentStdoutPipe makes cmd's stdout a pipe and returns its reader and
// what ends the reading after the process was reaped.
func agentStdoutPipe(cmd *exec.Cmd) (io.Reader, func(), func(), error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, nil, fmt.Errorf("stdout pipe: %w", err)
	}
	p := &agentStdout{r: os.NewFile(uintptr(fds[0]), "agent-stdout"), w: os.NewFile(uintptr(fds[1]), "agent-stdout")}
	rc, err := p.r.SyscallConn()
	if err != nil {
		_, _ = p.r.Close(), p.w.Close()
		return nil, nil, nil, fmt.Errorf("stdout pipe: %w", err)
	}
	p.rc = rc
	cmd.Stdout = p.w
	return p, p.stop, p.close, nil
}

// Read reads the pipe; after stop, once the pipe is empty, it reports
// io.EOF.
func (p *agentStdout) Read(b []byte) (int, error) {
	if p.ended.Load() && p.available() <= 0 {
		return 0, io.EOF
	}
	return p.r.Read(b) //nolint:wrapcheck // the pipe's own error, as io.Reader passes it on
}

// available is how many bytes the pipe holds (a read of that many does
// not wait); -1 when that is unknown.
func (p *agentStdout) available() int {
	n := int32(-1)
	err := p.rc.Control(func(fd uintptr) {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); e != 0 {
			n = -1
		}
	})
	if err != nil {
		return -1
	}
	return int(n)
}

// stop ends the reading once the pipe is empty: the agent was reaped. A
// read waiting on the empty pipe is woken by an empty line (which the
// SDK skips).
func (p *agentStdout) stop() {
	p.ended.Store(true)
	if p.available() == 0 {
		_, _ = p.w.Write([]byte{'\n'})
	}
	_ = p.w.Close()
}

// close releases the read end, once nothing reads it.
func (p *agentStdout) close() { _ = p.r.Close() }
