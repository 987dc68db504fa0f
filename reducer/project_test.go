package reducer

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestProject(t *testing.T) {
	c := activeChat(t)
	s := c.view
	if len(s.Messages) != 3 || s.Current == nil {
		t.Fatalf("project: messages=%d", len(s.Messages))
	}
	if m := s.Messages[1]; m.Status != StatusComplete || m.Text() != "done" || m.Duration.Milliseconds() != 50 || m.Blocks.At(0).Open {
		t.Fatalf("finished turn: %+v", m)
	}
	if u := s.Messages[2]; u.Role != RoleUser || u.Text() != "second" || u.TurnID != "t2" {
		t.Fatalf("active turn's user message: %+v", u)
	}
	cur := s.Current
	tc := cur.Blocks.At(2).Tool
	if cur.StartedAt.IsZero() || !cur.Blocks.At(0).Open || cur.Blocks.At(1).Kind != KindThinking || tc.PartialInput == nil ||
		*tc.PartialInput != `{"c` || tc != c.ahp.ActiveTurn.ResponseParts.At(2).ToolCall {
		t.Fatalf("current: %+v", cur)
	}
	// Reattach keeps the lineage counter growing.
	r := Reattach(Reduce(s, SessionEnd{}), ahpwireChat())
	if r.Seq <= s.Seq || len(r.Messages) != 0 || r.Current != nil || !r.Ended {
		t.Fatalf("reattach: seq %d→%d messages=%d", s.Seq, r.Seq, len(r.Messages))
	}
}

// TestProjectKeepsOneBlockPerPart: every response part of an active turn
// gets a block at its own index, even one without its payload (shown as an
// unknown block, which renderers skip), so derived actions address part i
// as block i.
func TestProjectKeepsOneBlockPerPart(t *testing.T) {
	cs := ahpwire.ChatState{Resource: "ahp-chat:/c1", ActiveTurn: &ahpwire.ActiveTurn{ID: "t1", ResponseParts: ahpwire.PartsOf(
		ahpwire.ResponsePart{Kind: ahpwire.PartToolCall}, ahpwire.MarkdownPart("p", "x"), ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest}, ahpwire.ResponsePart{Kind: "future", ID: "f"})}}
	s := Project(cs)
	want := []BlockKind{KindUnknown, KindText, KindUnknown, KindUnknown}
	if s.Current.Blocks.Len() != len(want) {
		t.Fatalf("blocks %d", s.Current.Blocks.Len())
	}
	for i, b := range s.Current.Blocks.All() {
		if b.Kind != want[i] || b.Index != i {
			t.Fatalf("block %d: %s at %d", i, b.Kind, b.Index)
		}
	}
	_, s, _ = ApplyAction(cs, s, &ahpwire.ChatDelta{TurnID: "t1", PartID: "p", Content: "y"})
	if s.Current.Blocks.At(1).Text() != "xy" {
		t.Fatalf("delta went astray: %q", s.Current.Blocks.At(1).Text())
	}
}
