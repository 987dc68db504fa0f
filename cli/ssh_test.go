//go:build !windows

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
)

// testSSHD is an unprivileged sshd on 127.0.0.1 with a generated host key
// and one authorized test key, and an ssh wrapper ($AHPTUI_SSH) whose
// config (host alias "sshtest") trusts only that host key.
type testSSHD struct {
	dir, wrapper, remoteState, remoteData string
	port                                  int
	pid                                   int // the listening sshd
}

func startSSHD(t *testing.T) *testSSHD {
	t.Helper()
	sshd := "/usr/sbin/sshd"
	if p, err := exec.LookPath("sshd"); err == nil {
		sshd = p
	}
	if _, err := os.Stat(sshd); err != nil {
		t.Skip("sshd not installed (.ci/run installs openssh-server)")
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("ssh not installed")
	}
	s := &testSSHD{dir: t.TempDir()}
	s.remoteState = filepath.Join(s.dir, "remote-state")
	s.remoteData = filepath.Join(s.dir, "remote-data") // where ahptui ssh installs ahptui
	for _, k := range []string{"hostkey", "id"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(s.dir, k)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v %s", err, out)
		}
	}
	pub, err := os.ReadFile(filepath.Join(s.dir, "id.pub"))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(s.dir, "authorized_keys"), pub, 0o600))
	// The port is free when chosen but may be taken before sshd binds it
	// (the SSH tests run in parallel): sshd then exits, and another port is
	// tried. Only this sshd's own "listening" line counts as started.
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		must(t, err)
		if s.startOn(t, sshd, port) {
			break
		}
		if attempt == 3 {
			t.Fatal("sshd did not start on any of 3 ports")
		}
	}
	hostPub, err := os.ReadFile(filepath.Join(s.dir, "hostkey.pub"))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(s.dir, "known_hosts"), []byte(fmt.Sprintf("[127.0.0.1]:%d %s", s.port, hostPub)), 0o600))
	must(t, os.WriteFile(filepath.Join(s.dir, "empty_known_hosts"), nil, 0o600))
	s.wrapper = s.writeWrapper(t, "ssh", "known_hosts")
	t.Cleanup(func() { stopDetachedHost(t, filepath.Join(s.remoteState, "ahptui", serveStateName)) })
	return s
}

// processAlive reports whether pid runs (a zombie does not).
func processAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// stopDetachedHost ends the host a test started with `ahptui ssh` (it
// outlives the link by design): the process its state file names, by pid.
func stopDetachedHost(t *testing.T, state string) {
	b, err := os.ReadFile(state)
	if err != nil {
		return
	}
	var st serveState
	if json.Unmarshal(b, &st) != nil || st.PID <= 0 {
		return
	}
	p, err := os.FindProcess(st.PID)
	if err != nil || p.Signal(syscall.SIGTERM) != nil {
		return
	}
	deadline := time.Now().Add(testTimeout)
	for processAlive(st.PID) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if processAlive(st.PID) {
		_ = p.Kill()
		t.Errorf("the detached host (pid %d) did not stop on SIGTERM", st.PID)
	}
}

