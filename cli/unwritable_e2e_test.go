//go:build linux

package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestServeOnAStateFileItMayNotWrite: `serve` run by a user who may read
// the state database but not write it (a host started once with sudo made
// it root's; a directory copied from another account) exits saying it is
// not allowed to open the file and what to do, and leaves the file as it
// was. It used to call the file damaged and advise moving it away or
// restoring a backup, for a file with nothing wrong in it. As root the
// host runs as nobody (the file stays root's, mode 0644); otherwise the
// file is made read-only.
func TestServeOnAStateFileItMayNotWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	open := func(p string) { must(t, os.Chmod(p, 0o755)) } // others may enter (run as nobody)
	base, err := os.MkdirTemp("", "ahptui-unwritable")
	must(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	open(base)
	bin := filepath.Join(base, "ahptui")
	copyFile(t, sharedBinary(t), bin)
	state, xdg := filepath.Join(base, "state"), filepath.Join(base, "xdg")
	must(t, os.Mkdir(state, 0o755))
	must(t, os.Mkdir(xdg, 0o777))
	unpackUpgradeFixture(t, state)
	db := filepath.Join(state, "state.db")
	must(t, os.Chmod(db, 0o644))
	open(state)
	before, err := os.ReadFile(db)
	must(t, err)

	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--token", "tok", "--state-dir", state)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+xdg, "XDG_CONFIG_HOME="+xdg, "AHPTUI_CONFIG=", "HOME="+xdg)
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		must(t, os.Chmod(db, 0o444))
	}
	out, err := cmd.CombinedOutput()
	msg := string(out)
	if err == nil || strings.Contains(msg, "damaged") || strings.Contains(msg, "backup") ||
		!strings.Contains(msg, "permission denied") || !strings.Contains(msg, db) {
		t.Fatalf("serve on a state file it may not write: %v\n%s", err, msg)
	}
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Fatal("the state file was changed")
	}
}

// copyFile copies src to dst, executable.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	must(t, err)
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	must(t, err)
	_, err = io.Copy(out, in)
	must(t, err)
	must(t, out.Close())
}
