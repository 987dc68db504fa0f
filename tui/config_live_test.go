package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// /demo config against the real embedded host: the session's settings
// schema changes after creation and the open chat learns it through
// session/stateReplaced, so F4 lists the new setting without reopening the
// session; /demo config reset removes it again.
func TestLiveConfigSchemaChangeShowsInSettings(t *testing.T) {
	r := openLiveChat(t)
	r.m = send(t, r.m, tea.KeyPressMsg{Code: tea.KeyF4})
	if v := viewText(r.m); !strings.Contains(v, "Mode") || strings.Contains(v, "Reasoning effort") {
		t.Fatalf("settings before /demo config:\n%s", v)
	}
	r.m = send(t, r.m, keyPress("esc"))
	r.m = typeText(t, r.m, "/demo config")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("schema changed", func(m Model) bool {
		return m.chat.State.Current == nil && m.sessionState() != nil && m.sessionState().Config != nil &&
			strings.Contains(string(m.sessionState().Config.Schema), "Reasoning effort")
	})
	r.m = send(t, r.m, tea.KeyPressMsg{Code: tea.KeyF4})
	if v := viewText(r.m); !strings.Contains(v, "Reasoning effort") {
		t.Fatalf("F4 does not show the new setting:\n%s", v)
	}
	r.m = send(t, r.m, keyPress("esc"))
	r.m = typeText(t, r.m, "/demo config reset")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("schema reset", func(m Model) bool {
		return m.chat.State.Current == nil && len(m.chat.State.Messages) >= 4 &&
			!strings.Contains(string(m.sessionState().Config.Schema), "Reasoning effort")
	})
}
