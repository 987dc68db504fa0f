//go:build linux

package cli

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// remoteUser is a throwaway local account that plays a remote machine's
// user: its own home, nothing of ahptui on its PATH, logged in to through
// the test sshd (which runs as root and can become it).
type remoteUser struct {
	name, home string
	uid, gid   int
}

// freshUser creates a remote user for the test (useradd -m) and removes it,
// its processes and its home when the test ends. It skips, saying why,
// unless the tests run as root with useradd available (.ci/run runs them
// so in CI).
func freshUser(t *testing.T, s *testSSHD) remoteUser {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: the fresh-user SSH tests create a throwaway account: run them as root (CI does, .ci/run)")
	}
	for _, tool := range []string{"useradd", "userdel"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPED: %s is not installed (the fresh-user SSH tests need it; apt-get install passwd)", tool)
		}
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := "ahptui-t" + hex.EncodeToString(b[:])
	// -p '*': no password, yet not a locked account (sshd refuses those).
	if out, err := exec.Command("useradd", "-m", "-s", "/bin/sh", "-p", "*", name).CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: useradd failed: %v %s", err, out)
	}
	u, err := user.Lookup(name)
	must(t, err)
	r := remoteUser{name: name, home: u.HomeDir}
	r.uid, _ = strconv.Atoi(u.Uid)
	r.gid, _ = strconv.Atoi(u.Gid)
	t.Cleanup(func() {
		r.killAll(t)
		if out, err := exec.Command("userdel", "-r", "-f", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v %s", name, err, out)
		}
	})
	pub, err := os.ReadFile(filepath.Join(s.dir, "id.pub"))
	must(t, err)
	sshDir := filepath.Join(r.home, ".ssh")
	must(t, os.MkdirAll(sshDir, 0o700))
	must(t, os.WriteFile(filepath.Join(sshDir, "authorized_keys"), pub, 0o600))
	for _, p := range []string{sshDir, filepath.Join(sshDir, "authorized_keys")} {
		must(t, os.Chown(p, r.uid, r.gid))
	}
	return r
}

// pids lists the processes the user runs (from /proc).
func (r remoteUser) pids() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" && f[1] == strconv.Itoa(r.uid) && processAlive(pid) {
				out = append(out, pid)
			}
		}
	}
	return out
}

// killAll ends the user's processes (the hosts the test started there), by
// pid: SIGTERM, then SIGKILL.
func (r remoteUser) killAll(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		pids := r.pids()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, sig)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(r.pids()) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if left := r.pids(); len(left) > 0 {
		t.Errorf("processes of %s left: %v", r.name, left)
	}
}

// path is a path under the user's home.
func (r remoteUser) path(parts ...string) string {
	return filepath.Join(append([]string{r.home}, parts...)...)
}

// wrapper is an ssh wrapper that logs in as the user (host alias sshtest).
func (r remoteUser) wrapper(t *testing.T, s *testSSHD) string {
	return s.writeWrapperAs(t, "ssh-"+r.name, r.name, "known_hosts", "")
}

// buildVersion builds ahptui stamped with version v (a release build's
// -X flag) into dir.
func buildVersion(t *testing.T, dir, v string) string {
	t.Helper()
	out := filepath.Join(dir, "ahptui-"+v)
	cmd := exec.Command("go", "build", "-ldflags", "-X github.com/ahptui/ahptui/cli.version="+v, "-o", out, "github.com/ahptui/ahptui")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", v, err, b)
	}
	return out
}

// installedBins lists the directories under the user's ahptui bin dir.
func (r remoteUser) installedBins() []string {
	ents, _ := os.ReadDir(r.path(".local", "share", "ahptui", "bin"))
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// String names the user in messages.
func (r remoteUser) String() string { return fmt.Sprintf("%s (uid %d)", r.name, r.uid) }

// ownerOf is a file's uid.
func ownerOf(st os.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}

// syscallKill sends SIGKILL to pid.
func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// hexPrefix is the first n hex digits of b.
func hexPrefix(b []byte, n int) string { return hex.EncodeToString(b)[:n] }
