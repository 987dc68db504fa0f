package ahphost

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/internal/testkit"
)

// TestDurableDamagedChat: a chat is read from the database only when
// first used (lazychats.go), so a chat damaged on disk is found after the
// host started. Opening it is an error that says where the trouble is and
// where to look (the host's log, which names the chat and the damage);
// the other sessions are served as before, and the damaged bytes are left
// as they are.
func TestDurableDamagedChat(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	bad := w.createSession("ahp-session:/bad")
	good := w.createSession("ahp-session:/good")
	rawChat(t, w, bad)
	rawChat(t, w, good)
	runTurn(t, w, bad, "t1", "hello", 1) // the session's title
	runTurn(t, w, bad, "t2", "damage-this-chat-please", 2)
	runTurn(t, w, good, "t3", "keep-this-chat-please", 3)
	w.close()
	must(t, h1.Close())

	// Damage every copy of the first chat's second prompt (its log, its
	// snapshot; the session's title is the first prompt).
	path := filepath.Join(state, durable.FileName)
	b, err := os.ReadFile(path)
	must(t, err)
	mark := []byte(`"damage-this-chat-please"`)
	if bytes.Count(b, mark) == 0 {
		t.Fatal("the prompt is not in the file")
	}
	b = bytes.ReplaceAll(b, mark, []byte("\x00\xff{damage-this-chat-pleas"))
	must(t, os.WriteFile(path, b, 0o600))

	logs := &testkit.SyncBuffer{}
	h2, u2 := startDurable(t, state, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	if st := readChat(t, w2, good, 10); len(st.Turns) != 1 {
		t.Fatalf("the undamaged chat has %d turns", len(st.Turns))
	}
	code, m := w2.callErr("subscribe", map[string]any{"channel": bad})
	if code == 0 || m.Error == nil || !strings.Contains(m.Error.Message, "state database") || !strings.Contains(m.Error.Message, "log") {
		t.Fatalf("the damaged chat: code %d, %+v", code, m.Error)
	}
	if l := logs.String(); !strings.Contains(l, "cannot read a chat from the state database") || !strings.Contains(l, bad) {
		t.Fatalf("the log does not name the damaged chat:\n%s", l)
	}
	must(t, h2.Close())
	after, err := os.ReadFile(path)
	must(t, err)
	if !bytes.Contains(after, []byte("\x00\xff{damage-this-chat-pleas")) {
		t.Fatal("the damaged record was rewritten")
	}
}