// startOn starts the sshd on port and reports whether it listens there
// (false: it exited, the port was taken meanwhile).
func (s *testSSHD) startOn(t *testing.T, sshd string, port int) bool {
	t.Helper()
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s/hostkey
PidFile %s/sshd.pid
AuthorizedKeysFile %s/authorized_keys .ssh/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowTcpForwarding yes
AllowStreamLocalForwarding yes
AcceptEnv XDG_STATE_HOME XDG_DATA_HOME
`, port, s.dir, s.dir, s.dir)
	must(t, os.WriteFile(filepath.Join(s.dir, "sshd_config"), []byte(cfg), 0o600))
	if os.Geteuid() == 0 {
		_ = os.MkdirAll("/run/sshd", 0o755) // sshd's privilege separation directory
	}
	cmd := exec.Command(sshd, "-D", "-e", "-f", filepath.Join(s.dir, "sshd_config"))
	var logb syncBuffer
	cmd.Stdout, cmd.Stderr = &logb, &logb
	must(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	listening := fmt.Sprintf("Server listening on 127.0.0.1 port %d", port)
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(logb.String(), listening) {
		select {
		case <-exited:
			t.Logf("sshd on port %d exited: %s", port, logb.String())
			return false
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			t.Fatalf("sshd did not start: %s", logb.String())
		}
	}
	s.port, s.pid = port, cmd.Process.Pid
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("sshd log:\n%s", logb.String())
		}
	})
	return true
}

// writeWrapper writes an ssh wrapper using a config that trusts knownHosts.
func (s *testSSHD) writeWrapper(t *testing.T, name, knownHosts string) string {
	u, err := user.Current()
	must(t, err)
	return s.writeWrapperAs(t, name, u.Username, knownHosts,
		fmt.Sprintf("  SetEnv XDG_STATE_HOME=%s XDG_DATA_HOME=%s\n", s.remoteState, s.remoteData))
}

// writeWrapperAs writes an ssh wrapper that logs in as login (host alias
// sshtest), with extra ssh_config lines.
func (s *testSSHD) writeWrapperAs(t *testing.T, name, login, knownHosts, extra string) string {
	conf := fmt.Sprintf(`Host sshtest
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s/id
  IdentitiesOnly yes
  UserKnownHostsFile %s/%s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  LogLevel ERROR
`, s.port, login, s.dir, s.dir, knownHosts) + extra
	cf := filepath.Join(s.dir, name+"_config")
	must(t, os.WriteFile(cf, []byte(conf), 0o600))
	w := filepath.Join(s.dir, name)
	must(t, os.WriteFile(w, []byte("#!/bin/sh\nexec ssh -F "+cf+" \"$@\"\n"), 0o755))
	return w
}

// waitStateFile waits for the "remote" serve's state file and checks its
// mode; a serve that exits first (exited closed) fails the test with log.
func (s *testSSHD) waitStateFile(t *testing.T, exited <-chan struct{}, log *syncBuffer) {
	t.Helper()
	state := filepath.Join(s.remoteState, "ahptui", serveStateName)
	deadline := time.Now().Add(testTimeout)
	for {
		if st, err := os.Stat(state); err == nil {
			if st.Mode().Perm() != 0o600 {
				t.Fatalf("state file mode %v, want 0600", st.Mode().Perm())
			}
			return
		}
		select {
		case <-exited: // (nil: never)
			t.Fatalf("serve exited: %s", log.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("serve wrote no state file")
		}
	}
}

// startRemoteServeLocally runs `ahptui serve` in this process with the
// "remote" state directory, as an ahptui serve running on the SSH host.
func (s *testSSHD) serve(t *testing.T) (stop func()) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", s.remoteState)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- serveMain(ctx, []string{"--dir", t.TempDir(), "--pace", "0"}, &syncBuffer{}, &syncBuffer{})
	}()
	s.waitStateFile(t, nil, nil)
	state := filepath.Join(s.remoteState, "ahptui", serveStateName)
	stopped := false
	return func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		<-done
		if _, err := os.Stat(state); err == nil {
			t.Error("serve left its state file behind")
		}
	}
}

// setSSHConfig points the CLI at the wrapper and a config with host "box".
func (s *testSSHD) setConfig(t *testing.T, extra string) {
	t.Helper()
	cdir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cdir)
	t.Setenv("AHPTUI_CONFIG", "")
	t.Setenv("AHPTUI_TOKEN", "")
	t.Setenv("AHPTUI_SSH", s.wrapper)
	writeConfig(t, "[hosts.box]\nssh = \"sshtest\"\n"+extra)
}

// TestSSHEndToEnd drives `ahptui` over a real sshd: discovery of a running
// `ahptui serve` through its state file, forwarding, a turn, an SSH drop
// and the recovery, then the error paths.
func TestSSHEndToEnd(t *testing.T) {
	s := startSSHD(t)
	stopServe := s.serve(t)
	defer stopServe()
	s.setConfig(t, "")

	// exec @box: discovery, tunnel, one turn; the token never shows.
	tok := readServeToken(t, s)
	code, out, errs := runIn(t, "", "exec", "@box", "hello over ssh")
	if code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("exec @box: %d %q %q", code, out, errs)
	}
	if strings.Contains(out+errs, tok) {
		t.Fatal("token in output")
	}
	id := regexp.MustCompile(`ahptui: session (\S+)`).FindStringSubmatch(errs)[1]
	if code, out, errs := runIn(t, "", "sessions", "@box"); code != exitOK || !strings.Contains(out, id) {
		t.Fatalf("sessions @box: %d %q %q", code, out, errs)
	}
	if code, out, errs := runIn(t, "", "export", "@box", id); code != exitOK || !strings.Contains(out, "hello over ssh") {
		t.Fatalf("export @box: %d %q %q", code, out, errs)
	}

	// The drop: kill the tunnel's ssh; it is restarted with backoff and
	// the client reconnects through it; a second turn completes.
	cfg, err := parseArgs([]string{"exec", "@box"}, lookupEnv)
	must(t, err)
	var stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	h, code := connectHeadless(ctx, cfg, stdio{err: &stderr}, "box", "")
	if h == nil {
		t.Fatalf("connect @box: %d %s", code, stderr.String())
	}
	defer h.close()
	var tout bytes.Buffer
	r := &turnRun{h: h, o: execOpts{approve: "never", prompt: "first"}, std: stdio{err: &stderr},
		out: newEventWriter(&tout, true), caught: func() os.Signal { return nil }}
	if code := r.run(ctx); code != execCompleted {
		t.Fatalf("turn 1: %d %s", code, stderr.String())
	}
	session := strings.TrimPrefix(strings.SplitN(strings.SplitN(tout.String(), `"session":"`, 2)[1], `"`, 2)[0], "ahp-session:/")
	h.link.tun.kill()
	deadline := time.Now().Add(30 * time.Second)
	for h.link.tun.Restarts() < 1 || h.c.State().Phase != ahpclient.Connected {
		if time.Now().After(deadline) {
			t.Fatalf("no recovery: restarts %d, state %v", h.link.tun.Restarts(), h.c.State())
		}
		drain(h)
		time.Sleep(20 * time.Millisecond)
	}
	tout.Reset()
	r2 := &turnRun{h: h, o: execOpts{approve: "never", prompt: "second", session: session}, std: stdio{err: &stderr},
		out: newEventWriter(&tout, true), caught: func() os.Signal { return nil }}
	if code := r2.run(ctx); code != execCompleted {
		t.Fatalf("turn 2 after the drop: %d %s", code, stderr.String())
	}
	if n := strings.Count(tout.String(), `"type":"turn_end"`); n != 1 {
		t.Fatalf("%d turn ends after the drop, want 1:\n%s", n, tout.String())
	}

	// Error paths: no ssh, a refused host key, nothing found remotely.
	t.Setenv("AHPTUI_SSH", filepath.Join(s.dir, "no-such-ssh"))
	if code, _, errs := runIn(t, "", "exec", "@box", "x"); code != exitConnect || !strings.Contains(errs, "ssh is not installed") {
		t.Fatalf("no ssh: %d %q", code, errs)
	}
	t.Setenv("AHPTUI_SSH", s.writeWrapper(t, "ssh-strict", "empty_known_hosts"))
	if code, _, errs := runIn(t, "", "exec", "@box", "x"); code != exitConnect || !strings.Contains(errs, "Host key verification failed") {
		t.Fatalf("refused host key: %d %q", code, errs)
	}
	t.Setenv("AHPTUI_SSH", s.wrapper)
	stopServe()
	writeConfig(t, "[hosts.box]\nssh = \"sshtest\"\nstart = false\n")
	if code, _, errs := runIn(t, "", "exec", "@box", "x"); code != exitConnect || !strings.Contains(errs, "no AHP host found on sshtest") {
		t.Fatalf("nothing found: %d %q", code, errs)
	}
}

// TestSSHStart: with start = true, `ahptui serve` is started on the SSH
// host for the lifetime of the connection and its URL read from its
// first line.
func TestSSHStart(t *testing.T) {
	t.Parallel() // its own sshd, port and directories; ahptui runs as a child (sshpar_test.go)
	s := startSSHD(t)
	bin := sharedBinary(t) // sharedbin_test.go
	code, out, errs := s.runBin(t, bin, "start = true\nremote_bin = \""+bin+"\"\n", nil, "exec", "@box", "hello, started host")
	if code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("exec with --start: %d %q %q", code, out, errs)
	}
}

func readServeToken(t *testing.T, s *testSSHD) string {
	b, err := os.ReadFile(filepath.Join(s.remoteState, "ahptui", serveStateName))
	must(t, err)
	i := strings.Index(string(b), `"token":"`)
	if i < 0 {
		t.Fatalf("no token in the state file")
	}
	return strings.SplitN(string(b)[i+len(`"token":"`):], `"`, 2)[0]
}

