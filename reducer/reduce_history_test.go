package reducer

import (
	"reflect"
	"testing"
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

func TestReduceInputRequests(t *testing.T) {
	req := InputRequest{ID: "in1", Message: "Which?", Questions: []InputQuestion{{ID: "q1", Kind: "text", Message: "?"}}}
	s := Reduce(streaming(), InputRequested{Request: req})
	if n := len(s.PendingInputs()); n != 1 {
		t.Fatalf("pending inputs %d", n)
	}
	s = Reduce(s, InputAnswered{RequestID: "in1", QuestionID: "q1", Answer: &InputAnswer{State: AnswerDraft, Kind: AnswerText, Text: "a"}})
	// Re-requesting keeps drafts unless the request carries answers.
	s = Reduce(s, InputRequested{Request: InputRequest{ID: "in1", Message: "Which now?"}})
	b := mustBlock(t, s.Current, "in1")
	if b.Index != 3 || b.Input.Message != "Which now?" || b.Input.Answers["q1"].Text != "a" || len(s.Current.Blocks) != 4 {
		t.Fatalf("replace in place failed: %+v", b.Input)
	}
	del := Reduce(s, InputAnswered{RequestID: "in1", QuestionID: "q1"})
	if mustBlock(t, del.Current, "in1").Input.Answers != nil {
		t.Fatal("deleting the only draft must leave nil answers")
	}
	done := Reduce(s, InputCompleted{RequestID: "in1", Response: InputAccept,
		Answers: map[string]InputAnswer{"q2": {State: AnswerSubmitted, Kind: AnswerBoolean, Bool: true}}})
	b = mustBlock(t, done.Current, "in1")
	if b.Open || b.Input.Response != InputAccept || len(b.Input.Answers) != 2 || len(done.PendingInputs()) != 0 {
		t.Fatalf("completion: %+v", b.Input)
	}
	if len(mustBlock(t, s.Current, "in1").Input.Answers) != 1 {
		t.Fatal("completion modified the previous state's answers")
	}
	if x := Reduce(done, InputAnswered{RequestID: "in1", QuestionID: "q1"}); x.Stats.IgnoredActions != done.Stats.IgnoredActions+1 {
		t.Fatal("answering a completed request must be ignored")
	}
	if x := Reduce(State{}, InputRequested{Request: req}); x.Stats.IgnoredActions != 1 || x.Current != nil {
		t.Fatal("input request without a turn must be ignored")
	}
	// A new request with the same id after completion is a new block.
	again := Reduce(done, InputRequested{Request: req})
	if len(again.Current.Blocks) != 5 {
		t.Fatalf("blocks %d", len(again.Current.Blocks))
	}
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
	ok := Reduce(active, Restore{Chat: "ahp-chat:/c", Messages: s.Messages[:2], Steering: &PendingMessage{ID: "s"}})
	if len(ok.Messages) != 2 || ok.Current != nil || ok.Chat != "ahp-chat:/c" || ok.Steering.ID != "s" || ok.Totals.InputTokens != 10 {
		t.Fatalf("restore: %+v", ok)
	}

	// HistoryLoaded prepends unseen turns only.
	older := build(append(turn("t0", "old"), turn("t1", "dup")...)...)
	h := Reduce(s, HistoryLoaded{Messages: older.Messages})
	if got := ids(h.Messages); !reflect.DeepEqual(got, []string{"t0/user", "t0", "t1/user", "t1", "t2/user", "t2", "t3/user", "t3"}) {
		t.Fatalf("history: %v", got)
	}
	if h.Messages[2] != s.Messages[0] {
		t.Fatal("existing messages must be shared")
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
	if !mustBlock(t, s.Current, "p1").Open || s.Current.Blocks[3].Kind != KindError {
		t.Fatal("text must reopen and the error block stay")
	}
	s = Reduce(s, BlockDelta{MessageID: "t1", BlockID: "p1", Kind: KindText, Delta: "lo"})
	if mustBlock(t, s.Current, "p1").Text() != "Hello" {
		t.Fatal("resumed text does not stream")
	}
	notResumable := ReduceAll(streaming(), Error{MessageID: "t1", Info: ErrorInfo{Message: "fatal"}}, MessageEnd{MessageID: "t1", Status: StatusError})
	if x := Reduce(notResumable, MessageResume{TurnID: "t1"}); x.Current != nil || x.Stats.IgnoredActions != 1 {
		t.Fatal("non-resumable error resumed")
	}
	if x := Reduce(errored, MessageResume{TurnID: "t2"}); x.Current != nil {
		t.Fatal("wrong turn resumed")
	}
}

func TestReducePending(t *testing.T) {
	s := build(
		PendingMessageSet{Kind: PendingQueued, Message: PendingMessage{ID: "a", Text: "1"}},
		PendingMessageSet{Kind: PendingQueued, Message: PendingMessage{ID: "b", Text: "2"}},
		PendingMessageSet{Kind: PendingQueued, Message: PendingMessage{ID: "c", Text: "3"}},
		PendingMessageSet{Kind: PendingQueued, Message: PendingMessage{ID: "a", Text: "1'"}},
		PendingMessageSet{Kind: PendingSteering, Message: PendingMessage{ID: "s", Text: "steer"}},
	)
	if len(s.Queued) != 3 || s.Queued[0].Text != "1'" || s.Steering.ID != "s" {
		t.Fatalf("set: %+v", s)
	}
	r := Reduce(s, QueuedReordered{Order: []string{"c", "zz", "c", "a"}})
	if got := []string{r.Queued[0].ID, r.Queued[1].ID, r.Queued[2].ID}; !reflect.DeepEqual(got, []string{"c", "a", "b"}) {
		t.Fatalf("reorder: %v", got)
	}
	if s.Queued[0].ID != "a" {
		t.Fatal("reorder modified its input")
	}
	r = ReduceAll(s, PendingMessageRemoved{Kind: PendingQueued, ID: "b"}, PendingMessageRemoved{Kind: PendingSteering, ID: "other"})
	if len(r.Queued) != 2 || r.Steering == nil || r.Stats.IgnoredActions != 1 {
		t.Fatalf("remove: %+v", r)
	}
	r = ReduceAll(r, PendingMessageRemoved{Kind: PendingQueued, ID: "a"}, PendingMessageRemoved{Kind: PendingQueued, ID: "c"},
		PendingMessageRemoved{Kind: PendingSteering, ID: "s"})
	if r.Queued != nil || r.Steering != nil {
		t.Fatalf("remove all: %+v", r)
	}
	if x := Reduce(r, PendingMessageSet{Kind: "other"}); x.Stats.IgnoredActions != r.Stats.IgnoredActions+1 {
		t.Fatal("unknown kind accepted")
	}
}
