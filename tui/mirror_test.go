package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// openCreating asks for a new session and loads its creating snapshot.
func openCreating(t *testing.T) (Model, *fakeBackend, string) {
	t.Helper()
	m, fb := newTestModel(t, 100, 30)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m = send(t, m, snapshotEvent(t, "ahp-root://", ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: "demo", DisplayName: "Demo"}}}))
	m = send(t, m, keyPress("ctrl+n"))
	if len(fb.created) != 1 {
		t.Fatalf("created %+v", fb.created)
	}
	uri := fb.created[0].Channel
	m = send(t, m, snapshotEvent(t, uri, ahpwire.SessionState{Provider: "demo", Lifecycle: ahpwire.LifecycleCreating}))
	if m.screen != screenPicker {
		t.Fatal("opened a session that is still creating")
	}
	return m, fb, uri
}

// sessionEnvelope delivers one session action.
func sessionEnvelope(t *testing.T, m Model, uri string, seq uint64, a ahpwire.Action) Model {
	t.Helper()
	return send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: uri, ServerSeq: seq, Action: a}}})
}

func chatAdded(res, title string) ahpwire.Action {
	return &ahpwire.SessionChatAdded{Summary: ahpwire.ChatSummary{Resource: res, Title: title}}
}

// TestChatAddedTwiceIsOneChat: chatAdded upserts by resource, so a chat
// added twice ("draft", then "final") is one chat, opened at once, and the
// session keeps the last title.
func TestChatAddedTwiceIsOneChat(t *testing.T) {
	m, fb, uri := openCreating(t)
	m = sessionEnvelope(t, m, uri, 3, chatAdded("ahp-chat:/x", "draft"))
	m = sessionEnvelope(t, m, uri, 4, chatAdded("ahp-chat:/x", "final"))
	m = sessionEnvelope(t, m, uri, 5, &ahpwire.SessionReady{})
	if v := viewText(m); strings.Contains(v, "several chats") {
		t.Fatalf("a chooser for one chat:\n%s", v)
	}
	if m.screen != screenChat || m.chat == nil || m.chat.URI != "ahp-chat:/x" {
		t.Fatalf("the one chat is not open: screen %v, subscribed %v", m.screen, fb.subscribed)
	}
	if m.sessionState() == nil || len(m.sessionState().Chats) != 1 || m.sessionState().Chats[0].Title != "final" {
		t.Fatalf("session chats %+v", m.sessionState())
	}
}

// TestChatRemovedLeavesTheChooser: a chat removed before the session is
// ready is not offered; the one left is opened.
func TestChatRemovedLeavesTheChooser(t *testing.T) {
	m, _, uri := openCreating(t)
	m = sessionEnvelope(t, m, uri, 3, chatAdded("ahp-chat:/x", "xray"))
	m = sessionEnvelope(t, m, uri, 4, chatAdded("ahp-chat:/y", "yankee"))
	m = sessionEnvelope(t, m, uri, 5, &ahpwire.SessionChatRemoved{Chat: "ahp-chat:/y"})
	m = sessionEnvelope(t, m, uri, 6, &ahpwire.SessionReady{})
	if v := viewText(m); strings.Contains(v, "several chats") || strings.Contains(v, "yankee") {
		t.Fatalf("the removed chat is offered:\n%s", v)
	}
	if m.screen != screenChat || m.chat == nil || m.chat.URI != "ahp-chat:/x" {
		t.Fatalf("chat x is not open: screen %v", m.screen)
	}
}

// TestSessionActionsReachTheOpenSession: session actions the UI had no
// rule for (here session/activityChanged and chatUpdated) move the open
// session's state.
func TestSessionActionsReachTheOpenSession(t *testing.T) {
	m, _, uri := openCreating(t)
	m = sessionEnvelope(t, m, uri, 3, chatAdded("ahp-chat:/x", "xray"))
	m = sessionEnvelope(t, m, uri, 4, &ahpwire.SessionReady{})
	if m.chat == nil {
		t.Fatal("chat not open")
	}
	m = sessionEnvelope(t, m, uri, 5, &ahpwire.SessionChatUpdated{Chat: "ahp-chat:/x", Changes: ahpwire.PartialChatSummary{Title: ahpwire.Ptr("renamed")}})
	if m.sessionState().Chats[0].Title != "renamed" {
		t.Fatalf("chatUpdated did not reach the session: %+v", m.sessionState().Chats)
	}
	m = sessionEnvelope(t, m, uri, 6, &ahpwire.SessionTitleChanged{Title: "New title"})
	if m.chat.Title != "New title" || m.sessionState().Title != "New title" {
		t.Fatalf("title %q / %q", m.chat.Title, m.sessionState().Title)
	}
}
