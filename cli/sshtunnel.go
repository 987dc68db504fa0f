package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Tunnel timing.
const (
	tunnelReadyTimeout = 20 * time.Second
	tunnelBackoffMin   = 250 * time.Millisecond
	tunnelBackoffMax   = 8 * time.Second
	tunnelStableAfter  = 30 * time.Second
)

// tunnel is an `ssh -N -L 127.0.0.1:LOCAL:TARGET` process that is restarted,
// with backoff and on the same local port, whenever it ends before Close:
// the client's own reconnect then resumes through it.
type tunnel struct {
	ssh    string
	args   []string // everything but the program
	local  string   // 127.0.0.1:PORT
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	cmd      *exec.Cmd
	restarts int
}

// startTunnel forwards a free local port to target (host:port or a Unix
// socket path on the remote machine) through ssh, waits until the local end
// accepts connections, and keeps it up until Close.
func startTunnel(sshBin string, base []string, dest, target string, log *slog.Logger) (*tunnel, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	local := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	args := append(append([]string(nil), base...), "-N", "-o", "ExitOnForwardFailure=yes",
		"-L", local+":"+target, "--", dest)
	ctx, cancel := context.WithCancel(context.Background())
	t := &tunnel{ssh: sshBin, args: args, local: local, log: log, ctx: ctx, cancel: cancel, done: make(chan struct{})}
	cmd, exited, stderr, err := t.spawn()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := waitListening(local, exited, stderr); err != nil {
		_ = cmd.Process.Kill()
		<-exited
		cancel()
		return nil, err
	}
	go t.supervise(exited)
	return t, nil
}

// spawn starts one ssh process; exited is closed when it ends.
func (t *tunnel) spawn() (*exec.Cmd, chan struct{}, *syncBuf, error) {
	cmd := exec.Command(t.ssh, t.args...)
	stderr := &syncBuf{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, fmt.Errorf("start ssh: %w", err)
	}
	t.mu.Lock()
	t.cmd = cmd
	t.mu.Unlock()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	return cmd, exited, stderr, nil
}

// supervise restarts the tunnel when ssh ends, until Close.
func (t *tunnel) supervise(exited chan struct{}) {
	defer close(t.done)
	backoff := tunnelBackoffMin
	up := time.Now()
	for {
		select {
		case <-t.ctx.Done():
			t.kill()
			<-exited
			return
		case <-exited:
		}
		if time.Since(up) > tunnelStableAfter {
			backoff = tunnelBackoffMin
		}
		t.log.Warn("ssh tunnel ended; restarting", "in", backoff)
		select {
		case <-t.ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, tunnelBackoffMax)
		var err error
		var stderr *syncBuf
		if _, exited, stderr, err = t.spawn(); err != nil {
			t.log.Error("ssh tunnel restart failed", "err", err)
			exited = make(chan struct{})
			close(exited)
			continue
		}
		if err := waitListening(t.local, exited, stderr); err != nil {
			t.log.Warn("ssh tunnel not up yet", "err", err)
			continue
		}
		t.mu.Lock()
		t.restarts++
		t.mu.Unlock()
		up = time.Now()
		t.log.Info("ssh tunnel restored", "local", t.local)
	}
}

// kill ends the current ssh process.
func (t *tunnel) kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cmd != nil && t.cmd.Process != nil {
		_ = t.cmd.Process.Kill()
	}
}

// Restarts reports how often the tunnel was restored.
func (t *tunnel) Restarts() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.restarts
}

// Close stops the tunnel for good.
func (t *tunnel) Close() {
	t.cancel()
	<-t.done
}

// waitListening polls addr until it accepts a connection, ssh exits (an
// error carrying ssh's last words) or the timeout passes.
func waitListening(addr string, exited chan struct{}, stderr *syncBuf) error {
	deadline := time.Now().Add(tunnelReadyTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return sshError("ssh ended before the tunnel was up", stderr.String())
		default:
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			_ = c.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("the ssh tunnel did not come up within " + tunnelReadyTimeout.String())
}

// sshError builds an error from ssh's stderr (its last lines, masked).
func sshError(what, stderr string) error {
	lines := bytes.Split(bytes.TrimSpace([]byte(stderr)), []byte("\n"))
	if n := len(lines); n > 3 {
		lines = lines[n-3:]
	}
	msg := string(bytes.Join(lines, []byte("; ")))
	if msg == "" {
		return errors.New(what)
	}
	return fmt.Errorf("%s: %s", what, sanitizeLine(msg))
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free local port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// syncBuf is a goroutine-safe bounded buffer for a child's stderr.
type syncBuf struct {
	mu sync.Mutex
	b  []byte
}

// Write keeps the last 8 KiB.
func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	if len(s.b) > 8<<10 {
		s.b = s.b[len(s.b)-8<<10:]
	}
	return len(p), nil
}

// String returns the buffer.
func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}
