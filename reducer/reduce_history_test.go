package reducer

import (
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func turn(id, text string) []Action {
	return []Action{
		UserMessage{TurnID: id, Text: "q " + id},
		MessageStart{ID: id, TurnID: id},
		BlockStart{MessageID: id, BlockID: "p", Kind: KindText, Text: text},
		UsageChanged{MessageID: id, Usage: Usage{InputTokens: 10}},
		MessageEnd{MessageID: id, Status: StatusComplete},
	}
}

func threeTurns() State {
	var as []Action
	for _, id := range []string{"t1", "t2", "t3"} {
		as = append(as, turn(id, "a "+id)...)
	}
	return build(as...)
}

func ids(ms []*Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestReduceHistory(t *testing.T) {
	s := threeTurns()
	if got := ids(s.Messages); !reflect.DeepEqual(got, []string{"t1/user", "t1", "t2/user", "t2", "t3/user", "t3"}) {
		t.Fatalf("messages %v", got)
	}
	if s.Totals.InputTokens != 30 {
		t.Fatalf("totals %+v", s.Totals)
	}

	active := ReduceAll(s, UserMessage{TurnID: "t4"}, MessageStart{ID: "t4", TurnID: "t4"})
	tr := Reduce(active, Truncate{KeepThroughTurn: "t2"})
	if got := ids(tr.Messages); !reflect.DeepEqual(got, []string{"t1/user", "t1", "t2/user", "t2"}) || tr.Current != nil || tr.Totals.InputTokens != 20 {
		t.Fatalf("truncate: %v current=%v totals=%+v", got, tr.Current, tr.Totals)
	}
	if len(active.Messages) != 7 {
		t.Fatal("truncate modified its input")
	}
	// Appending after a truncation must not clobber the longer state.
	tr2 := Reduce(tr, UserMessage{TurnID: "x"})
	if active.Messages[4].ID != "t3/user" || tr2.Messages[4].ID != "x/user" {
		t.Fatal("append after truncate overwrote a shared slot")
	}
	if u := Reduce(active, Truncate{KeepThroughTurn: "t9"}); u.Current == nil || u.Stats.IgnoredActions != 1 {
		t.Fatal("unknown turn must be a no-op")
	}
	if all := Reduce(active, Truncate{All: true}); len(all.Messages) != 0 || all.Current != nil {
		t.Fatal("truncate all")
	}

	// Restore validates shapes.
	bad := Reduce(s, Restore{Messages: []*Message{{ID: "", Role: RoleUser, Status: StatusComplete}}})
	if bad.Stats.RejectedRestores != 1 || len(bad.Messages) != 6 {
		t.Fatal("invalid restore applied")
	}
	streamingMsg := &Message{ID: "m", Role: RoleAssistant, Status: StatusStreaming}
	if x := Reduce(s, Restore{Messages: []*Message{streamingMsg}}); x.Stats.RejectedRestores != 1 {
		t.Fatal("restore of a streaming message applied")
	}
	ok := Reduce(active, Restore{Messages: s.Messages[:2], Steering: &PendingMessage{ID: "s"}})
	if len(ok.Messages) != 2 || ok.Current != nil || ok.Steering.ID != "s" || ok.Totals.InputTokens != 10 {
		t.Fatalf("restore: %+v", ok)
	}

	// HistoryLoaded prepends what it is given (which turns are new is
	// decided by ahpstate; Derive passes only those).
	older := build(turn("t0", "old")...)
	h := Reduce(s, HistoryLoaded{Messages: older.Messages})
	if got := ids(h.Messages); !reflect.DeepEqual(got, []string{"t0/user", "t0", "t1/user", "t1", "t2/user", "t2", "t3/user", "t3"}) {
		t.Fatalf("history: %v", got)
	}
	if h.Messages[2] != s.Messages[0] || h.Totals.InputTokens != 40 {
		t.Fatal("existing messages must be shared and totals summed")
	}
	if x := Reduce(s, HistoryLoaded{Messages: []*Message{{ID: "x", Role: RoleAssistant}}}); x.Stats.RejectedRestores != 1 {
		t.Fatal("a streaming message loaded as history")
	}
}

func TestReduceResume(t *testing.T) {
	errored := ReduceAll(streaming(),
		Error{MessageID: "t1", Info: ErrorInfo{Message: "overloaded", Resumable: true}},
		MessageEnd{MessageID: "t1", Status: StatusError})
	s := Reduce(errored, MessageResume{TurnID: "t1"})
	if s.Current == nil || s.Current.ID != "t1" || !s.Current.Open() || len(s.Messages) != 1 {
		t.Fatalf("resume: current=%v messages=%d", s.Current, len(s.Messages))
	}
	if !mustBlock(t, s.Current, "p1").Open || s.Current.Blocks.At(3).Kind != KindError {
		t.Fatal("text must reopen and the error block stay")
	}
	s = Reduce(s, BlockDelta{MessageID: "t1", Index: 0, Kind: KindText, Delta: "lo"})
	if mustBlock(t, s.Current, "p1").Text() != "Hello" {
		t.Fatal("resumed text does not stream")
	}
	if tc := mustBlock(t, s.Current, "tc1"); !tc.Open {
		t.Fatal("a non-terminal tool call must reopen")
	}
	// Whether a turn may resume is AHP's rule (ahpstate.Resumable); the
	// reducer only needs the message to be the turn's last one.
	if x := Reduce(errored, MessageResume{TurnID: "t2"}); x.Current != nil || x.Stats.IgnoredActions != 1 {
		t.Fatal("wrong turn resumed")
	}
	if x := Reduce(Reduce(errored, UserMessage{TurnID: "t2"}), MessageResume{TurnID: "t1"}); x.Current != nil {
		t.Fatal("resumed a message that is not the last")
	}
	if x := Reduce(s, MessageResume{TurnID: "t1"}); x.Stats.IgnoredActions != s.Stats.IgnoredActions+1 {
		t.Fatal("resumed while a message streams")
	}
}

func TestReducePending(t *testing.T) {
	q := []PendingMessage{{ID: "a", Text: "1"}, {ID: "b", Text: "2"}}
	s := build(PendingChanged{Steering: &PendingMessage{ID: "s", Text: "steer"}, Queued: q})
	if len(s.Queued) != 2 || s.Steering.ID != "s" || s.Seq != 1 {
		t.Fatalf("set: %+v", s)
	}
	q[0].Text = "changed"
	if s.Queued[0].Text != "1" {
		t.Fatal("queued messages must be copied")
	}
	r := Reduce(s, PendingChanged{Queued: []PendingMessage{}})
	if r.Queued != nil || r.Steering != nil || s.Steering == nil {
		t.Fatalf("clear: %+v (input %+v)", r, s)
	}
}

// TestResumedErrorIsNoLongerResumable: AHP keeps a resumable error part in
// its turn when the turn resumes, so the reply goes on below it. Its block
// is marked resumed (not resumable: the transcript must not offer to resume
// a turn that was), live on chat/turnResume and when a chat is projected
// from a state whose turn went on after the error; the block of the turn
// before the resume is not changed, and an error still last stays
// resumable.
func TestResumedErrorIsNoLongerResumable(t *testing.T) {
	errored := ReduceAll(streaming(),
		Error{MessageID: "t1", Info: ErrorInfo{Message: "host stopped", Resumable: true}},
		MessageEnd{MessageID: "t1", Status: StatusError})
	s := Reduce(errored, MessageResume{TurnID: "t1"})
	if e := s.Current.Blocks.At(3).Err; e == nil || e.Resumable || !e.Resumed {
		t.Fatalf("live resume: the error block is %+v, want resumed", e)
	}
	if e := errored.Messages[len(errored.Messages)-1].Blocks.At(3).Err; !e.Resumable || e.Resumed {
		t.Fatalf("the state before the resume changed: %+v", e)
	}

	stop := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "interrupted", Message: "host stopped"}, true)
	went := ahpwire.Turn{ID: "a", ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("a1", "line 1"), stop, ahpwire.MarkdownPart("a2", "line 2")}}
	last := ahpwire.Turn{ID: "b", State: ahpwire.TurnError, ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("b1", "line 1"), stop}}
	cancelled := ahpwire.Turn{ID: "d", State: ahpwire.TurnCancelled, ResponseParts: last.ResponseParts} // resumed, then cancelled
	p := Project(ahpwire.ChatState{Turns: []ahpwire.Turn{went, cancelled, last}})
	if e := errBlock(t, p.Messages[1]); e.Resumable || !e.Resumed {
		t.Fatalf("projected: a turn that went on after its error: %+v", e)
	}
	if e := errBlock(t, p.Messages[3]); e.Resumable || !e.Resumed {
		t.Fatalf("projected: a turn resumed after its error, then cancelled: %+v", e)
	}
	if e := errBlock(t, p.Messages[5]); !e.Resumable || e.Resumed {
		t.Fatalf("projected: a turn that ended in its error: %+v", e)
	}
	active := Project(ahpwire.ChatState{ActiveTurn: &ahpwire.ActiveTurn{ID: "c", ResponseParts: ahpwire.PartsOf(ahpwire.MarkdownPart("c1", "x"), stop)}})
	if e := errBlock(t, active.Current); e.Resumable || !e.Resumed {
		t.Fatalf("projected: a resumed active turn: %+v", e)
	}
}

// errBlock returns the error block of m.
func errBlock(t *testing.T, m *Message) *ErrorInfo {
	t.Helper()
	for _, b := range m.Blocks.All() {
		if b.Kind == KindError {
			return b.Err
		}
	}
	t.Fatalf("no error block in %s", m.ID)
	return nil
}
