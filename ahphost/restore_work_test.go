package ahphost

import (
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestDurableBackgroundWorkEndsWithTheHost: the background work a chat
// listed when the host stopped (`/demo subagent`: a shell and a subagent)
// is gone after the restart: nothing runs it any more. Clients showed
// "⚙ 2 running" on the chat for good, however long after, and a fresh
// client too (it came with the chat's state).
func TestDurableBackgroundWorkEndsWithTheHost(t *testing.T) {
	state := t.TempDir()
	opts := Options{Pace: 20 * time.Millisecond}
	h1, u := startDurable(t, state, opts)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/background")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo subagent", 1)
	waitUntil(t, "a shell and a subagent run in the background", func() bool {
		h1.mu.Lock()
		defer h1.mu.Unlock()
		return len(h1.st.chats[chat].state.BackgroundWork) == 2
	})
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, opts)
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	st, err := ahpwire.DecodeChatState(rawChat(t, w2, chat))
	must(t, err)
	if len(st.BackgroundWork) != 0 {
		t.Fatalf("after the restart the chat still lists as running: %+v", st.BackgroundWork)
	}
	if len(st.Turns) != 1 || st.Turns[0].State != ahpwire.TurnError {
		t.Fatalf("the turn was not ended as interrupted: %+v", st.Turns)
	}
}

// TestCancelledRunsBackgroundWorkEnds: `/demo subagent` cancelled while its
// shell and subagent run: the chat lists no background work after the
// cancel (it showed "⚙ 2 running" for good: a cancelled agent may not emit
// their removal). Work a run leaves listed when it ends its turn itself
// stays (meant to outlive the turn): `/demo subagent` run to its end
// removes its own, and the chat lists none either.
func TestCancelledRunsBackgroundWorkEnds(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Pace: 20 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/cancel-work")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo subagent", 1)
	waitUntil(t, "a shell and a subagent run in the background", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.st.chats[chat].state.BackgroundWork) == 2
	})
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 2, "action": map[string]any{
		"type": "chat/turnCancelled", "turnId": "t1", "duration": 100}})
	w.actionOfType(chat, "chat/turnCancelled")
	waitUntil(t, "the background work is removed", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.st.chats[chat].state.BackgroundWork) == 0
	})
	st, err := ahpwire.DecodeChatState(rawChat(t, w, chat))
	must(t, err)
	if len(st.BackgroundWork) != 0 || len(st.Turns) != 1 || st.Turns[0].State != ahpwire.TurnCancelled {
		t.Fatalf("after the cancel: work %+v turns %+v", st.BackgroundWork, st.Turns)
	}
}
