package cli

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestServeOtherStateDirBesideARunningHost: while a `serve` holds its
// state directory (a second one on it is refused:
// TestServeRefusesHeldOrDamagedState), another `serve` given another
// --state-dir starts and serves its own sessions, and the first keeps its.
func TestServeOtherStateDirBesideARunningHost(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	unpackUpgradeFixture(t, r.state)
	r.start()
	other := t.TempDir()
	second := exec.Command(r.bin, "serve", "--addr", "127.0.0.1:0", "--token", "tok-other", "--state-dir", other, "--dir", r.proj)
	second.Env = r.env
	errb := &testkit.SyncBuffer{}
	second.Stderr = errb
	out, err := second.StdoutPipe()
	must(t, err)
	must(t, second.Start())
	t.Cleanup(func() {
		_ = second.Process.Signal(syscall.SIGTERM)
		_ = second.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve with another --state-dir beside a running host did not start: %v\n%s", err, errb.String())
	}
	url := strings.TrimSpace(strings.Split(line, "?")[0])
	r.run("exec", url, "--token", "tok-other", "hello from the second host")
	if listed := r.run("sessions", url, "--token", "tok-other"); !strings.Contains(listed, "hello from the second host") ||
		strings.Contains(listed, "Explain the project layout") {
		t.Fatalf("the second host's sessions:\n%s", listed)
	}
	if len(r.listedSessions()) != 3 {
		t.Fatal("the first host lost its sessions")
	}
}
