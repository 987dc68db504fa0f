package ahphost

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"
)

// seedBig seeds a session whose default chat holds about size bytes.
func seedBig(t testing.TB, h *Host, session string, size int) string {
	t.Helper()
	n := max(1, size/(64<<10))
	chat, err := h.SeedSession(session, SyntheticTurns(n, 64<<10))
	must(t, err)
	return chat
}

// TestHandshakeSubscriptionsDeduplicatedAndCapped: naming one chat 40
// times in initialSubscriptions builds one snapshot; more distinct
// channels than MaxSubscriptions (or a huge list) is refused, on
// initialize, reconnect and subscribe alike.
func TestHandshakeSubscriptionsDeduplicatedAndCapped(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxSubscriptions: 8})
	chat := seedBig(t, h, "ahp-session:/big", 256<<10)
	subs := make([]string, 0, 41)
	for range 40 {
		subs = append(subs, chat)
	}
	subs = append(subs, "ahp-root://")
	w := dial(t, u, nil)
	var res struct {
		Snapshots []struct {
			Resource string `json:"resource"`
		} `json:"snapshots"`
	}
	must(t, json.Unmarshal(w.initialize("c1", subs, nil), &res))
	if len(res.Snapshots) != 2 || res.Snapshots[0].Resource != chat || res.Snapshots[1].Resource != "ahp-root://" {
		t.Fatalf("%d snapshots for 2 distinct channels", len(res.Snapshots))
	}

	distinct := make([]string, 0, 9)
	for i := range 9 {
		distinct = append(distinct, fmt.Sprintf("ahp-chat:/c%d", i))
	}
	// 100,000 copies of one channel count once (issue 24):
	// TestDuplicateInitialSubscriptionsDoNotCount.
	for _, list := range [][]string{distinct} {
		w2 := dial(t, u, nil)
		code, _ := w2.callErr("initialize", map[string]any{
			"channel": "ahp-root://", "protocolVersions": []string{"1.0.0"}, "clientId": "c2", "initialSubscriptions": list,
		})
		if code != -32602 {
			t.Fatalf("initialize with %d subscriptions: code %d, want -32602", len(list), code)
		}
		code, _ = w2.callErr("reconnect", map[string]any{
			"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": 0, "subscriptions": list,
		})
		if code != -32602 {
			t.Fatalf("reconnect with %d subscriptions: code %d, want -32602", len(list), code)
		}
	}
	// subscribe: the connection already has 2; 6 more fit, the 9th does not.
	for i := range 6 {
		s := fmt.Sprintf("ahp-session:/x%d", i)
		w.call("createSession", map[string]any{"channel": s})
		w.call("subscribe", map[string]any{"channel": s})
	}
	w.call("subscribe", map[string]any{"channel": chat}) // already subscribed: allowed
	w.call("createSession", map[string]any{"channel": "ahp-session:/x9"})
	if code, _ := w.callErr("subscribe", map[string]any{"channel": "ahp-session:/x9"}); code != -32602 {
		t.Fatalf("subscription beyond the cap: code %d", code)
	}
}

// TestSnapshotsAreBuiltOutsideTheLock: while a connection's large
// snapshot is being encoded (held open here by a test hook), every other
// client is served; the host lock is not held during encoding.
func TestSnapshotsAreBuiltOutsideTheLock(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 8)
	hookBuildDeferred = func(c *conn) {
		c.h.mu.Lock()
		id := c.clientID
		c.h.mu.Unlock()
		if id == "a" {
			entered <- struct{}{}
			<-release
		}
	}
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(func() { hookBuildDeferred = nil })
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	t.Cleanup(unblock) // runs before the host closes
	chat := seedBig(t, h, "ahp-session:/big", 1<<20)
	attacker := dial(t, u, nil)
	attacker.request("initialize", map[string]any{
		"channel": "ahp-root://", "protocolVersions": []string{"1.0.0"}, "clientId": "a",
		"initialSubscriptions": []string{chat},
	})
	select {
	case <-entered:
	case <-time.After(testTimeout):
		t.Fatal("snapshot build never started")
	}
	other := dial(t, u, nil)
	other.initialize("b", []string{chat, "ahp-root://"}, nil)
	other.call("createSession", map[string]any{"channel": "ahp-session:/n"})
	other.call("listSessions", map[string]any{"channel": "ahp-root://"})
	unblock()
	var res struct {
		Snapshots []json.RawMessage `json:"snapshots"`
	}
	must(t, json.Unmarshal(attacker.response(1).Result, &res))
	if len(res.Snapshots) != 1 {
		t.Fatalf("%d snapshots", len(res.Snapshots))
	}
}
