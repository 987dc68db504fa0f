package cli

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDecisionMadeWhileTheHostWasDownSaysWhatHappened: an approval given
// in the TUI while the host was down (killed at the prompt) is sent when
// the TUI is back in, after the restart ended the turn interrupted; the
// host refuses it. The notice says that the decision was not applied as
// its turn had ended, and that alt+r resumes the turn, on 80 columns,
// instead of "the tool decision was rejected by the host: no active turn".
func TestDecisionMadeWhileTheHostWasDownSaysWhatHappened(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes and tmux")
	}
	r := newDurableRig(t)
	r.start()
	r.tmux = fmt.Sprintf("ahptui-late-%d", os.Getpid())
	tui := fmt.Sprintf("XDG_STATE_HOME=%s %s %s --token tok-durable; sleep 60", r.xdg, r.bin, r.url())
	must(t, r.tmuxCmd("new-session", "-d", "-s", "d", "-x", "80", "-y", "24", tui).Run())
	r.waitScreen("a new chat", "Message…")
	must(t, r.tmuxCmd("send-keys", "-t", "d", "-l", "/demo tools").Run())
	must(t, r.tmuxCmd("send-keys", "-t", "d", "Enter").Run())
	r.waitScreen("the approval", "Approval needed", "a/y approve")
	for deadline := time.Now().Add(10 * time.Second); strings.Contains(r.screen(), "you were typing"); { // the typing guard
		if time.Now().After(deadline) {
			t.Fatalf("the decision keys stay paused:\n%s", r.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.stop(syscall.SIGKILL)
	r.waitScreen("offline", "offline")
	must(t, r.tmuxCmd("send-keys", "-t", "d", "y").Run())
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(r.xdg + "/ahptui/ahptui.log")
			t.Log(string(b))
		}
	})
	r.start()
	r.waitScreen("the decision's fate", "decision not applied: its turn had ended — alt+r resumes it")
}
