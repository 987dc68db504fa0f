//go:build !windows

package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The SSH tests that run in parallel (each with its own sshd, port, state
// and config directories) cannot use t.Setenv, which the in-process CLI
// needs: they run the built ahptui as a child process with an environment
// of its own instead.

// binEnv is the environment of a child ahptui: this process's, with its own
// state and config directories under dir, the test sshd's ssh wrapper, no
// token or config file from the caller's environment, and extra on top.
func (s *testSSHD) binEnv(dir string, extra ...string) []string {
	env := append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"AHPTUI_CONFIG=", "AHPTUI_TOKEN=", "AHPTUI_SSH="+s.wrapper)
	return append(env, extra...)
}

// runBin runs bin with args in a fresh environment (binEnv) whose config
// file holds host "box" on the test sshd (plus extra config), and returns
// its exit code, stdout and stderr.
func (s *testSSHD) runBin(t *testing.T, bin, extraConfig string, env []string, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "config", "ahptui", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(conf), 0o700))
	must(t, os.WriteFile(conf, []byte("[hosts.box]\nssh = \"sshtest\"\n"+extraConfig), 0o600))
	cmd := exec.Command(bin, args...)
	cmd.Env = s.binEnv(dir, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	case err != nil:
		t.Fatalf("run %s: %v", bin, err)
	}
	return 0, out.String(), errb.String()
}

// serveBin runs `bin serve` as the ahptui serve on the SSH host (its state
// file in the "remote" state directory) until the test ends.
func (s *testSSHD) serveBin(t *testing.T, bin string) {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--dir", t.TempDir(), "--pace", "0")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+s.remoteState, "AHPTUI_CONFIG=", "AHPTUI_TOKEN=")
	var logb syncBuffer
	cmd.Stdout, cmd.Stderr = &logb, &logb
	must(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		<-exited
		if t.Failed() {
			t.Logf("serve's output:\n%s", logb.String())
		}
	})
	s.waitStateFile(t, exited, &logb)
}
