package ahpwire

import (
	"encoding/json"
	"testing"
)

func TestPartialSummariesApply(t *testing.T) {
	base := ChatSummary{Resource: "ahp-chat:/c", Title: "old", Status: StatusIdle, ParentChat: "p",
		WorkingDirectories: []string{"file:///a"}, Movable: Ptr(true)}
	got := PartialChatSummary{}.Apply(base)
	if got.Title != "old" || got.ParentChat != "p" || len(got.WorkingDirectories) != 1 || !*got.Movable {
		t.Fatalf("empty partial changed the summary: %+v", got)
	}
	got = PartialChatSummary{Title: Ptr("new"), Movable: Ptr(false), WorkingDirectories: []string{}, Status: Ptr(StatusInProgress)}.Apply(base)
	if got.Title != "new" || *got.Movable || got.WorkingDirectories == nil || len(got.WorkingDirectories) != 0 ||
		got.Status != StatusInProgress || got.Resource != base.Resource || got.ParentChat != "p" {
		t.Fatalf("partial not applied: %+v", got)
	}
	sb := SessionSummary{Resource: "ahp-session:/s", Title: "s", DefaultChat: "c1", Meta: Meta{"k": json.RawMessage(`1`)}}
	gs := PartialSessionSummary{DefaultChat: Ptr("c2"), Meta: Meta{}, Chats: []SessionChatSummary{{}}}.Apply(sb)
	if gs.DefaultChat != "c2" || gs.Meta == nil || len(gs.Meta) != 0 || len(gs.Chats) != 1 || gs.Title != "s" {
		t.Fatalf("session partial: %+v", gs)
	}
	if gs := (PartialSessionSummary{}).Apply(sb); gs.DefaultChat != "c1" || len(gs.Meta) != 1 {
		t.Fatalf("empty session partial changed the summary: %+v", gs)
	}
}