// drain applies queued events without blocking.
func drain(h *headless) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	for {
		if _, _, err := h.d.next(ctx); err != nil {
			return
		}
	}
}

// TestSSHCommandAttachesUI: `ahptui ssh sshtest` in a real terminal finds
// the remote serve, shows the UI connected through the tunnel and quits
// cleanly.
func TestSSHCommandAttachesUI(t *testing.T) {
	t.Parallel() // its own sshd, port, tmux server and directories (sshpar_test.go)
	s := startSSHD(t)
	bin := sharedBinary(t)
	s.serveBin(t, bin)
	p := startPane(t, []string{"AHPTUI_SSH=" + s.wrapper},
		fmt.Sprintf(`bash -c '%q ssh sshtest; echo EXIT=$?; echo MODES: $(stty -a | tr "\n" " ")'`, bin))
	p.waitFor(`Connected`)
	p.tmux("send-keys", "-t", "e2e", "C-c")
	checkRestored(t, p.waitFor(`MODES:.*\S`), exitOK)
}

// TestSSHPortAndSocket: a host named by port or by Unix socket (as the VS
// Code agent host listens) is forwarded to; the token comes from the config.
func TestSSHPortAndSocket(t *testing.T) {
	t.Parallel() // its own sshd, port and directories; ahptui runs as a child (sshpar_test.go)
	s := startSSHD(t)
	bin := sharedBinary(t)
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: execToken})
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	u, err := h.Listen("127.0.0.1:0")
	must(t, err)
	_, port, err := net.SplitHostPort(hostOfURL(u))
	must(t, err)
	env := []string{"BOX_TOKEN=" + execToken}
	if code, out, errs := s.runBin(t, bin, "port = "+port+"\ntoken_env = \"BOX_TOKEN\"\n", env, "exec", "@box", "over a forwarded port"); code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("port: %d %q %q", code, out, errs)
	}

	h2, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: execToken})
	must(t, err)
	sock := filepath.Join(s.dir, "agent.sock")
	ln, err := net.Listen("unix", sock)
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h2.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-served })
	if code, out, errs := s.runBin(t, bin, "socket = \""+sock+"\"\ntoken_env = \"BOX_TOKEN\"\n", env, "exec", "@box", "over a forwarded socket"); code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("socket: %d %q %q", code, out, errs)
	}
}
