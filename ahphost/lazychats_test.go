package ahphost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// seedDurable fills a durable host's database on state with n sessions
// of turns synthetic turns each and closes it; it returns each session's
// chat and its state as a client's snapshot has it.
func seedDurable(t *testing.T, state string, n, turns, turnBytes int) (chats []string, states []json.RawMessage) {
	t.Helper()
	h, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("seed", nil, nil)
	for i := 0; i < n; i++ {
		chat, err := h.SeedSession(fmt.Sprintf("ahp-session:/s%03d", i), SyntheticTurns(turns, turnBytes))
		must(t, err)
		chats = append(chats, chat)
		states = append(states, rawChat(t, w, chat))
	}
	w.close()
	must(t, h.Close())
	return chats, states
}

// loaded reports which of chats are in the host's memory.
func loaded(h *Host, chats ...string) []bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]bool, len(chats))
	for i, c := range chats {
		out[i] = h.st.chats[c] != nil
	}
	return out
}

// sweep runs n sweep periods of the chat cache at once.
func sweep(h *Host, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ; n > 0; n-- {
		h.st.sweepChats(true)
	}
}

// unsubscribe ends w's subscription to channel; the call after it makes
// sure the host has handled it.
func unsubscribe(w *wsClient, channel string) {
	w.notify("unsubscribe", map[string]any{"channel": channel})
	w.call("listSessions", map[string]any{})
}

