package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestHintNamesSessionChanges: the hint line names the changes view once
// the chat's session lists changesets (session/changesetsChanged), read
// from the session's state when drawn, and drops it when they are gone.
func TestHintNamesSessionChanges(t *testing.T) {
	m, _ := newTestModel(t, 140, 30)
	m = openChat(t, m, chatState(nil, nil))
	hint := m.c.KM.Chat.Changes.Help().Key + " changes"
	if v := viewText(m); strings.Contains(v, hint) {
		t.Fatalf("%q without changesets:\n%s", hint, v)
	}
	sets := func(seq uint64, cs []ahpwire.Changeset) connEventMsg {
		return connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: testSession, ServerSeq: seq,
			Action: &ahpwire.SessionChangesetsChanged{Changesets: cs}}}}
	}
	m = send(t, m, sets(9, []ahpwire.Changeset{{Label: "Session Changes", URITemplate: "ahp-changeset:/s/session"}}))
	if v := viewText(m); !strings.Contains(v, hint) {
		t.Fatalf("no %q once the session lists changesets:\n%s", hint, v)
	}
	m = send(t, m, sets(10, nil))
	if v := viewText(m); strings.Contains(v, hint) {
		t.Fatalf("%q after the changesets were cleared:\n%s", hint, v)
	}
}
