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
