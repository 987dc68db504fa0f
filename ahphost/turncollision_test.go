package ahphost

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestTurnIDCollisionAcrossChats: a turn id already used in one chat is
// refused in another, and the demo's terminal URIs are scoped by chat, so
// another session cannot take over a victim's terminal by reusing its turn
// id (issue 24 item 4).
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
	rej := attacker.action("the reused turn id", func(e envelope) bool {
		return e.Channel == chatA && e.typ() == ahpwire.ActionChatTurnStarted
	})
	if !strings.Contains(rej.RejectionReason, "already used in another chat") {
		t.Fatalf("turn id reused across chats: rejection %q", rej.RejectionReason)
	}
	attacker.sendMessage(chatA, "t2", "/demo shell plain", 2)
	if termA := terminalOf(attacker, chatA); termA == termV || !strings.Contains(termV, "victim") {
		t.Fatalf("terminal URIs not scoped by chat: %s, %s", termV, termA)
	}
}
