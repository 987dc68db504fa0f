package cli

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// TestMain says, in the plain `go test` output (skips are otherwise only
// shown with -v), when the SSH tests are skipped for want of sshd or ssh.
func TestMain(m *testing.M) {
	_, errSSH := exec.LookPath("ssh")
	_, errSSHD := exec.LookPath("sshd")
	if _, err := os.Stat("/usr/sbin/sshd"); err == nil {
		errSSHD = nil
	}
	if errSSH != nil || errSSHD != nil {
		fmt.Fprintln(os.Stderr, "cli: the SSH tests are SKIPPED: they need openssh-server and openssh-client "+
			"(apt-get install -y openssh-server openssh-client; .ci/run installs them)")
	}
	code := m.Run()
	removeSharedBinary() // sharedbin_test.go
	os.Exit(code)
}
