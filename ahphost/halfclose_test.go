package ahphost

import (
	"net"
	"testing"
)

// TestHalfCloseMidMessageIsNotApplied: coder/websocket v1.8.15 returns an
// unfinished fragmented message as complete when the peer half-closes
// after its first fragment. The host must discard such a message and close
// rather than apply it (issue 24 item 1). A complete JSON text in the first
// fragment makes only the framing say it is unfinished.
func TestHalfCloseMidMessageIsNotApplied(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	nc := rawWS(t, u)
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"channel":"ahp-root://",` +
		`"protocolVersions":["1.0.0","0.9.0"],"clientId":"half","initialSubscriptions":[]}}`)
	_, err := nc.Write(append(frameHeader(true, 1, len(init)), init...))
	must(t, err)
	waitUntil(t, "initialized", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.st.clients["half"] != nil
	})
	create := []byte(`{"jsonrpc":"2.0","id":2,"method":"createSession","params":{"channel":"ahp-session:/cut"}}`)
	_, err = nc.Write(append(frameHeader(false, 1, len(create)), create...))
	must(t, err)
	must(t, nc.(*net.TCPConn).CloseWrite())
	waitUntil(t, "connection closed", func() bool { return h.Connections() == 0 })
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.st.sessions["ahp-session:/cut"] != nil {
		t.Fatal("an unfinished fragmented createSession was applied at the half-close")
	}
}

// TestDuplicateInitialSubscriptionsDoNotCount: the same channel listed many
// times in initialSubscriptions counts once toward MaxSubscriptions (issue
// 24, minor).
func TestDuplicateInitialSubscriptionsDoNotCount(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxSubscriptions: 2})
	w := dial(t, u, nil)
	defer w.close()
	subs := make([]string, 100000) // as the soak's amplify attack sends
	for i := range subs {
		subs[i] = "ahp-root://"
	}
	w.initialize("dups", subs, nil)
	w.call("ping", map[string]any{"channel": "ahp-root://"})
}
