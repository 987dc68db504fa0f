package ahphost

import (
	"encoding/json"
	"strings"
	"testing"
)

// reconnectResult is the decoded reconnect result.
type reconnectResult struct {
	Type      string            `json:"type"`
	Actions   []envelope        `json:"actions"`
	Missing   []string          `json:"missing"`
	Snapshots []json.RawMessage `json:"snapshots"`
}

func TestReconnectReplay(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	w.call("createChat", map[string]any{"channel": "ahp-session:/s1", "chat": "ahp-chat:/side"})
	readChat(t, w, "ahp-chat:/side", 0)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "first", seq)
	first := w.actionOfType(chat, "chat/turnStarted")
	_, _ = driveTurn(t, w, chat, "t1", true, &seq)
	// Everything the client received after `first`, in order.
	var want []envelope
	for _, e := range w.seen {
		if e.ServerSeq > first.ServerSeq {
			want = append(want, e)
		}
	}
	for _, raw := range w.pending {
		m := decodeWire(t, raw)
		if m.Method != "action" {
			continue
		}
		var e envelope
		must(t, json.Unmarshal(m.Params, &e))
		if e.ServerSeq > first.ServerSeq {
			want = append(want, e)
		}
	}
	w.close()
	// The side chat disappears while the client is away.
	other := dial(t, u, nil)
	other.initialize("c2", nil, nil)
	other.call("disposeChat", map[string]any{"channel": "ahp-chat:/side"})

	w2 := dial(t, u, nil)
	var res reconnectResult
	must(t, json.Unmarshal(w2.call("reconnect", map[string]any{
		"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": first.ServerSeq,
		"subscriptions": []string{"ahp-root://", "ahp-session:/s1", chat, "ahp-chat:/side"},
	}), &res))
	if res.Type != "replay" || strings.Join(res.Missing, ",") != "ahp-chat:/side" {
		t.Fatalf("result type %q missing %v", res.Type, res.Missing)
	}
	// The replay holds every envelope the client had seen after `first`
	// (same seqs, same actions), plus the session's chatRemoved.
	got := map[uint64]envelope{}
	last := first.ServerSeq
	for _, e := range res.Actions {
		if e.ServerSeq <= last {
			t.Fatalf("replay out of order: %d after %d", e.ServerSeq, last)
		}
		last = e.ServerSeq
		got[e.ServerSeq] = e
	}
	for _, e := range want {
		g, ok := got[e.ServerSeq]
		if !ok || string(g.Action) != string(e.Action) || g.Channel != e.Channel {
			t.Fatalf("replay lacks seq %d %s", e.ServerSeq, e.Action)
		}
	}
	var sawRemoved bool
	for _, e := range res.Actions {
		sawRemoved = sawRemoved || e.typ() == "session/chatRemoved"
	}
	// (The host may have emitted more after the client left, e.g. the
	// session's chatUpdated that follows turnComplete.)
	if !sawRemoved || len(res.Actions) < len(want)+1 {
		t.Fatalf("replay has %d actions, want ≥ %d + chatRemoved", len(res.Actions), len(want))
	}
	// Subscriptions resumed: a new turn streams to the new connection.
	seq++
	w2.sendMessage(chat, "t2", "second", seq)
	if _, end := driveTurn(t, w2, chat, "t2", true, &seq); end.typ() != "chat/turnComplete" {
		t.Fatalf("turn after reconnect ended with %s", end.typ())
	}
}

func TestReconnectSnapshotWhenLogExceeded(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, ReplayLog: 8})
	w := dial(t, u, nil)
	w.initialize("c1", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 2)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "first", seq)
	first := w.actionOfType(chat, "chat/turnStarted")
	_, _ = driveTurn(t, w, chat, "t1", true, &seq)
	w.close()

	w2 := dial(t, u, nil)
	var res reconnectResult
	must(t, json.Unmarshal(w2.call("reconnect", map[string]any{
		"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": first.ServerSeq,
		"subscriptions": []string{"ahp-root://", chat, "ahp-chat:/gone"},
	}), &res))
	if res.Type != "snapshot" || len(res.Snapshots) != 2 {
		t.Fatalf("type %q with %d snapshots", res.Type, len(res.Snapshots))
	}
	var snap struct {
		Resource string        `json:"resource"`
		FromSeq  uint64        `json:"fromSeq"`
		State    chatStateView `json:"state"`
	}
	must(t, json.Unmarshal(res.Snapshots[1], &snap))
	if snap.Resource != chat || len(snap.State.Turns) != 1 || snap.State.Turns[0].State != "complete" || snap.FromSeq <= first.ServerSeq {
		t.Fatalf("chat snapshot %+v", snap)
	}
}

func TestReconnectErrors(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.initialize("known", nil, nil)
	tests := []struct {
		name   string
		params map[string]any
	}{
		{"unknown client", map[string]any{"channel": "ahp-root://", "clientId": "stranger", "lastSeenServerSeq": 0, "subscriptions": []string{}}},
		{"seq from the future", map[string]any{"channel": "ahp-root://", "clientId": "known", "lastSeenServerSeq": 1 << 40, "subscriptions": []string{}}},
		{"bad capabilities", map[string]any{"channel": "ahp-root://", "clientId": "known", "lastSeenServerSeq": 0, "subscriptions": []string{},
			"capabilities": map[string]any{"chunking": map[string]any{"maxIncomingFrameBytes": 100, "maxIncomingMessageBytes": 10}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, u, nil)
			if code, _ := c.callErr("reconnect", tc.params); code != -32602 {
				t.Fatalf("code %d, want -32602", code)
			}
		})
	}
}

// A reconnect with nothing to replay answers "actions": [] (the spec's type
// is an array; the official TypeScript client crashes on null).
func TestReconnectNothingToReplay(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	var init struct {
		ServerSeq uint64 `json:"serverSeq"`
	}
	must(t, json.Unmarshal(w.initialize("c1", []string{"ahp-root://"}, nil), &init))
	w.close()
	w2 := dial(t, u, nil)
	raw := w2.call("reconnect", map[string]any{
		"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": init.ServerSeq,
		"subscriptions": []string{"ahp-root://"},
	})
	var res map[string]json.RawMessage
	must(t, json.Unmarshal(raw, &res))
	if string(res["type"]) != `"replay"` || string(res["actions"]) != "[]" || string(res["missing"]) != "[]" {
		t.Fatalf("reconnect with nothing to replay: %s", raw)
	}
}
