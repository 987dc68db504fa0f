//go:build linux

package cli

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"golang.org/x/sys/unix"
)

// TestServeKillsSetsidOrphans: an agent whose child leaves its process
// group and session (`setsid sleep 1000 &`) does not leave that child
// running once a real `ahptui serve` got SIGTERM, and serve's exit stays
// bounded: the agent's shim (ahphost/acp/shim.go) is the child subreaper,
// the orphan reparents to it, and when the shutdown stops the agent the
// shim kills and reaps it (issue 32: it lived on under init, and serve
// waited minutes for it). An orphan that ends while serve runs is reaped
// then.
func TestServeKillsSetsidOrphans(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ahptui and the fake agent")
	}
	bin := sharedBinary(t)
	dir := t.TempDir()
	fake := sharedFakeACP(t)
	pidFile := filepath.Join(dir, "orphan.pid")
	zombieFile := filepath.Join(dir, "short.pid") // an orphan that ends while serve runs
	agent := filepath.Join(dir, "agent.sh")
	must(t, os.WriteFile(agent, []byte("#!/bin/sh\n(sleep 0.2 & echo $! > "+zombieFile+")\nsetsid sleep 1000 &\necho $! > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"\nexec "+fake+"\n"), 0o700))

	serve := exec.Command(bin, "serve", "--ephemeral", "--token", "reaper-token-5", "--dir", dir, "--agent", "evil="+agent)
	serve.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "AHPTUI_CONFIG=")
	stderr := &testkit.SyncBuffer{}
	serve.Stderr = stderr
	out, err := serve.StdoutPipe()
	must(t, err)
	must(t, serve.Start())
	exited := make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	t.Cleanup(func() { _ = serve.Process.Kill() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL from serve: %v\n%s", err, stderr.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: strings.TrimSpace(line), StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	must(t, c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: "ahp-session:/orphan", Provider: "evil"}))
	var orphan int
	for orphan == 0 {
		if b, err := os.ReadFile(pidFile); err == nil {
			orphan, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if ctx.Err() != nil {
			t.Fatalf("the agent never started its child\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() { _ = syscall.Kill(orphan, syscall.SIGKILL) })
	for sid, err := unix.Getsid(orphan); sid != orphan; sid, err = unix.Getsid(orphan) {
		if err != nil || ctx.Err() != nil {
			t.Fatalf("the child is not in a session of its own: sid %d, %v", sid, err)
		}
		time.Sleep(10 * time.Millisecond) // setsid has not run yet
	}

	// The short-lived orphan in the agent's group ended under serve: it
	// is reaped at once, not left a zombie until serve exits.
	b, err := os.ReadFile(zombieFile)
	must(t, err)
	short, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(short) + "/stat")
		if err != nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the agent's ended orphan %d is not reaped: %s", short, st)
		}
		time.Sleep(20 * time.Millisecond)
	}

	must(t, serve.Process.Signal(syscall.SIGTERM))
	select {
	case <-exited:
	case <-time.After(testTimeout):
		t.Fatalf("serve did not exit after SIGTERM\n%s", stderr.String())
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(orphan, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the agent's setsid child %d outlived serve\n%s", orphan, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "stopped the processes the agent left behind: 1") {
		t.Fatalf("serve did not say it killed the orphan:\n%s", stderr.String())
	}
}