// TestDurableChatsLoadOnUse: after a restart no chat is in memory; the
// session list is whole; a chat is read from disk when a client subscribes
// or dispatches to it, the same as before the restart; one nobody uses
// goes back to disk and comes back the same, with what it got since.
func TestDurableChatsLoadOnUse(t *testing.T) {
	state := t.TempDir()
	chats, before := seedDurable(t, state, 3, 20, 2<<10)

	h, u := startDurable(t, state, Options{ChatIdle: time.Hour})
	h.mu.Lock()
	inMemory, onDisk := len(h.st.chats), len(h.st.cold)
	h.mu.Unlock()
	if inMemory != 0 || onDisk != 3 {
		t.Fatalf("after restart: %d chats in memory, %d on disk; want 0 and 3", inMemory, onDisk)
	}
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	var list struct {
		Items []ahpwire.SessionSummary `json:"items"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{}), &list))
	if len(list.Items) != 3 || list.Items[0].Title == "" || list.Items[0].Title == "New session" {
		t.Fatalf("session list after restart: %+v", list.Items)
	}
	if got := loaded(h, chats...); got[0] || got[1] || got[2] {
		t.Fatalf("listing the sessions read chats: %v", got)
	}
	if got := rawChat(t, w, chats[0]); !bytes.Equal(got, before[0]) {
		t.Fatalf("chat read from disk differs:\nbefore %s\nafter  %s", clip(before[0]), clip(got))
	}
	rawChat(t, w, chats[1])
	runTurn(t, w, chats[1], "t-new", "hello after the restart", 1)
	if got := loaded(h, chats...); !got[0] || !got[1] || got[2] {
		t.Fatalf("in memory after two subscribes: %v", got)
	}

	// Followed chats stay; the one nobody follows goes after a period
	// without use, once its writes are on disk.
	unsubscribe(w, chats[1])
	waitUntil(t, "the unfollowed chat back on disk", func() bool {
		sweep(h, 1)
		return !loaded(h, chats[1])[0]
	})
	if got := loaded(h, chats...); !got[0] {
		t.Fatal("a followed chat left memory")
	}
	st := readChat(t, w, chats[1], 100)
	if n := len(st.Turns); n != 21 || st.Turns[20].ID != "t-new" {
		t.Fatalf("chat read back after eviction: %d turns", n)
	}
	if !loaded(h, chats[1])[0] {
		t.Fatal("subscribe did not read the chat back")
	}
}

// TestDurableChatEvictionWaitsForDisk: a chat with a write not yet
// committed, a subscriber or a running turn stays in memory whatever the
// budget; the same chat goes once the commit is done and nobody uses it.
func TestDurableChatEvictionWaitsForDisk(t *testing.T) {
	state := t.TempDir()
	chats, _ := seedDurable(t, state, 2, 5, 1<<10)
	h, u := startDurable(t, state, Options{ChatIdle: time.Hour, ChatMemory: 1, Pace: 50 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	rawChat(t, w, chats[0])
	unsubscribe(w, chats[0])

	h.mu.Lock()
	ce := h.st.chat(chats[1])
	draft := &ahpwire.ChatDraftChanged{Draft: &ahpwire.ChatMessage{Text: "half a thought"}}
	ce.state = reduceChat(ce.state, draft)
	h.st.emit(ce.uri, draft, nil, "")
	h.st.sweepChats(false) // over budget, but the draft is not written yet
	stays := h.st.chats[chats[1]] != nil
	h.mu.Unlock()
	if !stays {
		t.Fatal("a chat left memory before its write was committed")
	}
	waitUntil(t, "both chats back on disk", func() bool {
		sweep(h, 1)
		got := loaded(h, chats...)
		return !got[0] && !got[1]
	})
	st, err := ahpwire.DecodeChatState(rawChat(t, w, chats[1]))
	must(t, err)
	if st.Draft == nil || st.Draft.Text != "half a thought" {
		t.Fatalf("draft after eviction: %+v", st.Draft)
	}
	// Followed (this client subscribed just now) and running: stays.
	w.sendMessage(chats[1], "t-run", "/demo slow 400", 1)
	w.action("turn started", func(e envelope) bool { return e.Channel == chats[1] && e.typ() == "chat/turnStarted" })
	unsubscribe(w, chats[1])
	sweep(h, 3)
	if !loaded(h, chats[1])[0] {
		t.Fatal("a chat with a running turn left memory")
	}
}

// TestDurableDisposeColdSession: a session whose chat was never read since
// the restart is disposed of: its chat is deleted from disk too.
func TestDurableDisposeColdSession(t *testing.T) {
	state := t.TempDir()
	chats, _ := seedDurable(t, state, 2, 3, 1<<10)
	h, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	w.call("disposeSession", map[string]any{"channel": "ahp-session:/s000"})
	w.close()
	must(t, h.Close())
	h2, _ := startDurable(t, state, Options{})
	st, err := h2.st.persist.db.Load()
	must(t, err)
	var kept []string
	for _, ch := range st.Channels {
		kept = append(kept, ch.URI)
	}
	joined := strings.Join(kept, " ")
	if strings.Contains(joined, "s000") || !strings.Contains(joined, chats[1]) {
		t.Fatalf("stored after disposing of s000: %v", kept)
	}
}

// TestDurableRestoredTerminalExited: a terminal that was running when the
// host stopped comes back exited (no process is behind it), with what it
// printed and a line saying why; it cannot be claimed to type into.
func TestDurableRestoredTerminalExited(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/term")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo repl", 1)
	e := w.actionOfType(chat, ahpwire.ActionChatToolCallContentChanged)
	var cc ahpwire.ChatToolCallContentChanged
	must(t, json.Unmarshal(e.Action, &cc))
	uri := cc.Content[0].Resource
	waitUntil(t, "the shell's prompt", func() bool {
		h1.mu.Lock()
		defer h1.mu.Unlock()
		t := h1.st.ext.terminals[uri]
		return t != nil && strings.Contains(t.Output(), "$ ")
	})
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, Options{})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w2.call("subscribe", map[string]any{"channel": uri}), &res))
	st, err := ahpwire.DecodeTerminalState(res.Snapshot.State)
	must(t, err)
	out := st.Output()
	if st.ExitCode == nil || *st.ExitCode != terminatedExit || !strings.Contains(out, "$ ") || !strings.HasSuffix(out, terminatedNote) {
		t.Fatalf("restored terminal: exit %v, output %q", st.ExitCode, out)
	}
	var root struct {
		Snapshot struct {
			State ahpwire.RootState `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w2.call("subscribe", map[string]any{"channel": ahpwire.RootURI}), &root))
	found := false
	for _, raw := range root.Snapshot.State.Terminals {
		var ti ahpwire.TerminalInfo
		must(t, json.Unmarshal(raw, &ti))
		if ti.Resource == uri {
			found = ti.ExitCode != nil
		}
	}
	if !found {
		t.Fatal("the root's terminal list does not show the terminal exited")
	}
	w2.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": 1,
		"action": map[string]any{"type": "terminal/claimed", "claim": map[string]any{"kind": "client", "clientId": "c2"}}})
	if e := w2.actionOfType(uri, ahpwire.ActionTerminalClaimed); e.RejectionReason == "" {
		t.Fatal("a restored terminal was claimed to type into")
	}
}

