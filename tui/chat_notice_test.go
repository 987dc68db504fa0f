package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestEmptyChatSaysWhatToDo(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, nil))
	if !strings.Contains(viewText(m), "No messages yet") {
		t.Fatalf("empty chat is blank:\n%s", viewText(m))
	}
	checkFrame(t, m, 80, 24)
}

// TestEmptyChatNamesDemoHelpOnlyForTheDemo: the empty chat's hint names
// /demo help when the host runs the demo agent, and not for a real agent.
func TestEmptyChatNamesDemoHelpOnlyForTheDemo(t *testing.T) {
	for provider, want := range map[string]bool{"demo": true, "claude": false} {
		m, _ := newTestModel(t, 80, 24)
		m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: provider, DisplayName: provider}}}))
		m = openChat(t, m, chatState(nil, nil))
		if got := strings.Contains(viewText(m), "/demo help"); got != want {
			t.Fatalf("agent %s: /demo help shown %v, want %v:\n%s", provider, got, want, viewText(m))
		}
	}
}

func TestChatGoneFromHostSaysSoAndKeepsDraft(t *testing.T) {
	m, fb := runningChat(t)
	m = typeText(t, m, "my unsent draft")
	m = loseChat(t, m, fb) // the host restarted
	v := viewText(m)
	if !strings.Contains(v, "this chat is gone from the host") || !strings.Contains(v, "ctrl+s sessions") {
		t.Fatalf("a vanished chat is not explained:\n%s", v)
	}
	if strings.Contains(v, "● working") || strings.Contains(v, "loading chat") {
		t.Fatalf("a vanished chat still claims to work or load:\n%s", v)
	}
	if m.chat.Composer.Value() != "my unsent draft" {
		t.Fatalf("draft lost: %q", m.chat.Composer.Value())
	}
	// A later snapshot (e.g. the host came back) clears the error.
	m = send(t, m, snapshotEvent(t, testChat, chatState(nil, nil)))
	if strings.Contains(viewText(m), "is gone from the host") {
		t.Fatal("error stays after the chat loaded")
	}
}
