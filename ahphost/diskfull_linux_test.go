//go:build linux

package ahphost

import (
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestDurableDiskFull: a state directory on a 2 MiB tmpfs, filled but for
// a few pages, runs out while a reply streams. The turn ends with an error
// saying the chat cannot be saved, the log says why, and the host keeps
// serving: a new session runs a turn.
// It needs root (mount); it is skipped, saying so, where mounting fails.
func TestDurableDiskFull(t *testing.T) {
	state := smallDisk(t)
	logs := &testkit.SyncBuffer{}
	h, u := startDurable(t, state, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), Pace: 10 * time.Millisecond})
	w := dial(t, u, nil)
	w.reasm = newClientReasm(1<<20, 64<<20)
	w.initialize("c1", nil, map[string]any{"maxIncomingFrameBytes": 1 << 20, "maxIncomingMessageBytes": 64 << 20})
	chat := w.createSession("ahp-session:/full")
	rawChat(t, w, chat)
	// Fill the disk but for a few pages: the reply's commits run out.
	var st syscall.Statfs_t
	must(t, syscall.Statfs(state, &st))
	free := int64(st.Bavail) * st.Bsize
	must(t, os.WriteFile(filepath.Join(state, "filler"), make([]byte, free-48<<10), 0o600))
	w.sendMessage(chat, "t1", "/demo slow", 1)
	e := w.action("the turn ends", func(e envelope) bool {
		return e.Channel == chat && (e.typ() == "chat/error" || e.typ() == "chat/turnComplete")
	})
	var a struct {
		Part struct {
			Error struct {
				ErrorType string `json:"errorType"`
				Message   string `json:"message"`
			} `json:"error"`
		} `json:"part"`
	}
	must(t, json.Unmarshal(e.Action, &a))
	if e.typ() != "chat/error" || a.Part.Error.ErrorType != "storageFailed" || !strings.Contains(a.Part.Error.Message, "cannot save") {
		t.Fatalf("turn on a full disk ended with %s %s\nlog: %s", e.typ(), e.Action, logs.String())
	}
	waitUntil(t, "the log line", func() bool { return strings.Contains(logs.String(), "cannot write the state database") })
	if !strings.Contains(logs.String(), "no space left") {
		t.Fatalf("log does not say why: %s", logs.String())
	}
	// Still serving: another session runs a turn.
	other := w.createSession("ahp-session:/after")
	rawChat(t, w, other)
	runTurn(t, w, other, "t2", "hello", 2)
	_ = h
}

// smallDisk mounts a 2 MiB tmpfs for a disk-full test and returns it; the
// test is skipped, saying so, where it cannot mount (it needs root) and
// under -short.
func smallDisk(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("mounts a tmpfs")
	}
	state := filepath.Join(t.TempDir(), "small")
	must(t, os.Mkdir(state, 0o700))
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", state).CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: cannot mount a 2 MiB tmpfs for the disk-full test (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", state).Run() })
	return state
}
