//go:build linux

package ahphost

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// turnEnd waits for the end of a turn on chat and returns its type and,
// for a chat/error, its errorType.
func turnEnd(t *testing.T, w *wsClient, chat string) (typ, errorType string) {
	t.Helper()
	e := w.action("the turn ends", func(e envelope) bool {
		return e.Channel == chat && (e.typ() == "chat/error" || e.typ() == "chat/turnComplete")
	})
	var a struct {
		Part struct {
			Error struct {
				ErrorType string `json:"errorType"`
			} `json:"error"`
		} `json:"part"`
	}
	must(t, json.Unmarshal(e.Action, &a))
	return e.typ(), a.Part.Error.ErrorType
}

// TestDurableDiskStillFull: while the state directory's disk stays full,
// every reply that cannot be saved ends with the storageFailed error, not
// only the one running at the first failed commit (the next ones used to
// stream and complete as if saved, with nothing on screen or in the log:
// a crash then lost them); once there is room again, a reply completes
// and the log says the database is writable again.
// It needs root (mount); it is skipped, saying so, where mounting fails.
func TestDurableDiskStillFull(t *testing.T) {
	state := smallDisk(t)
	logs := &testkit.SyncBuffer{}
	_, u := startDurable(t, state, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), Pace: 10 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	first := w.createSession("ahp-session:/full-1")
	rawChat(t, w, first)
	var st syscall.Statfs_t
	must(t, syscall.Statfs(state, &st))
	filler := filepath.Join(state, "filler")
	must(t, os.WriteFile(filler, make([]byte, int64(st.Bavail)*st.Bsize-48<<10), 0o600))

	w.sendMessage(first, "t1", "/demo slow", 1)
	if typ, et := turnEnd(t, w, first); typ != "chat/error" || et != "storageFailed" {
		t.Fatalf("the first reply on a full disk ended with %s %q", typ, et)
	}
	second := w.createSession("ahp-session:/full-2")
	rawChat(t, w, second)
	w.sendMessage(second, "t2", "/demo slow", 2)
	if typ, et := turnEnd(t, w, second); typ != "chat/error" || et != "storageFailed" {
		t.Fatalf("a reply while the disk is still full ended with %s %q (log: %s)", typ, et, logs.String())
	}

	must(t, os.Remove(filler))
	third := w.createSession("ahp-session:/room-again")
	rawChat(t, w, third)
	w.sendMessage(third, "t3", "/demo slow 5", 3)
	if typ, et := turnEnd(t, w, third); typ != "chat/turnComplete" {
		t.Fatalf("with room again the reply ended with %s %q", typ, et)
	}
	waitUntil(t, "the log says the database is writable again", func() bool {
		return strings.Contains(logs.String(), "writable again")
	})
}

// TestDurableStopOnAFullDiskSaysWhatIsLost: a host stopped while its state
// directory's disk is full cannot write its last changes; the log says that
// they are lost (it said "serving from memory until it is writable again",
// at the stop, when nothing serves any more).
func TestDurableStopOnAFullDiskSaysWhatIsLost(t *testing.T) {
	state := smallDisk(t)
	logs := &testkit.SyncBuffer{}
	h, u := startDurable(t, state, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), Pace: 10 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/full-at-stop")
	rawChat(t, w, chat)
	var st syscall.Statfs_t
	must(t, syscall.Statfs(state, &st))
	must(t, os.WriteFile(filepath.Join(state, "filler"), make([]byte, int64(st.Bavail)*st.Bsize-48<<10), 0o600))
	w.sendMessage(chat, "t1", "/demo slow", 1)
	if typ, et := turnEnd(t, w, chat); typ != "chat/error" || et != "storageFailed" {
		t.Fatalf("the reply on a full disk ended with %s %q", typ, et)
	}
	w.close()
	must(t, h.Close())
	log := logs.String() // the reply's failure says "serving from memory" once; the stop, what is lost
	if !strings.Contains(log, "could not write its last changes to the state database: they are lost") ||
		strings.Count(log, "serving from memory") != 1 {
		t.Fatalf("the stop on a full disk logged:\n%s", log)
	}
}
