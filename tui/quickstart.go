package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Quick start: every peer (Claude Code, Codex, crush) drops a newcomer into
// a prompt. With Options.QuickStart, a host with no sessions opens straight
// into a new chat with the first agent and the host's defaults (working
// directory, model, mode); the session picker (ctrl+s) and the new-session
// form (ctrl+n) are one key away. Keys typed while the chat is created go
// to its composer.

// quickStart creates the first session once, when the attached host's list
// and agents are known, the list is empty and nothing else is going on.
func (m *Model) quickStart() tea.Cmd {
	if !m.quick || m.connecting.active || m.c.Backend == nil || m.open != nil || len(m.overlays) > 0 ||
		m.screen != screenPicker || !m.picker.Loaded || len(m.picker.Agents) == 0 {
		return nil
	}
	m.quick = false
	if len(m.picker.Entries) > 0 || m.picker.Filter.Value() != "" {
		return nil
	}
	return m.createWith(m.picker.Agents[0].Provider, m.c.Dir, nil)
}

// demoProvider is the provider id of the embedded host's scripted demo
// agent (ahphost/demo.ProviderID): only its chats mention /demo help.
const demoProvider = "demo"

// setAgents shows the host's agents (root state) in the picker and notes
// whether the demo agent is among them.
func (m *Model) setAgents(a []ahpwire.AgentInfo) {
	m.picker.SetAgents(a)
	m.c.DemoAgent = false
	for _, ag := range a {
		if ag.Provider == demoProvider {
			m.c.DemoAgent = true
		}
	}
}

// typeAhead routes a typed key that no screen is ready for yet to where the
// user meant it: while a chat is being created, into the next composer's
// draft; while a prompt that opened by itself still holds its keys back
// (guardPrompt), into the composer behind it (the guard grows with each
// key, so a sentence is never taken as decisions). ok reports whether it
// took the key.
func (m *Model) typeAhead(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if !isTyping(k) {
		return nil, false
	}
	if n := len(m.overlays); n > 0 {
		g, ok := m.overlays[n-1].(interface {
			guardedPrompt
			Guarded() bool
		})
		if !ok || !g.Guarded() || m.chat == nil || m.screen != screenChat {
			return nil, false
		}
		if _, approval := g.(*dialog.Approval); approval && !m.typedAhead && m.decisionKey(k) && !m.midWord() {
			// The first key after the prompt appeared, a decision key,
			// and no word it would continue: meant for the prompt, not
			// the draft (where it went out with the next message).
			// Dropped, and said.
			return uikit.Notice(fmt.Sprintf("%q not typed: the approval prompt had just appeared (decision keys are off for a moment)", k.Text), false), true
		}
		m.typedAhead = true
		now := m.c.Now()
		m.lastTyped = now
		g.Guard(now.Add(promptGuard), m.c.Now)
		focus := m.chat.SetFocus(chat.FocusComposer)
		return tea.Batch(focus, m.chat.HandleKey(k),
			m.c.Tick(promptGuard, func(time.Time) tea.Msg { return promptGuardEndedMsg{} })), true
	}
	// A session being opened or created, or the new-session form being
	// prepared ("loading session options…"): the text is for its chat.
	if m.screen == screenPicker && (m.open != nil || m.picker.Status != "") {
		m.carry += k.Text
		return nil, true
	}
	return nil, false
}

// decisionKey reports whether k decides an approval prompt (a, d, r, 1-9…).
func (m *Model) decisionKey(k tea.KeyPressMsg) bool {
	km := &m.c.KM.Approval
	return key.Matches(k, km.Approve, km.Deny, km.DenyReason, km.Option)
}

// midWord reports whether the composer's draft ends inside a word (a key
// typed now continues it).
func (m *Model) midWord() bool {
	v := m.chat.Composer.Value()
	return v != "" && !strings.ContainsAny(v[len(v)-1:], " \t\n")
}
