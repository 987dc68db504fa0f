package acp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// proc is one running agent process and its ACP connection.
type proc struct {
	cmd    *exec.Cmd
	shim   *agentShim // the agent's shim, nil when started directly (shim.go)
	conn   *sdk.ClientSideConnection
	legacy *legacyRPC // session models beside the SDK (models.go)
	// pending counts the agent's requests not answered yet (unanswered.go).
	pending *unanswered
	init    sdk.InitializeResponse
	stderr  *tail
	mask    func(string) string // hides sign-in secrets in stderr lines
	// exited is closed once the process was reaped; err is its exit error.
	exited chan struct{}
	err    error
	// dead is closed when a write to the agent's stdin failed: it is
	// treated as gone (and killed) though a child may hold its pipes.
	dead     chan struct{}
	deadOnce sync.Once
	// stopped says why the host stopped the agent ("" = it did not).
	stopped atomic.Pointer[string]
}

// stdinDied marks the process dead after a failed write to its stdin and
// kills its group; the next turn starts a new one.
func (p *proc) stdinDied(err error) {
	p.deadOnce.Do(func() {
		close(p.dead)
		p.kill()
	})
}

// alive reports whether the process still runs and its connection is open.
func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	case <-p.conn.Done():
		return false
	case <-p.dead:
		return false
	default:
		return true
	}
}

// kill kills the process group (no-op once reaped).
func (p *proc) kill() {
	select {
	case <-p.exited:
	default:
		if p.shim != nil {
			p.shim.kill() // (the agent and all below it)
			return
		}
		killGroup(p.cmd)
	}
}

// exitReport describes why the process ended, with its last stderr lines.
func (p *proc) exitReport() string {
	var b strings.Builder
	select {
	case <-p.exited:
		if why := p.stopped.Load(); why != nil {
			b.WriteString(*why)
		} else if p.err != nil {
			fmt.Fprintf(&b, "the agent exited (%v)", p.err)
		} else {
			b.WriteString("the agent exited")
		}
	default:
		b.WriteString("the agent closed its connection")
	}
	if lines := p.stderr.lines(); len(lines) > 0 {
		for i, l := range lines {
			lines[i] = p.mask(l)
		}
		b.WriteString("; its last output:\n")
		b.WriteString(strings.Join(lines, "\n"))
	}
	return b.String()
}

// getProc returns the running process, starting one when there is none
// (or it died). Only one start runs at a time.
func (b *Bridge) getProc(ctx context.Context) (*proc, error) {
	for {
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			return nil, errClosed
		}
		if b.proc != nil && b.proc.alive() {
			p := b.proc
			b.mu.Unlock()
			return p, nil
		}
		if wait := b.starting; wait != nil {
			b.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if old := b.proc; old != nil {
			old.kill()
			b.forgetSessionsLocked()
		}
		b.proc = nil
		done := make(chan struct{})
		b.starting = done
		b.mu.Unlock()
		p, err := b.start(ctx)
		b.mu.Lock()
		b.starting = nil
		close(done)
		if err == nil && b.closed {
			p.kill()
			err = errClosed
		}
		if err == nil {
			b.proc = p
			b.methods = p.init.AuthMethods
		}
		b.mu.Unlock()
		return p, err
	}
}

// forgetSessionsLocked marks every session's ACP id stale after the
// process died. b.mu is held.
func (b *Bridge) forgetSessionsLocked() {
	for id, s := range b.byACP {
		delete(b.byACP, id)
		s.stale = true
	}
}

