package ahphost

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// queueMessage dispatches chat/pendingMessageSet of a queued message.
func queueMessage(w *wsClient, chat, id, text string, clientSeq uint64) {
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": clientSeq, "action": map[string]any{
		"type": "chat/pendingMessageSet", "kind": "queued", "id": id,
		"message": map[string]any{"text": text, "origin": map[string]any{"kind": "user"}}}})
}

// TestDurableQueuedMessageWaitsForTheInterruptedTurn: a message the user
// queued behind a reply that a host stop interrupted is not started by the
// restart (it used to be: started as a turn the agent never saw, and at
// once ended "interrupted" too, after which Alt+R offered only that empty
// turn and the reply could no longer be resumed). After the restart the
// reply is the chat's last turn, resumable, and the message is still
// queued; resuming the reply finishes it and then runs the message.
func TestDurableQueuedMessageWaitsForTheInterruptedTurn(t *testing.T) {
	state := t.TempDir()
	opts := Options{Pace: 10 * time.Millisecond}
	h1, u := startDurable(t, state, opts)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/queued")
	rawChat(t, w, chat)
	w.sendMessage(chat, "t1", "/demo slow 40", 1)
	queueMessage(w, chat, "q1", "and then the follow-up", 2)
	waitUntil(t, "the reply streams with the message queued", func() bool {
		h1.mu.Lock()
		defer h1.mu.Unlock()
		st := h1.st.chats[chat].state
		return st.ActiveTurn != nil && len(st.QueuedMessages) == 1 &&
			strings.Contains(markdownOf(st.ActiveTurn.ResponseParts.Slice()), "line 3 of 40")
	})
	w.close()
	must(t, h1.Close())

	_, u2 := startDurable(t, state, opts)
	w2 := dial(t, u2, nil)
	w2.initialize("c2", nil, nil)
	st, err := ahpwire.DecodeChatState(rawChat(t, w2, chat))
	must(t, err)
	if st.ActiveTurn != nil || len(st.Turns) != 1 {
		var msgs []string
		for _, tr := range st.Turns {
			msgs = append(msgs, tr.Message.Text)
		}
		t.Fatalf("after the restart: turns %q, active %v; want only the interrupted reply", msgs, st.ActiveTurn != nil)
	}
	if !ahpstate.Resumable(st, "t1") {
		t.Fatalf("the interrupted reply cannot be resumed: %+v", st.Turns[0])
	}
	if len(st.QueuedMessages) != 1 || st.QueuedMessages[0].Message.Text != "and then the follow-up" {
		t.Fatalf("the queued message is gone: %+v", st.QueuedMessages)
	}

	resumeTurn(w2, chat, "t1", 1)
	w2.action("the resumed reply ends", func(e envelope) bool {
		return e.Channel == chat && e.typ() == "chat/turnComplete" && strings.Contains(string(e.Action), `"t1"`)
	})
	started := w2.actionOfType(chat, ahpwire.ActionChatTurnStarted)
	if !strings.Contains(string(started.Action), "and then the follow-up") || !strings.Contains(string(started.Action), `"q1"`) {
		t.Fatalf("after the resumed reply the host started %s", started.Action)
	}
	w2.actionOfType(chat, "chat/turnComplete")
	st, err = ahpwire.DecodeChatState(rawChat(t, w2, chat))
	must(t, err)
	if len(st.Turns) != 2 || st.Turns[0].State != ahpwire.TurnComplete || st.Turns[1].State != ahpwire.TurnComplete || len(st.QueuedMessages) != 0 {
		t.Fatalf("turns %+v queued %+v", st.Turns, st.QueuedMessages)
	}
}
