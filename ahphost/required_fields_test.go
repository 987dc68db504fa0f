package ahphost

import (
	"strings"
	"testing"
)

// TestDispatchRequiresAHPFields: client actions lacking fields AHP 1.0
// requires are echoed with a rejectionReason and not applied.
func TestDispatchRequiresAHPFields(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	w.call("subscribe", map[string]any{"channel": chat})
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 1, "action": map[string]any{
		"type": "chat/turnStarted", "turnId": "t1",
		"message": map[string]any{"text": "hi", "origin": map[string]any{"kind": "user"}},
	}})
	if e := w.actionOfType(chat, "chat/turnStarted"); !strings.Contains(e.RejectionReason, "startedAt") {
		t.Fatalf("turnStarted without startedAt: rejection %q", e.RejectionReason)
	}
	w.sendMessage(chat, "t2", "hello", 2)
	if e := w.actionOfType(chat, "chat/turnStarted"); e.RejectionReason != "" {
		t.Fatalf("complete turnStarted rejected: %s", e.RejectionReason)
	}
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 3, "action": map[string]any{
		"type": "chat/turnCancelled", "turnId": "t2",
	}})
	if e := w.actionOfType(chat, "chat/turnCancelled"); !strings.Contains(e.RejectionReason, "duration") {
		t.Fatalf("turnCancelled without duration: rejection %q", e.RejectionReason)
	}
	w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/s1", "clientSeq": 4, "action": map[string]any{
		"type": "session/titleChanged",
	}})
	if e := w.action("titleChanged echo", func(e envelope) bool {
		return e.typ() == "session/titleChanged" && e.Origin != nil && e.Origin.ClientSeq == 4
	}); !strings.Contains(e.RejectionReason, "title") {
		t.Fatalf("titleChanged without title: rejection %q", e.RejectionReason)
	}
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 5, "action": map[string]any{
		"type": "chat/turnCancelled", "turnId": "t2", "duration": 5,
	}})
	if e := w.actionOfType(chat, "chat/turnCancelled"); e.RejectionReason != "" {
		t.Fatalf("complete turnCancelled rejected: %s", e.RejectionReason)
	}
}

// TestRejectionReasonIsClipped: a reason quoting a huge client value stays
// short (the echo is not made larger than the action).
func TestRejectionReasonIsClipped(t *testing.T) {
	long := strings.Repeat("é", 10000)
	if got := clipReason("no queued message " + long); len(got) > maxReasonBytes || !strings.HasSuffix(got, "…") {
		t.Fatalf("clipped reason of %d bytes", len(got))
	}
	if got := clipReason("short"); got != "short" {
		t.Fatalf("short reason changed: %q", got)
	}
}