// start starts the agent and runs initialize under the request deadline.
func (b *Bridge) start(ctx context.Context) (*proc, error) {
	cmd := exec.Command(b.cfg.Command, b.cfg.Args...)
	cmd.Dir = b.cfg.Dir
	cmd.Env = append(append(os.Environ(), b.cfg.Env...), b.auth.environ()...)
	setGroup(cmd)
	// The bridge owns the stdin pipe too: its writes have a deadline
	// (stdinWriter), which exec's pipe does not offer.
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("acp: %s: stdin: %w", b.cfg.Name, err)
	}
	cmd.Stdin = stdinR
	stdout, stopStdout, closeStdout, err := agentStdoutPipe(cmd) // pipe_linux.go
	if err != nil {
		_, _ = stdinR.Close(), stdin.Close()
		return nil, fmt.Errorf("acp: %s: %w", b.cfg.Name, err)
	}
	// The bridge owns the stderr pipe (not exec's): the process is reaped
	// when it exits, though a child of it may hold the pipe for days.
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		_, _ = stdinR.Close(), stdin.Close()
		stopStdout()
		closeStdout()
		return nil, fmt.Errorf("acp: %s: stderr: %w", b.cfg.Name, err)
	}
	cmd.Stderr = stderrW
	shim, err := underShim(cmd, b.cfg.Shim) // shim_linux.go
	if err == nil {
		err = cmd.Start()
	}
	_, _ = stderrW.Close(), stdinR.Close()
	pid := 0
	if err == nil {
		pid = cmd.Process.Pid
		if shim != nil {
			if pid, err = shim.started(b.cfg.RequestTimeout); err != nil {
				_ = cmd.Process.Kill() // (it started no agent)
				_ = cmd.Wait()
			}
		}
	}
	if err != nil {
		_, _ = stderr.Close(), stdin.Close()
		stopStdout()
		closeStdout()
		if shim != nil {
			shim.abandon()
		}
		return nil, fmt.Errorf("cannot start the agent %q (%s): %w", b.cfg.Name, b.cfg.Command, err)
	}
	b.log.Info("agent started", "pid", pid, "command", b.cfg.Command, "shim", shim != nil)
	disarm := func() {}
	if shim != nil {
		disarm = shim.release // (the shim stops what the agent leaves)
	} else if d, gerr := guardGroup(pid); gerr != nil { // proc_unix.go
		b.log.Warn("cannot guard the agent's process group; its children may outlive a killed host", "err", gerr)
	} else {
		disarm = d
	}
	p := &proc{cmd: cmd, shim: shim, stderr: newTail(stderrLines), exited: make(chan struct{}), dead: make(chan struct{}), mask: b.auth.mask}
	pumped := make(chan struct{})
	b.wg.Add(2)
	go func() {
		defer b.wg.Done()
		defer close(pumped)
		defer stderr.Close()
		b.pumpStderr(stderr, p.stderr)
	}()
	go func() {
		defer b.wg.Done()
		p.err = cmd.Wait()
		// What the agent left in its group (`cmd &`) goes with it: nothing
		// would ever reap or stop it (the pgid is not reused while any
		// member lives). A shim did that itself, and its group, which was
		// only itself, is free for reuse once it was reaped.
		if shim == nil {
			killGroup(cmd)
		}
		disarm()
		_ = stdin.Close() // (as exec's own pipe was closed by Wait)
		// What the agent wrote before it exited is read; a child holding
		// the pipe does not keep the pump (nor the reaping) waiting.
		_ = stderr.SetReadDeadline(time.Now().Add(stderrGrace))
		<-pumped
		stopStdout() // the SDK reads what is left, then the end
		b.log.Info("agent exited", "pid", pid, "err", p.err)
		close(p.exited)
	}()
	// The SDK starts reading at once but sets its logger unsynchronised:
	// hold its first read until the logger is in place (a data race when
	// the agent exits at once otherwise).
	gate := make(chan struct{})
	p.pending = newUnanswered(b.log, p.dead, p.exited, b.ctx.Done())
	p.conn, p.legacy = b.connect(stdinWriter{stdin, p, b.log, b.cfg.StdinTimeout}, stdout, gate, p.pending)
	go func() { // the SDK reads no more
		<-p.conn.Done()
		closeStdout()
	}()
	p.conn.SetLogger(b.sdkLogger())
	close(gate)
	ictx, cancel := context.WithTimeout(ctx, b.cfg.RequestTimeout)
	defer cancel()
	res, err := p.conn.Initialize(ictx, sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{
			Fs:          sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal:    terminalsSupported,
			Elicitation: elicitationCapabilities, // elicit.go
			Meta:        airCapabilities,         // failures.go
		},
		ClientInfo: &sdk.Implementation{Name: "ahptui", Version: "1"},
	})
	if err != nil {
		p.kill()
		<-p.exited
		if errors.Is(ictx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("the agent %q did not answer initialize within %v; %s", b.cfg.Name, b.cfg.RequestTimeout, p.exitReport())
		}
		return nil, fmt.Errorf("the agent %q failed to initialize: %v; %s", b.cfg.Name, err, p.exitReport())
	}
	p.init = res
	return p, nil
}

