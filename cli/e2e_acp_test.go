//go:build !windows

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EAgentTmux runs `ahptui --agent fake=FAKEACP` in a real terminal
// (tmux, 120x40) against the scripted ACP agent: the embedded host opens a
// new chat in the current directory; an approval picks the agent's option
// by number, a denial with d, F6 shows the agent's edit, the agent's
// question (elicitation) is a form the user declines, and quitting
// leaves no agent process behind. Skipped when tmux is not installed.
func TestE2EAgentTmux(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	tmp := t.TempDir()
	bin, fake := filepath.Join(tmp, "ahptui"), filepath.Join(tmp, "fakeacp")
	for pkg, out := range map[string]string{"github.com/ahptui/ahptui": bin, "github.com/ahptui/ahptui/internal/fakeacp/cmd/fakeacp": fake} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	work, proj := filepath.Join(tmp, "work"), filepath.Join(tmp, "proj")
	for _, d := range []string{filepath.Join(work, "tmux"), proj} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "hello.txt"), []byte("first line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killTmux(work) })
	shell := "cd " + proj + " && XDG_STATE_HOME=" + filepath.Join(work, "state") + " " + bin + " --agent fake=" + fake
	if out, err := tmuxIn(work, "new-session", "-d", "-s", "e2e", "-x", "120", "-y", "40", shell).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	screen := func() string { s, _ := capturePane(work); return s }
	waitFor := func(what string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(screen(), what) {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %q; screen:\n%s", what, screen())
			}
			time.Sleep(50 * time.Millisecond) // polling the screen for a condition
		}
	}
	keys := func(k ...string) {
		t.Helper()
		if out, err := tmuxIn(work, append([]string{"send-keys", "-t", "e2e"}, k...)...).CombinedOutput(); err != nil {
			t.Fatalf("send-keys: %v\n%s", err, out)
		}
	}
	waitFor("Connected │ New session") // the new chat is open
	waitFor("Message… (enter send")
	keys("tool", "Enter")
	waitFor("1-4 choose option")
	keys("2")
	waitFor("chosen: always")
	keys("tool", "Enter")
	waitFor("waiting for approval")
	if !strings.Contains(screen(), "1-4 choose option") {
		keys("C-p") // the approval prompt opens by itself once a turn; ctrl+p reopens it
	}
	waitFor("1-4 choose option")
	keys("d")
	waitFor("chosen: no")
	keys("diff", "Enter")
	waitFor("Edited hello.txt.")
	keys("F6")
	waitFor("hello.txt  +1 −0")
	keys("Escape")
	gone := time.Now().Add(10 * time.Second)
	for strings.Contains(screen(), "reviewed · enter diff") {
		if time.Now().After(gone) {
			t.Fatalf("the changes view did not close:\n%s", screen())
		}
		time.Sleep(50 * time.Millisecond) // polling the screen for a condition
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "hello.txt")); string(b) != "first line\nhello from the fake agent\n" {
		t.Fatalf("hello.txt = %q", b)
	}
	// The agent's question (ACP elicitation) is a form in the chat;
	// declining it (ctrl+d twice) reaches the agent.
	keys("ask", "Enter")
	waitFor("Which colour should the button be?")
	keys("C-d")
	waitFor("again to decline")
	keys("C-d")
	waitFor("declined")
	keys("C-c")
	deadline := time.Now().Add(15 * time.Second)
	for {
		running := processesOf(fake)
		if len(running) == 0 && tmuxIn(work, "has-session", "-t", "e2e").Run() != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after quitting: agent processes %v; screen:\n%s", running, screen())
		}
		time.Sleep(50 * time.Millisecond) // polling for the processes to end
	}
}

// processesOf lists the pids whose executable is path.
func processesOf(path string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == path {
			out = append(out, e.Name())
		}
	}
	return out
}
