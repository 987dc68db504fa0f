package ahphost

import (
	"testing"
	"time"
)

// TestDurableRestartWithLongReplyMidTurn: a host stopped while a chat
// holding a long (paged) reply ran its next turn reads that chat at the
// start (to end the turn as interrupted), which notes the long reply and
// asks for memory to be released. That request, made while the host was
// still being built, started a goroutine that read the host's store before
// New had set it: the restart crashed (nil pointer in sentSeq) or raced.
// Run with -race.
func TestDurableRestartWithLongReplyMidTurn(t *testing.T) {
	state := t.TempDir()
	released := func() {}
	h1, u := startDurable(t, state, Options{Pace: 20 * time.Millisecond, ReleaseMemory: released})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/long")
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "/demo stream 400k", 1)
	w.sendMessage(chat, "t2", "/demo slow 100", 2)
	w.action("the slow turn streams", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/delta" })
	w.close()
	must(t, h1.Close())

	for range 3 { // the crash depended on timing
		h2, u2 := startDurable(t, state, Options{ReleaseMemory: released})
		w2 := dial(t, u2, nil)
		w2.initialize("c2", nil, nil)
		if st := readChat(t, w2, chat, 10); st.ActiveTurn != nil {
			t.Fatal("the running turn was not ended at the start")
		}
		w2.close()
		must(t, h2.Close())
	}
}
