package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestNewSessionFormPicksAnAgent: with several agents the new-session form
// starts with an Agent row; changing it asks the host for that agent's
// options and the session is created with the agent chosen there.
func TestNewSessionFormPicksAnAgent(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	m = send(t, m, snapshotEvent(t, "ahp-root://", ahpwire.RootState{Agents: []ahpwire.AgentInfo{
		{Provider: "claude", DisplayName: "Claude Code", Description: "via ACP"}, {Provider: "gemini", DisplayName: "Gemini CLI"}}}))
	m = send(t, m, keyPress("ctrl+n"))
	m = send(t, m, keyPress("enter")) // the picker's choice: the first agent
	f := m.topConfigForm()
	if f == nil || f.Provider() != "claude" {
		t.Fatalf("no form for claude:\n%s", viewText(m))
	}
	v := viewText(m)
	for _, want := range []string{"Agent", "‹ Claude Code ›", "via ACP", "Working directory", "Model"} {
		if !strings.Contains(v, want) {
			t.Fatalf("form lacks %q:\n%s", want, v)
		}
	}
	if strings.Index(v, "Agent") > strings.Index(v, "Working directory") {
		t.Fatalf("the agent row is not first:\n%s", v)
	}
	m = send(t, m, keyPress("down"))
	f = m.topConfigForm()
	if f == nil || f.Provider() != "gemini" || len(m.overlays) != 1 {
		t.Fatalf("form not rebuilt for gemini (%d overlays):\n%s", len(m.overlays), viewText(m))
	}
	if v := viewText(m); !strings.Contains(v, "‹ Gemini CLI ›") || !strings.Contains(v, "/w") {
		t.Fatalf("gemini form:\n%s", v)
	}
	// Agent → directory → model → mode → note: fill the required note.
	for range 4 {
		m = send(t, m, keyPress("tab"))
	}
	m = typeText(t, m, "x")
	m = send(t, m, keyPress("enter"))
	be.mu.Lock()
	created := append([]ahpwire.CreateSessionParams(nil), be.created...)
	be.mu.Unlock()
	if len(created) != 1 || created[0].Provider != "gemini" {
		t.Fatalf("created %+v\n%s", created, viewText(m))
	}
}

// TestNewSessionFormOneAgentHasNoAgentRow: one agent, no Agent row.
func TestNewSessionFormOneAgentHasNoAgentRow(t *testing.T) {
	m, _ := newSteerModel(t, 100, 30)
	m = send(t, m, snapshotEvent(t, "ahp-root://", ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: "claude", DisplayName: "Claude Code"}}}))
	m = send(t, m, keyPress("ctrl+n"))
	if f := m.topConfigForm(); f == nil || strings.Contains(viewText(m), "‹ Claude Code ›") {
		t.Fatalf("form:\n%s", viewText(m))
	}
}
