package ahphost

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestWatchToken: a client with the watch token subscribes and reads a
// session another client runs, but cannot create, sign in or dispatch:
// its turn, cancel and terminal input are rejected (answered with a
// rejectionReason), its createSession refused; the full token still does
// everything. A watch token without a connection token is refused.
func TestWatchToken(t *testing.T) {
	_, u := startHost(t, Options{Token: "full-token-1", WatchToken: "watch-token-2", Pace: time.Millisecond})
	base := strings.Split(u, "?")[0]
	owner := dial(t, base+"?tkn=full-token-1", nil)
	owner.initialize("owner", nil, nil)
	chat := owner.createSession("ahp-session:/shared")
	owner.call("subscribe", map[string]any{"channel": chat})
	owner.sendMessage(chat, "t1", "hello", 1)
	owner.action("the owner's turn", func(e envelope) bool {
		return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnComplete
	})

	watcher := dial(t, base+"?tkn=watch-token-2", nil)
	watcher.initialize("watcher", nil, nil)
	watcher.call("subscribe", map[string]any{"channel": "ahp-session:/shared"})
	if snap := string(watcher.call("subscribe", map[string]any{"channel": chat})); !strings.Contains(snap, `"t1"`) {
		t.Fatalf("the watcher cannot read the chat: %.300s", snap)
	}
	if code, _ := watcher.callErr("createSession", map[string]any{"channel": "ahp-session:/mine"}); code != ahpwire.CodePermissionDenied {
		t.Fatalf("createSession with the watch token: code %d", code)
	}
	if code, _ := watcher.callErr("disposeSession", map[string]any{"channel": "ahp-session:/shared"}); code != ahpwire.CodePermissionDenied {
		t.Fatalf("disposeSession with the watch token: code %d", code)
	}
	watcher.sendMessage(chat, "t2", "hello from the watcher", 1)
	rej := watcher.action("the watcher's turn", func(e envelope) bool {
		return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnStarted && e.Origin != nil && e.Origin.ClientID == "watcher"
	})
	if !strings.Contains(rej.RejectionReason, "may only watch") {
		t.Fatalf("a watcher's turn: rejection %q", rej.RejectionReason)
	}
	owner.sendMessage(chat, "t3", "hello again", 2)
	owner.action("the owner's next turn", func(e envelope) bool {
		return e.Channel == chat && e.typ() == ahpwire.ActionChatTurnComplete
	})

	if _, err := New(Options{NoToken: true, WatchToken: "w"}); err == nil {
		t.Fatal("a watch token without a connection token was accepted")
	}
}
