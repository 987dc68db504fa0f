package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

func TestPickerFlows(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	// Live updates from root notifications.
	m = send(t, m, connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionAdded",
		Params: []byte(`{"channel":"ahp-root://","summary":{"resource":"ahp-session:/d","provider":"demo","title":"Brand new","status":1,"createdAt":"2026-11-22T12:00:00Z","modifiedAt":"2026-11-22T12:00:00Z"}}`)}})
	m = send(t, m, connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionRemoved",
		Params: []byte(`{"channel":"ahp-root://","session":"ahp-session:/b"}`)}})
	v := viewText(m)
	if !strings.Contains(v, "Brand new") || strings.Contains(v, "Write the README") {
		t.Fatalf("live list not updated:\n%s", v)
	}
	// Dispose asks first.
	m = send(t, m, keyPress("ctrl+x"))
	if !strings.Contains(viewText(m), "Dispose session") || len(fb.disposed) != 0 {
		t.Fatal("dispose did not ask for confirmation")
	}
	m = send(t, m, keyPress("y"))
	if !slices.Equal(fb.disposed, []string{"ahp-session:/a"}) { // the selection stays on the same session across live updates
		t.Fatalf("disposed %v", fb.disposed)
	}
	// New session with several agents: choose one.
	m = send(t, m, snapshotEvent(t, "ahp-root://", ahpwire.RootState{Agents: []ahpwire.AgentInfo{
		{Provider: "demo", DisplayName: "Demo"}, {Provider: "copilot", DisplayName: "Copilot"}}}))
	m = send(t, m, keyPress("ctrl+n"))
	if !strings.Contains(viewText(m), "choose an agent") {
		t.Fatal("no agent choice")
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("enter"))
	if len(fb.created) != 1 || fb.created[0].Provider != "copilot" || !strings.HasPrefix(fb.created[0].Channel, "ahp-session:/") {
		t.Fatalf("created %+v", fb.created)
	}
	// The new session has two chats: pick one.
	ss := ahpwire.SessionState{Provider: "copilot", Lifecycle: ahpwire.LifecycleCreating}
	m = send(t, m, snapshotEvent(t, fb.created[0].Channel, ss))
	if m.screen != screenPicker {
		t.Fatal("opened a session that is still creating")
	}
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: fb.created[0].Channel, ServerSeq: 3,
		Action: &ahpwire.SessionChatAdded{Summary: ahpwire.ChatSummary{Resource: "ahp-chat:/x", Title: "first"}}}}})
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: fb.created[0].Channel, ServerSeq: 4,
		Action: &ahpwire.SessionChatAdded{Summary: ahpwire.ChatSummary{Resource: "ahp-chat:/y", Title: "second"}}}}})
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: fb.created[0].Channel, ServerSeq: 5,
		Action: &ahpwire.SessionReady{}}}})
	if !strings.Contains(viewText(m), "several chats") {
		t.Fatalf("no chat choice:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("enter"))
	if m.screen != screenChat || m.chat.URI != "ahp-chat:/y" {
		t.Fatalf("chat not opened: screen %v", m.screen)
	}
	// The chat, then the session's review comments (its annotations channel).
	if n := len(fb.subscribed); n < 2 || fb.subscribed[n-2] != "ahp-chat:/y" || fb.subscribed[n-1] != "ahp-session:/id-1/annotations" {
		t.Fatalf("subscriptions %v", fb.subscribed)
	}
	// ctrl+s goes back to the picker.
	m = send(t, m, keyPress("ctrl+s"))
	if m.screen != screenPicker || m.chat != nil {
		t.Fatal("ctrl+s did not return to the picker")
	}
}
