package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// TestLiveSessionRemovedEndsTheTranscript: over the real host, a session
// disposed while its reply streams (by another client, here the same
// connection) ends the open chat through the reducer's SESSION_END: the
// reply is finalised as interrupted, the transcript is marked ended, the
// screen says why, and what is typed afterwards is kept as unsent.
func TestLiveSessionRemovedEndsTheTranscript(t *testing.T) {
	r := newLiveRig(t, 0)
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })
	r.m = typeText(t, r.m, "/demo slow 400")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("slow turn started", func(m Model) bool {
		return m.chat.State.Current != nil && strings.Contains(m.chat.State.Current.Text(), "line 3 of 400")
	})

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.client.DisposeSession(ctx, r.m.chat.Session); err != nil {
		t.Fatal(err)
	}
	r.pump("the session's end", func(m Model) bool { return m.chat.State.Ended })
	st := r.m.chat.State
	if st.Current != nil || st.EndReason != "session removed" || r.m.screen != screenChat {
		t.Fatalf("ended: current %v, reason %q, screen %v", st.Current != nil, st.EndReason, r.m.screen)
	}
	if last := st.Messages[len(st.Messages)-1]; last.Status != reducer.StatusInterrupted || !strings.Contains(last.Text(), "line 3 of 400") {
		t.Fatalf("the streaming reply was not kept, interrupted: %v %q", last.Status, last.Text())
	}
	if v := viewText(r.m); !strings.Contains(v, "session ended: session removed") {
		t.Fatalf("the screen does not say the session ended:\n%s", v)
	}
	r.m = typeText(t, r.m, "are you there?")
	r.m = send(t, r.m, keyPress("enter"))
	if v := viewText(r.m); !strings.Contains(v, "✗ not sent") || !strings.Contains(v, "are you there?") {
		t.Fatalf("a message into the ended chat is not kept as unsent:\n%s", v)
	}
}

// TestSessionEndFromTheSessionChannel: the session's own channel ends the
// open chat through SESSION_END: session/chatRemoved naming it, and
// session/creationFailed (the screen names the error).
func TestSessionEndFromTheSessionChannel(t *testing.T) {
	for _, c := range []struct {
		name   string
		action ahpwire.Action
		want   string
	}{
		{"chat removed", &ahpwire.SessionChatRemoved{Chat: testChat}, "session ended: chat removed"},
		{"creation failed", &ahpwire.SessionCreationFailed{Error: ahpwire.ErrorInfo{ErrorType: "agent", Message: "the agent exited"}},
			"session ended: session creation failed (the agent exited)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := runningChat(t)
			m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: testSession, ServerSeq: 9, Action: c.action}}})
			if !m.chat.State.Ended || m.chat.State.Current != nil {
				t.Fatalf("not ended (current %v)", m.chat.State.Current != nil)
			}
			if v := viewText(m); !strings.Contains(v, c.want) {
				t.Fatalf("the screen does not say %q:\n%s", c.want, v)
			}
		})
	}
}
