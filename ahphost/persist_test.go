package ahphost

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
)

// startDurable starts a durable host on state (a real database file).
func startDurable(t *testing.T, state string, opts Options) (*Host, string) {
	t.Helper()
	opts.NoToken, opts.Durable, opts.StateDir = true, true, state
	return startHost(t, opts)
}

// rawChat subscribes to chat and returns its snapshot state as JSON.
func rawChat(t *testing.T, w *wsClient, chat string) json.RawMessage {
	t.Helper()
	var res struct {
		Snapshot struct {
			State json.RawMessage `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat, "view": map[string]any{"turns": 1000}}), &res))
	return res.Snapshot.State
}

// runTurn sends text and waits for its turn to complete.
func runTurn(t *testing.T, w *wsClient, chat, turnID, text string, seq uint64) {
	t.Helper()
	w.sendMessage(chat, turnID, text, seq)
	w.action("turn "+turnID+" complete", func(e envelope) bool {
		return e.Channel == chat && (e.typ() == "chat/turnComplete" || e.typ() == "chat/error")
	})
}

// TestDurableRestartKeepsSessions: a chat of several turns, a closed host
// and a new one on the same state directory: the session is listed with
// its title, the chat's state is the same, serverSeq continues.
func TestDurableRestartKeepsSessions(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/keep")
	rawChat(t, w, chat)
	for i, text := range []string{"Explain the project layout", "hello again", "/demo markdown"} {
		runTurn(t, w, chat, "t"+string(rune('a'+i)), text, uint64(i+1))
	}
	before := rawChat(t, w, chat)
	seq := h1.ServerSeq()
	w.close()
	must(t, h1.Close())

	h2, u2 := startDurable(t, state, Options{})
	if h2.ServerSeq() < seq {
		t.Fatalf("serverSeq went back: %d after %d", h2.ServerSeq(), seq)
	}
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	var list struct {
		Items []struct {
			Resource string `json:"resource"`
			Title    string `json:"title"`
		} `json:"items"`
	}
	must(t, json.Unmarshal(w2.call("listSessions", map[string]any{}), &list))
	if len(list.Items) != 1 || list.Items[0].Resource != "ahp-session:/keep" || list.Items[0].Title != "Explain the project layout" {
		t.Fatalf("sessions after restart: %+v", list.Items)
	}
	after := rawChat(t, w2, chat)
	if !bytes.Equal(after, before) {
		t.Fatalf("chat changed across the restart:\nbefore %s\nafter  %s", clip(before), clip(after))
	}
	// The restored chat takes new turns.
	runTurn(t, w2, chat, "td", "one more", 1)
}

// TestDurableSecondHostRefused: a second host on a state directory in use
// fails with a message naming the first (its pid and address).
func TestDurableSecondHostRefused(t *testing.T) {
	state := t.TempDir()
	_, u := startDurable(t, state, Options{})
	_, err := New(Options{NoToken: true, Dir: t.TempDir(), Durable: true, StateDir: state})
	var le *durable.LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second host: %v, want a LockedError", err)
	}
	addr := strings.TrimPrefix(u, "ws://")
	msg := err.Error()
	if le.Owner.PID != os.Getpid() || !strings.Contains(msg, addr) || !strings.Contains(msg, "--state-dir") {
		t.Fatalf("message does not name the running host (pid %d, %s): %s", os.Getpid(), addr, msg)
	}
}

// TestDurableCorruptRefused: a damaged database makes New fail with a
// clear message and leaves the file untouched.
func TestDurableCorruptRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(path string)
	}{
		{"garbage", func(p string) { must(t, os.WriteFile(p, bytes.Repeat([]byte("not a database "), 1000), 0o600)) }},
		{"truncated", func(p string) {
			b, err := os.ReadFile(p)
			must(t, err)
			must(t, os.WriteFile(p, b[:1000], 0o600))
		}},
		{"bad meta", func(p string) {
			b, err := os.ReadFile(p)
			must(t, err)
			for i := 0; i < 2*4096 && i < len(b); i++ { // both meta pages
				b[i] ^= 0x5a
			}
			must(t, os.WriteFile(p, b, 0o600))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			h, u := startDurable(t, state, Options{})
			w := dial(t, u, nil)
			w.initialize("c1", nil, nil)
			w.createSession("ahp-session:/x")
			w.close()
			must(t, h.Close())
			path := filepath.Join(state, durable.FileName)
			tc.damage(path)
			damaged, _ := os.ReadFile(path)
			_, err := New(Options{NoToken: true, Dir: t.TempDir(), Durable: true, StateDir: state})
			var ce *durable.CorruptError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), path) {
				t.Fatalf("New on a damaged database: %v", err)
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, damaged) {
				t.Fatal("the damaged file was changed")
			}
		})
	}
}

// TestDurableWriteAhead: every envelope a client receives is already in
// the database (its serverSeq is at most the last committed one), and so
// is the state of a snapshot.
func TestDurableWriteAhead(t *testing.T) {
	h, u := startDurable(t, t.TempDir(), Options{DeltaWindow: -1}) // (every delta an envelope to check)
	db := h.st.persist.db
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/wa")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo markdown", 1)
	n := 0
	for {
		e := w.action("turn", func(e envelope) bool { return e.Channel == chat })
		if got := db.Seq(); got < e.ServerSeq {
			t.Fatalf("received serverSeq %d before the database held it (it holds %d)", e.ServerSeq, got)
		}
		n++
		if e.typ() == "chat/turnComplete" {
			break
		}
	}
	if n < 10 {
		t.Fatalf("only %d envelopes", n)
	}
}

// TestDurableInterruptedTurn: a host closed while a reply streams keeps
// what streamed; after the restart the turn is ended as interrupted with a
// resumable error part, and resuming it runs the agent again.
func TestDurableInterruptedTurn(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{Pace: 20 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/int")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo markdown", 1)
	var streamed strings.Builder
	for streamed.Len() < 200 {
		e := w.action("deltas", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/delta" })
		var d struct {
			Content string `json:"content"`
		}
		must(t, json.Unmarshal(e.Action, &d))
		streamed.WriteString(d.Content)
	}
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, Options{})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	st := readChat(t, w2, chat, 10)
	if st.ActiveTurn != nil || len(st.Turns) != 1 {
		t.Fatalf("after restart: active %v, %d turns", st.ActiveTurn, len(st.Turns))
	}
	turn := st.Turns[0]
	var text string
	var last = turn.ResponseParts[len(turn.ResponseParts)-1]
	for _, p := range turn.ResponseParts {
		if p.Kind == "markdown" {
			text += p.Content
		}
	}
	if turn.State != "error" || last.Kind != "error" || last.Resumable == nil || !*last.Resumable {
		t.Fatalf("turn not marked interrupted: state %s, last part %+v", turn.State, last)
	}
	if !strings.HasPrefix(text, streamed.String()) {
		t.Fatalf("streamed text lost: had %q, kept %q", streamed.String(), text)
	}
	w2.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 1,
		"action": map[string]any{"type": "chat/turnResume", "turnId": "t1"}})
	w2.action("resumed turn completes", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/turnComplete" })
}

// TestDurableBudgetDropsArchivedFirst: over its budget, the database drops
// the turns of the oldest archived session (its chat says so), keeps the
// others whole, and the drop survives a restart.
func TestDurableBudgetDropsArchivedFirst(t *testing.T) {
	state := t.TempDir()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := func() time.Time { // every size check is due
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}
	h, u := startDurable(t, state, Options{StateBudget: 600 << 10, Now: now})
	old, err := h.SeedSession("ahp-session:/old", SyntheticTurns(100, 3<<10))
	must(t, err)
	kept, err := h.SeedSession("ahp-session:/kept", SyntheticTurns(100, 3<<10))
	must(t, err)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	w.call("subscribe", map[string]any{"channel": "ahp-session:/old"})
	w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/old", "clientSeq": 1,
		"action": map[string]any{"type": "session/isArchivedChanged", "isArchived": true}})
	w.action("archived", func(e envelope) bool { return e.typ() == "session/isArchivedChanged" })
	waitUntil(t, "the archived session's turns dropped", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.st.persist.db.Size() < 600<<10 { // the first commit may already be under budget
			return len(h.st.chats[old].state.Turns) == 1
		}
		h.st.persist.kick()
		return false
	})
	st := readChat(t, w, old, 10)
	if len(st.Turns) != 1 || !strings.Contains(st.Turns[0].ResponseParts[0].Content, "size budget") {
		t.Fatalf("archived chat after the drop: %+v", st.Turns)
	}
	if n := len(readChat(t, w, kept, 200).Turns); n != 100 {
		t.Fatalf("the session that is not archived lost turns: %d left", n)
	}
	w.close()
	must(t, h.Close())
	_, u2 := startDurable(t, state, Options{StateBudget: 600 << 10})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	if st := readChat(t, w2, old, 10); len(st.Turns) != 1 {
		t.Fatalf("after restart the dropped chat has %d turns", len(st.Turns))
	}
}

// TestDurableDisposeDeletes: disposeSession removes the session from the
// database (a restart does not bring it back).
func TestDurableDisposeDeletes(t *testing.T) {
	state := t.TempDir()
	h, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/gone")
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "hello", 1)
	w.createSession("ahp-session:/stays")
	w.call("disposeSession", map[string]any{"channel": "ahp-session:/gone"})
	w.close()
	must(t, h.Close())
	h2, _ := startDurable(t, state, Options{})
	h2.mu.Lock()
	defer h2.mu.Unlock()
	if h2.st.sessions["ahp-session:/gone"] != nil || h2.st.chats[chat] != nil || h2.st.sessions["ahp-session:/stays"] == nil {
		t.Fatalf("after restart: sessions %v", h2.st.sessions)
	}
	st, err := h2.st.persist.db.Load()
	must(t, err)
	for _, ch := range st.Channels {
		if strings.Contains(ch.URI, "gone") {
			t.Fatalf("disposed channel %s still stored", ch.URI)
		}
	}
}
