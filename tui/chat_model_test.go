package tui

// Tests of naming the model on the status line before usage arrives.

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func statusLine(m Model) string {
	v := viewText(m)
	return v[strings.LastIndex(v, "\n")+1:]
}

func agentsEvent(t *testing.T, models ...string) connEventMsg {
	t.Helper()
	a := ahpwire.AgentInfo{Provider: "demo", DisplayName: "Demo"}
	for _, id := range models {
		a.Models = append(a.Models, ahpwire.SessionModelInfo{ID: id, Provider: "demo", Name: id})
	}
	return snapshotEvent(t, rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{a}})
}

func TestStatusModelFromSessionAgent(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = send(t, m, agentsEvent(t, "solo-model"))
	m = openChat(t, m, chatState(nil, nil)) // no turns, no usage
	if l := statusLine(m); !strings.Contains(l, "solo-model") {
		t.Fatalf("the session's agent offers one model; status line should name it: %q", l)
	}

	// An agent with a choice of models: the host picks, so nothing is guessed.
	m, _ = newTestModel(t, 100, 30)
	m = send(t, m, agentsEvent(t, "fast", "smart"))
	m = openChat(t, m, chatState(nil, nil))
	if l := statusLine(m); strings.Contains(l, "fast") || strings.Contains(l, "smart") {
		t.Fatalf("guessed a model among several: %q", l)
	}
}

func TestStatusModelFromTurnStarted(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = send(t, m, agentsEvent(t, "solo-model"))
	m = openChat(t, m, chatState(nil, nil))
	msg := ahpwire.UserMessage("go")
	msg.Model = &ahpwire.ModelSelection{ID: "picked-model"}
	m = send(t, m, envelope(2, &ahpwire.ChatTurnStarted{TurnID: "t9", Message: msg}))
	if l := statusLine(m); !strings.Contains(l, "picked-model") || strings.Contains(l, "solo-model") {
		t.Fatalf("the turn's selected model must win over the agent's: %q", l)
	}
	// Usage, once it arrives, names what actually ran.
	m = send(t, m, envelope(3, &ahpwire.ChatUsage{TurnID: "t9", Usage: ahpwire.UsageInfo{Model: "ran-model", InputTokens: ahpwire.Ptr(int64(5))}}))
	if l := statusLine(m); !strings.Contains(l, "ran-model") {
		t.Fatalf("usage model not shown: %q", l)
	}
}

// TestStatusModelShowsVendor: SessionModelInfo.vendor (AHP 1.1) is shown
// next to the model.
func TestStatusModelShowsVendor(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	a := ahpwire.AgentInfo{Provider: "demo", DisplayName: "Demo",
		Models: []ahpwire.SessionModelInfo{{ID: "solo-model", Provider: "demo", Name: "Solo", Vendor: "Acme AI"}}}
	m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{a}}))
	m = openChat(t, m, chatState(nil, nil))
	if l := statusLine(m); !strings.Contains(l, "solo-model · Acme AI") {
		t.Fatalf("vendor not next to the model: %q", l)
	}
}
