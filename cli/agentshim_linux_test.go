//go:build linux

package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestServeKilledLeavesNoAgentTree: a real `ahptui serve` killed with
// SIGKILL leaves nothing of its agent behind: not the agent, not its
// `setsid` child (a session of its own, out of reach of the group kill
// and of the parent-death signal), not that child's own child. The agent
// runs under the shim (ahphost/acp/shim.go), which learns of the host's
// death from the end of its control pipe and stops the whole tree (issue
// 32: all of them lived on under init). The binary serve runs is removed
// before the agent starts (as an upgrade replaces it): the shim is this
// very program all the same (/proc/self/exe).
func TestServeKilledLeavesNoAgentTree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ahptui and the fake agent")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ahptui")
	b, err := os.ReadFile(sharedBinary(t))
	must(t, err)
	must(t, os.WriteFile(bin, b, 0o700))
	fake := sharedFakeACP(t)
	pids := filepath.Join(dir, "pids")
	// agent: the fake agent (the script execs it); child: `setsid`, then
	// `sleep 1001` in its place; grandchild: the child's `sleep 1002`.
	script := "#!/bin/sh\n" +
		"setsid sh -c 'sleep 1002 & echo grandchild $! >> " + pids + "; exec sleep 1001' &\n" +
		"echo child $! >> " + pids + "\n" +
		"echo agent $$ >> " + pids + "\n" +
		"exec " + fake + "\n"
	agent := filepath.Join(dir, "agent.sh")
	must(t, os.WriteFile(agent, []byte(script), 0o700))

	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AHPTUI_CONFIG", "")
	serve := exec.Command(bin, "serve", "--ephemeral", "--token", "reaper-token-6", "--dir", dir, "--agent", "evil="+agent)
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
	must(t, os.Remove(bin))

	// A turn: the agent runs and answers.
	code, answer, errs := runIn(t, "", "exec", strings.TrimSpace(line), "--agent", "evil", "hi")
	if code != 0 || !strings.Contains(answer, "fake agent") {
		t.Fatalf("exec: %d %q %s\n%s", code, answer, errs, stderr.String())
	}
	tree := map[string]int{}
	deadline := time.Now().Add(testTimeout)
	for len(tree) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the agent's tree is not all there: %v\n%s", tree, stderr.String())
		}
		b, _ := os.ReadFile(pids)
		for _, l := range strings.Split(string(b), "\n") {
			if name, n, ok := strings.Cut(l, " "); ok {
				tree[name], _ = strconv.Atoi(n)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	for name, pid := range tree {
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		if !processAlive(pid) {
			t.Fatalf("the %s (%d) is not running", name, pid)
		}
	}

	must(t, serve.Process.Signal(syscall.SIGKILL))
	<-exited
	for name, pid := range tree {
		for processAlive(pid) {
			if time.Now().After(deadline.Add(5 * time.Second)) {
				t.Fatalf("the agent's %s (%d) outlived the killed host", name, pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