// pumpStderr keeps the agent's last stderr lines for crash reports and
// logs them, each bounded, at a bounded rate and up to a bounded total
// (stderrlog.go): an agent writing 70 MB a second to stderr does not fill
// the log nor keep a core busy masking it.
func (b *Bridge) pumpStderr(r io.Reader, t *tail) {
	br := bufio.NewReaderSize(r, 4096)
	lim := newStderrLimiter(time.Now())
	for {
		line, err := readBoundedLine(br, maxStderrLine)
		if line != "" {
			t.add(line) // masked when reported
			b.logStderr(lim, line)
		}
		if err != nil {
			lim.flush(b.log)
			return
		}
	}
}

// maxStderrLine bounds one stderr line kept or logged.
const maxStderrLine = 1024

// stderrGrace is how long the stderr pump reads on after the agent
// exited (a child of it may hold the pipe open).
const stderrGrace = 500 * time.Millisecond

// DefaultStdinTimeout is Config.StdinTimeout's default.
const DefaultStdinTimeout = time.Minute

// stdinWriter is the agent's stdin: a failed write (or one the agent did
// not take within its timeout) means the agent is gone, whoever
// still holds its other pipes.
type stdinWriter struct {
	w       *os.File
	p       *proc
	log     *slog.Logger
	timeout time.Duration // Config.StdinTimeout
}

func (s stdinWriter) Write(b []byte) (int, error) {
	_ = s.w.SetWriteDeadline(time.Now().Add(s.timeout))
	n, err := s.w.Write(b)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			unanswered, _, stalls := s.p.pending.counts()
			s.log.Warn("the agent has not read its input for too long; stopping it", "waited", s.timeout, "unanswered", unanswered)
			why := fmt.Sprintf("the host stopped the agent: it read none of its input for %v", s.timeout)
			if stalls > 0 {
				why += fmt.Sprintf(" while it sent requests without reading the answers (%d were waiting for theirs)", unanswered)
			}
			s.p.stopped.Store(&why)
		}
		s.p.stdinDied(err)
	}
	return n, err //nolint:wrapcheck // the pipe's own error, as io.Writer passes it on
}

// readBoundedLine reads one line, keeping at most limit bytes of it (the
// rest is skipped).
func readBoundedLine(br *bufio.Reader, limit int) (string, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if room := limit - len(b); room > 0 {
			b = append(b, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return strings.TrimRight(string(b), "\r\n"), err
	}
}

// tail keeps the last n lines.
type tail struct {
	mu  sync.Mutex
	buf []string
	n   int
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, line)
	if len(t.buf) > t.n {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.n:]...)
	}
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.buf...)
}

// connect opens the ACP connection over the agent's stdin and stdout,
// read through the bridge's reader (reader.go) once gate is closed; u
// counts the agent's requests not answered yet (nil: a count whose waits
// end only with the bridge).
func (b *Bridge) connect(stdin io.Writer, stdout io.Reader, gate <-chan struct{}, u *unanswered) (*sdk.ClientSideConnection, *legacyRPC) {
	if u == nil {
		u = newUnanswered(b.log, nil, nil, b.ctx.Done())
	}
	c := &client{b: b, legacy: newLegacyRPC(stdin), pending: u}
	return sdk.NewClientSideConnection(gatedClient{c}, answerWriter{c.legacy, u}, gatedReader{newAgentReader(stdout, c), gate}), c.legacy
}

// gatedReader blocks reads until gate is closed.
type gatedReader struct {
	r    io.Reader
	gate <-chan struct{}
}

func (g gatedReader) Read(b []byte) (int, error) {
	<-g.gate
	return g.r.Read(b)
}
