package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// newLiveRigDir is newLiveRig over a working directory with files.
func newLiveRigDir(t *testing.T, files ...string) *liveRig {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return startLiveRig(t, ahphost.Options{Dir: dir, NoToken: true, Pace: time.Millisecond})
}

// TestLiveCompletionAndSteering drives the TUI against the embedded host
// over a real WebSocket: an "@" completion inserts a file that goes with
// the message as an attachment, and a steering message reaches the agent
// mid-turn.
func TestLiveCompletionAndSteering(t *testing.T) {
	r := newLiveRigDir(t, "notes.md")
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })

	r.m = typeText(t, r.m, "read @not")
	if !r.m.chat.Extras.Completer.Open() || !strings.Contains(viewText(r.m), "▸ @notes.md") {
		t.Fatalf("no completion popup:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, keyPress("tab"))
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("user message with attachment", func(m Model) bool {
		for _, msg := range m.chat.State.Messages {
			if len(msg.Attachments) == 1 && strings.HasSuffix(msg.Attachments[0].URI, "/notes.md") {
				return true
			}
		}
		return false
	})
	r.pump("answer", func(m Model) bool { return m.chat.State.Current == nil && len(m.chat.State.Messages) >= 2 })

	r.m = typeText(t, r.m, "/demo slow 400")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("slow turn", func(m Model) bool {
		return m.chat.State.Current != nil && strings.Contains(m.chat.State.Current.Text(), "line 3 of 400")
	})
	r.m = typeText(t, r.m, "look at the tests")
	r.m = send(t, r.m, altEnter())
	r.pump("steering reaction", func(m Model) bool {
		cur := m.chat.State.Current
		return cur != nil && strings.Contains(cur.Text(), "Steering received:") && strings.Contains(cur.Text(), "look at the tests")
	})
	if r.m.chat.AHP().SteeringMessage != nil {
		t.Fatalf("the steering message was not consumed: %+v", r.m.chat.AHP().SteeringMessage)
	}
	cancelTurn := &ahpwire.ChatTurnCancelled{TurnID: r.m.chat.State.Current.TurnID, Duration: ahpwire.Ptr(int64(1))}
	if _, err := r.client.Dispatch(context.Background(), r.m.chat.URI, cancelTurn); err != nil {
		t.Fatal(err)
	}
	r.pump("cancelled", func(m Model) bool { return m.chat.State.Current == nil })
}
