//go:build linux

package cli

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSSHBootstrapFreshUser: a fresh account with no ahptui is the remote
// machine. `ahptui exec @box` (ssh = …) copies this ahptui there (checksum
// verified, into a per-version directory), starts a detached host and
// streams an answer; the link is killed mid-reply and the reply still
// completes, every line once; a later client finds the same host and its
// sessions; a newer ahptui upgrades the idle host and says so; --stop ends
// it.
func TestSSHBootstrapFreshUser(t *testing.T) {
	t.Parallel() // its own sshd, account, port and directories
	s := startSSHD(t)
	r := freshUser(t, s)
	bins := t.TempDir()
	v1, v2 := buildVersion(t, bins, "v0.1.0"), buildVersion(t, bins, "v0.2.0")
	env := []string{"AHPTUI_SSH=" + r.wrapper(t, s)}
	state := r.path(".local", "state", "ahptui", serveStateName)

	// 1. From nothing to a streamed answer.
	code, out, errs := s.runBin(t, v1, "", env, "exec", "@box", "hello from a fresh machine")
	if code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("bootstrap exec: %d %q %q", code, out, errs)
	}
	if !strings.Contains(errs, "installed ahptui v0.1.0 on sshtest") {
		t.Fatalf("the install was not reported: %q", errs)
	}
	installed := r.installedBins()
	if len(installed) != 1 || !strings.HasPrefix(installed[0], "v0.1.0-") {
		t.Fatalf("installed: %v", installed)
	}
	checkInstalled(t, r, installed[0], v1)
	st1 := readState(t, state)
	if st1.Version != "v0.1.0" || !processAlive(st1.PID) || sessionOf(t, st1.PID) != st1.PID {
		t.Fatalf("the started host: %+v (alive %v)", st1, processAlive(st1.PID))
	}

	// 2. The link killed mid-reply: the host keeps running, the client
	// reconnects, the reply completes with every line exactly once.
	cmd := exec.Command(v1, "exec", "@box", "/demo slow 40")
	dir := t.TempDir()
	writeBoxConfig(t, dir)
	cmd.Env = s.binEnv(dir, env...)
	var sout, serr syncBuffer
	cmd.Stdout, cmd.Stderr = &sout, &serr
	must(t, cmd.Start())
	waitOutput(t, &sout, "line 4 of 40")
	for _, pid := range descendants(t, s.pid) { // the per-connection sshd and its unprivileged child
		_ = syscallKill(pid)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() != execCompleted || err != nil && !errors.As(err, &ee) {
		t.Fatalf("the reply after the drop: %v\nstdout:\n%s\nstderr:\n%s", err, sout.String(), serr.String())
	}
	if logb, _ := os.ReadFile(filepath.Join(dir, "state", "ahptui", "ahptui.log")); !strings.Contains(string(logb), "ssh tunnel restored") {
		t.Fatalf("the link never dropped (no tunnel restart in the client's log):\n%s", logb)
	}
	for i := 2; i <= 40; i++ {
		if n := strings.Count(sout.String(), "— line "+strconv.Itoa(i)+" of 40"); n != 1 {
			t.Fatalf("line %d arrived %d times after the drop:\n%s", i, n, sout.String())
		}
	}
	if st := readState(t, state); st.PID != st1.PID || !processAlive(st1.PID) {
		t.Fatalf("the host did not outlive the link: %+v", st)
	}

	// 3. Quit and reattach: the next client finds the same host and both
	// sessions.
	code, out, errs = s.runBin(t, v1, "", env, "sessions", "@box")
	before := regexp.MustCompile(`ahp-session:/\S+`).FindAllString(out, -1)
	if code != exitOK || len(before) != 2 || errs != "" {
		t.Fatalf("reattach: %d %q %q", code, out, errs)
	}

	// 4. Upgrade: a newer client installs itself beside the old one and
	// restarts the idle host on the new version, and says so.
	code, out, errs = s.runBin(t, v2, "", env, "exec", "@box", "hello, upgraded")
	if code != execCompleted || !strings.Contains(out, "demo agent") {
		t.Fatalf("upgrade exec: %d %q %q", code, out, errs)
	}
	for _, want := range []string{"upgraded ahptui on sshtest from v0.1.0 to v0.2.0", "restarted it on ahptui v0.2.0"} {
		if !strings.Contains(errs, want) {
			t.Fatalf("%q not said: %q", want, errs)
		}
	}
	st2 := readState(t, state)
	if st2.Version != "v0.2.0" || st2.PID == st1.PID || processAlive(st1.PID) {
		t.Fatalf("after the upgrade: %+v (old pid %d alive %v)", st2, st1.PID, processAlive(st1.PID))
	}
	if got := r.installedBins(); len(got) != 2 || got[0] != installed[0] {
		t.Fatalf("installed after the upgrade: %v", got)
	}
	checkInstalled(t, r, installed[0], v1) // the old binary was left as it was
	code, out, _ = s.runBin(t, v2, "", env, "sessions", "@box")
	for _, id := range before { // the restarted host keeps its sessions (its state database)
		if code != exitOK || !strings.Contains(out, id) {
			t.Fatalf("session %s lost in the upgrade: %d %q", id, code, out)
		}
	}

	// 5. Stop.
	code, out, errs = s.runBin(t, v2, "", env, "ssh", "sshtest", "--stop")
	if code != exitOK || !strings.Contains(out, "stopped the ahptui host on sshtest") {
		t.Fatalf("--stop: %d %q %q", code, out, errs)
	}
	if processAlive(st2.PID) {
		t.Fatal("--stop left the host running")
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("--stop left the state file: %v", err)
	}
}

// checkInstalled checks the installed binary: the user's, private, and
// byte for byte the client's.
func checkInstalled(t *testing.T, r remoteUser, dirName, client string) {
	t.Helper()
	path := r.path(".local", "share", "ahptui", "bin", dirName, "ahptui")
	got, err := os.ReadFile(path)
	must(t, err)
	want, err := os.ReadFile(client)
	must(t, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not the client's binary", path)
	}
	sum := sha256.Sum256(want)
	if !strings.HasSuffix(dirName, "-"+hexPrefix(sum[:], 12)) {
		t.Fatalf("directory %s does not carry the checksum", dirName)
	}
	st, err := os.Stat(path)
	must(t, err)
	if st.Mode().Perm() != 0o700 || ownerOf(st) != r.uid {
		t.Fatalf("%s: mode %v owner %d, want 0700 and %d", path, st.Mode().Perm(), ownerOf(st), r.uid)
	}
}

// writeBoxConfig writes runBin's config (host box on the test sshd) under dir.
func writeBoxConfig(t *testing.T, dir string) {
	conf := filepath.Join(dir, "config", "ahptui", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(conf), 0o700))
	must(t, os.WriteFile(conf, []byte("[hosts.box]\nssh = \"sshtest\"\n"), 0o600))
}

// descendants lists every process under pid.
func descendants(t *testing.T, pid int) []int {
	var out []int
	for _, c := range childPIDs(t, pid) {
		out = append(append(out, c), descendants(t, c)...)
	}
	return out
}

// waitOutput waits until b holds want.
func waitOutput(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("%q never came:\n%s", want, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
