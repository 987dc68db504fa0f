package reducer

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestKeepInterruptedAfterHostRestart: a snapshot without the streaming
// turn (the host restarted mid-turn) keeps what was received, finished and
// marked interrupted with the reason; a snapshot that still has the turn
// (or a finished one) replaces it as usual.
func TestKeepInterruptedAfterHostRestart(t *testing.T) {
	streaming := ahpwire.ChatState{Resource: "ahp-chat:/c", Turns: []ahpwire.Turn{},
		ActiveTurn: &ahpwire.ActiveTurn{ID: "t1", StartedAt: "2026-01-01T00:00:00.000Z", Message: ahpwire.UserMessage("hi"),
			ResponseParts: ahpwire.PartsOf(ahpwire.MarkdownPart("p1", "partial reply"))}}
	prev := Project(streaming)
	if prev.Current == nil {
		t.Fatal("no current message")
	}
	restarted := ahpwire.ChatState{Resource: "ahp-chat:/c", Turns: []ahpwire.Turn{}}
	got := KeepInterrupted(prev, Reattach(prev, restarted), "host restarted")
	if got.Current != nil || len(got.Messages) != 2 {
		t.Fatalf("messages %d current %v", len(got.Messages), got.Current)
	}
	m := got.Messages[1]
	if m.Status != StatusInterrupted || m.Text() != "partial reply" || got.Messages[0].Text() != "hi" {
		t.Fatalf("kept %s %q", m.Status, m.Text())
	}
	last := m.Blocks.At(m.Blocks.Len() - 1)
	if last.Kind != KindError || last.Err.Message != "host restarted" || m.Blocks.At(0).Open {
		t.Fatalf("blocks %+v", m.Blocks)
	}
	if prev.Current.Status != StatusStreaming || !prev.Current.Blocks.At(0).Open {
		t.Fatal("prev modified")
	}
	// Still streaming in the new snapshot, or finished there: nothing kept.
	for _, cs := range []ahpwire.ChatState{streaming, {Resource: "ahp-chat:/c", Turns: []ahpwire.Turn{{ID: "t1",
		Message: ahpwire.UserMessage("hi"), State: ahpwire.TurnComplete, ResponseParts: []ahpwire.ResponsePart{}}}}} {
		n := Reattach(prev, cs)
		if g := KeepInterrupted(prev, n, "x"); len(g.Messages) != len(n.Messages) {
			t.Fatalf("kept a turn the snapshot has")
		}
	}
}
