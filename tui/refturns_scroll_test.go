package tui

import (
	"testing"

	"github.com/ahptui/ahptui/tui/chat"
)

// TestLiveLongReplyKeptWhileScrolledUp: a long reply that ends while the
// user reads elsewhere (the transcript does not follow the tail) is not
// swapped for its referenced form, so the view does not move under the
// reader; it is asked for again, and adopted, after a later turn ends
// while the view follows the tail.
func TestLiveLongReplyKeptWhileScrolledUp(t *testing.T) {
	r := openInlineLiveChat(t)
	r.m = typeText(t, r.m, "/demo big 3000000")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the reply streaming", func(m Model) bool {
		cur := m.chat.State.Current
		n := 0
		if cur != nil {
			for _, b := range cur.Blocks.All() {
				n += b.TextLen()
			}
		}
		return n > 64<<10
	})
	r.m = send(t, r.m, keyPress("pgup"))
	if r.m.chat.Transcript.Following() {
		t.Fatal("pgup did not stop following the tail")
	}
	r.pump("the reply's end and its re-read", func(m Model) bool {
		return m.chat.State.Current == nil && m.chat.Extras.Refs.Asked != nil && m.chat.Extras.Refs.Inflight == 0
	})
	if lastReplyByRef(r.m) {
		t.Fatal("the reply was swapped for references while the user was scrolled up")
	}
	if a, _ := inlineBytes(r.m); a < 3000000 {
		t.Fatalf("only %d bytes of the reply kept inline", a)
	}

	// Back at the tail, the next turn's end asks again and adopts it.
	r.m = send(t, r.m, keyPress("tab")) // to the transcript, where end follows the tail
	r.m = send(t, r.m, keyPress("end"))
	r.m = send(t, r.m, keyPress("tab"))
	if !r.m.chat.Transcript.Following() {
		t.Fatal("end did not follow the tail again")
	}
	r.m = typeText(t, r.m, "/demo big 10")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the long reply adopted after the next turn", func(m Model) bool {
		for _, msg := range m.chat.State.Messages {
			for _, b := range msg.Blocks.All() {
				if b.Ref != nil {
					return m.chat.State.Current == nil && m.chat.Extras.Refs.Inflight == 0
				}
			}
		}
		return false
	})
	if a, _ := inlineBytes(r.m); a > chat.RefAdoptBytes {
		t.Fatalf("after adoption %d bytes still inline", a)
	}
}
