package ahphost

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// bigDraft gives chat a 100 KB draft: a state that no turn window can
// shrink below a 64 KiB frame.
func bigDraft(t *testing.T, h *Host, chat string) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	ce := h.st.chats[chat]
	d := ahpwire.UserMessage(strings.Repeat("d", 100<<10))
	ce.state = reduceChat(ce.state, &ahpwire.ChatDraftChanged{Draft: &d})
}

// TestFailedReconnectChangesNoState: a reconnect whose answer is too large
// for a client without chunking (even windowed) fails with -32050 and leaves the
// connection uninitialized and unsubscribed, so the initialize fallback of
// the official TypeScript runtime succeeds (it used to get -32600
// "connection already initialized").
func TestFailedReconnectChangesNoState(t *testing.T) {
	// A short replay log forces the snapshot variant.
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxFrameBytes: 64 << 10, ReplayLog: 2})
	chat := seedBig(t, h, "ahp-session:/big", 256<<10)
	bigDraft(t, h, chat)
	first := dial(t, u, nil)
	first.reasm = segment.NewReassembler(segment.Limits{MaxFrameBytes: 16 << 10, MaxMessageBytes: 1 << 20}, nil)
	first.initialize("c1", []string{"ahp-root://"}, map[string]any{"maxIncomingFrameBytes": 16 << 10, "maxIncomingMessageBytes": 1 << 20})
	first.call("subscribe", map[string]any{"channel": chat})
	first.close()

	w := dial(t, u, nil)
	code, _ := w.callErr("reconnect", map[string]any{
		"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": 0,
		"subscriptions": []string{"ahp-root://", chat},
		"capabilities":  map[string]any{},
	})
	if code != -32050 {
		t.Fatalf("reconnect: code %d, want -32050", code)
	}
	// Activity on the chat's session must not reach the failed connection.
	other := dial(t, u, nil)
	other.initialize("c2", nil, nil)
	other.call("createChat", map[string]any{"channel": "ahp-session:/big", "chat": "ahp-chat:/side"})
	if code, _ := w.callErr("listSessions", map[string]any{"channel": "ahp-root://"}); code != -32600 {
		t.Fatalf("listSessions after a failed reconnect: code %d, want -32600 (not initialized)", code)
	}
	var res struct {
		Snapshots []json.RawMessage `json:"snapshots"`
	}
	must(t, json.Unmarshal(w.initialize("c1", []string{"ahp-root://"}, nil), &res))
	if len(res.Snapshots) != 1 {
		t.Fatalf("%d snapshots after the initialize fallback", len(res.Snapshots))
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"})
	for _, raw := range w.pending {
		if m := decodeWire(t, raw); m.Method == "action" {
			t.Fatalf("action delivered to a connection whose handshake failed: %s", clip(raw))
		}
	}
	h.mu.Lock()
	rec := h.st.clients["c1"]
	h.mu.Unlock()
	if rec == nil {
		t.Fatal("client record lost")
	}
}

// TestFailedInitializeChangesNoState: an initialize whose snapshots do not
// fit the client fails with -32050; a second initialize then succeeds.
func TestFailedInitializeChangesNoState(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxFrameBytes: 64 << 10})
	chat := seedBig(t, h, "ahp-session:/big", 256<<10)
	bigDraft(t, h, chat)
	w := dial(t, u, nil)
	code, _ := w.callErr("initialize", map[string]any{
		"channel": "ahp-root://", "protocolVersions": []string{"1.0.0"}, "clientId": "x",
		"initialSubscriptions": []string{chat},
	})
	if code != -32050 {
		t.Fatalf("initialize: code %d, want -32050", code)
	}
	h.mu.Lock()
	_, known := h.st.clients["x"]
	subs := len(h.st.subs[chat])
	h.mu.Unlock()
	if known || subs != 0 {
		t.Fatalf("failed initialize left state: client known %v, %d chat subscribers", known, subs)
	}
	w.initialize("x", []string{"ahp-root://"}, nil)
}