// TestDurableBudgetDropsColdArchived: after a restart, over its budget,
// the database drops the turns of an archived session whose chat is still
// on disk only (it is read to be shortened), and keeps the other.
func TestDurableBudgetDropsColdArchived(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	old, err := h1.SeedSession("ahp-session:/old", SyntheticTurns(100, 3<<10))
	must(t, err)
	kept, err := h1.SeedSession("ahp-session:/kept", SyntheticTurns(100, 3<<10))
	must(t, err)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	w.call("subscribe", map[string]any{"channel": "ahp-session:/old"})
	w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/old", "clientSeq": 1,
		"action": map[string]any{"type": "session/isArchivedChanged", "isArchived": true}})
	w.action("archived", func(e envelope) bool { return e.typ() == "session/isArchivedChanged" })
	w.close()
	must(t, h1.Close())

	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := func() time.Time { // every size check is due
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}
	h, u2 := startDurable(t, state, Options{StateBudget: 600 << 10, Now: now})
	if got := loaded(h, old, kept); got[0] || got[1] {
		t.Fatalf("chats in memory at start: %v", got)
	}
	waitUntil(t, "the archived session's turns dropped", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		if ce := h.st.chats[old]; ce != nil && len(ce.state.Turns) == 1 {
			return true
		}
		h.st.persist.kick()
		return false
	})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	if st := readChat(t, w2, old, 10); len(st.Turns) != 1 || !strings.Contains(st.Turns[0].ResponseParts[0].Content, "size budget") {
		t.Fatalf("archived chat after the drop: %+v", st.Turns)
	}
	if n := len(readChat(t, w2, kept, 200).Turns); n != 100 {
		t.Fatalf("the session that is not archived lost turns: %d left", n)
	}
}

// TestDurableIdleChatLeavesMemory: with no sweep called by hand, a chat
// nobody follows leaves memory after ChatIdle (the commit goroutine's
// timer), and a followed one stays.
func TestDurableIdleChatLeavesMemory(t *testing.T) {
	state := t.TempDir()
	chats, _ := seedDurable(t, state, 2, 3, 1<<10)
	h, u := startDurable(t, state, Options{ChatIdle: 20 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	rawChat(t, w, chats[0])
	rawChat(t, w, chats[1])
	unsubscribe(w, chats[0])
	waitUntil(t, "the unfollowed chat back on disk", func() bool { return !loaded(h, chats[0])[0] })
	if !loaded(h, chats[1])[0] {
		t.Fatal("the followed chat left memory")
	}
}

// TestDurableRestoredTerminalsBounded: after a restart, the output of the
// terminals that had exited counts towards the host-wide bound again: the
// oldest beyond it is dropped, with a line saying so.
func TestDurableRestoredTerminalsBounded(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/terms")
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "/demo shell", 1)
	runTurn(t, w, chat, "t2", "/demo shell", 2)
	h1.mu.Lock()
	terms := append([]string(nil), h1.st.ext.termOrder...)
	var last int64
	if n := len(terms); n == 2 {
		last = int64(len(h1.st.ext.terminals[terms[1]].Output()))
	}
	h1.mu.Unlock()
	if len(terms) != 2 || last == 0 {
		t.Fatalf("terminals %v (last has %d bytes)", terms, last)
	}
	w.close()
	must(t, h1.Close())

	h2, _ := startDurable(t, state, Options{TerminalRetainBytes: last + 1})
	h2.mu.Lock()
	defer h2.mu.Unlock()
	first, second := h2.st.ext.terminals[terms[0]].Output(), h2.st.ext.terminals[terms[1]].Output()
	if !strings.HasPrefix(first, "[output dropped") || int64(len(second)) != last {
		t.Fatalf("after restart: first %q, second %d bytes (was %d)", first, len(second), last)
	}
}

// TestDurableDemoSlowResumes: "/demo slow" cut short by a host restart
// goes on after the last line the chat shows when the turn is resumed:
// every line once, in order, in the same turn.
func TestDurableDemoSlowResumes(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{Pace: 10 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/slow")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo slow 12", 1)
	waitUntil(t, "line 4 of the slow answer", func() bool {
		h1.mu.Lock()
		defer h1.mu.Unlock()
		at := h1.st.chats[chat].state.ActiveTurn
		return at != nil && strings.Contains(markdownOf(at.ResponseParts.Slice()), "line 4 of 12")
	})
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, Options{})
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	rawChat(t, w2, chat)
	w2.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 1,
		"action": map[string]any{"type": "chat/turnResume", "turnId": "t1"}})
	w2.action("resumed turn completes", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/turnComplete" })
	st, err := ahpwire.DecodeChatState(rawChat(t, w2, chat))
	must(t, err)
	text := markdownOf(st.Turns[0].ResponseParts)
	for i := 2; i <= 12; i++ {
		if n := strings.Count(text, fmt.Sprintf("line %d of 12\n", i)); n != 1 {
			t.Fatalf("line %d shows %d times in the resumed answer:\n%s", i, n, text)
		}
	}
	if strings.Count(text, "## A slow answer") != 1 || !strings.HasSuffix(text, "Done — all lines streamed.\n") || len(st.Turns) != 1 {
		t.Fatalf("resumed answer (%d turns):\n%s", len(st.Turns), text)
	}
}

// markdownOf joins the markdown of parts.
func markdownOf(parts []ahpwire.ResponsePart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Kind == ahpwire.PartMarkdown {
			b.WriteString(p.Content)
		}
	}
	return b.String()
}
