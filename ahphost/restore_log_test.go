package ahphost

import (
	"encoding/binary"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/internal/testkit"
)

// TestDurableStartLogsWhatItFound: a durable host's start says which
// state database it opened and what it found (sessions, turns a crash or
// stop interrupted), and says so when it upgraded an older layout (which
// the builds that read only that layout refuse from then on).
func TestDurableStartLogsWhatItFound(t *testing.T) {
	state := t.TempDir()
	path := filepath.Join(state, durable.FileName)
	logs := &testkit.SyncBuffer{}
	h1, u := startDurable(t, state, Options{Pace: 20 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if l := logs.String(); !strings.Contains(l, `msg="state database opened" path=`+path+" sessions=0 interrupted=0") {
		t.Fatalf("a new host's start:\n%s", l)
	}
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/int")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo markdown", 1)
	w.action("a delta", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/delta" })
	w.close()
	must(t, h1.Close())

	// The file as a build of the previous layout left it.
	b, err := bolt.Open(path, 0o600, nil)
	must(t, err)
	must(t, b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint64(nil, durable.LayoutVersion-1))
	}))
	must(t, b.Close())

	logs2 := &testkit.SyncBuffer{}
	startDurable(t, state, Options{Logger: slog.New(slog.NewTextHandler(logs2, nil))})
	l := logs2.String()
	if !strings.Contains(l, `msg="state database opened" path=`+path+" sessions=1 interrupted=1") {
		t.Fatalf("the start after a stop mid-reply:\n%s", l)
	}
	if !strings.Contains(l, "stored_mb=") || !strings.Contains(l, "file_mb=") || !strings.Contains(l, "budget_mb=") {
		t.Fatalf("the start does not say how much the database holds:\n%s", l)
	}
	if !strings.Contains(l, "upgraded the state database's layout") || !strings.Contains(l, "from=2 to=3") {
		t.Fatalf("the upgrade of an older layout is not logged:\n%s", l)
	}
}

// TestDurableOverBudgetSaysWhatToDo: over its budget with no archived
// session to shorten, the host warns once, saying what the operator can
// do, and keeps every turn.
func TestDurableOverBudgetSaysWhatToDo(t *testing.T) {
	logs := &testkit.SyncBuffer{}
	_, u := startDurable(t, t.TempDir(), Options{StateBudget: 1, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/live")
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "hello", 1)
	runTurn(t, w, chat, "t2", "hello again", 2)
	l := logs.String()
	if strings.Count(l, "over its budget") != 1 || !strings.Contains(l, "archive or dispose of sessions, or give the host a larger --state-budget") {
		t.Fatalf("the warning:\n%s", l)
	}
	if st := readChat(t, w, chat, 10); len(st.Turns) != 2 {
		t.Fatalf("%d turns kept", len(st.Turns))
	}
}
