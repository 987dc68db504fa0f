package ahphost

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestTurnIDCollisionAcrossChats: turn ids are scoped by their chat: a
// client that numbers turns per chat (t1 in every session) runs them all,
// and every URI made for a turn names its chat, so another session
// reusing a victim's turn id reaches none of the victim's terminals
// (issue 24 item 4; issue 32: refusing the id hung such a client).
func TestTurnIDCollisionAcrossChats(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Pace: time.Millisecond})
	victim, attacker := dial(t, u, nil), dial(t, u, nil)
	victim.initialize("victim", nil, nil)
	attacker.initialize("attacker", nil, nil)
	chatV := victim.createSession("ahp-session:/victim")
	chatA := attacker.createSession("ahp-session:/attacker")
	readChat(t, victim, chatV, 0)
	readChat(t, attacker, chatA, 0)
	terminalOf := func(w *wsClient, chat string) string {
		t.Helper()
		e := w.actionOfType(chat, ahpwire.ActionChatToolCallContentChanged)
		var cc ahpwire.ChatToolCallContentChanged
		must(t, json.Unmarshal(e.Action, &cc))
		return cc.Content[0].Resource
	}
	victim.sendMessage(chatV, "t1", "/demo shell plain", 1)
	termV := terminalOf(victim, chatV)

	attacker.sendMessage(chatA, "t1", "/demo shell plain", 1)
	started := attacker.action("the same turn id in another chat", func(e envelope) bool {
		return e.Channel == chatA && e.typ() == ahpwire.ActionChatTurnStarted
	})
	if started.RejectionReason != "" {
		t.Fatalf("turn id t1 of another chat refused: %q", started.RejectionReason)
	}
	if termA := terminalOf(attacker, chatA); termA == termV || !strings.Contains(termV, "victim") || !strings.Contains(termA, "attacker") {
		t.Fatalf("terminal URIs not scoped by chat: %s, %s", termV, termA)
	}
}
