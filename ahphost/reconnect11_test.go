package ahphost

import (
	"encoding/json"
	"testing"
)

// channelsResult11 is a decoded 1.1 reconnect result.
type channelsResult11 struct {
	Type     string `json:"type"`
	Channels []struct {
		Kind     string           `json:"kind"`
		Channel  string           `json:"channel"`
		Actions  *[]envelope      `json:"actions"`
		Snapshot *json.RawMessage `json:"snapshot"`
	} `json:"channels"`
}

// TestReconnectPerChannelCursors (AHP 1.1): each channel recovers from its
// own cursor — a slow channel's missed actions are replayed even though a
// faster channel went further, a disposed chat is "missing", a cursor the
// replay log no longer covers gets a snapshot — in one result; a 1.0
// reconnect keeps working on the same host.
func TestReconnectPerChannelCursors(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, ReplayLog: 150, DeltaWindow: -1}) // (every delta an envelope: the long turn outgrows the log)
	w := dial(t, u, nil)
	init := w.call("initialize", map[string]any{"channel": "ahp-root://", "protocolVersions": []string{"1.1.0", "1.0.0"},
		"clientId": "c11", "capabilities": map[string]any{"steeringMessages": map[string]any{}}})
	var ir struct {
		ProtocolVersion string `json:"protocolVersion"`
		Capabilities    struct {
			SteeringMessages *json.RawMessage `json:"steeringMessages"`
		} `json:"capabilities"`
	}
	must(t, json.Unmarshal(init, &ir))
	if ir.ProtocolVersion != "1.1.0" || ir.Capabilities.SteeringMessages == nil {
		t.Fatalf("initialize: %s", init)
	}
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	w.call("createChat", map[string]any{"channel": "ahp-session:/s1", "chat": "ahp-chat:/side"})
	readChat(t, w, "ahp-chat:/side", 0)
	w.call("createChat", map[string]any{"channel": "ahp-session:/s1", "chat": "ahp-chat:/gone"})
	readChat(t, w, "ahp-chat:/gone", 0)
	seq := uint64(1)
	// A long turn in the main chat first, so the replay log (150) no
	// longer covers the main chat's start, then one in the side chat.
	w.sendMessage(chat, "tm", "main", seq)
	_, _ = driveTurn(t, w, chat, "tm", true, &seq)
	seq++
	w.sendMessage("ahp-chat:/side", "t0", "side", seq)
	side := w.actionOfType("ahp-chat:/side", "chat/turnStarted")
	_, _ = driveTurn(t, w, "ahp-chat:/side", "t0", true, &seq)
	w.close()
	other := dial(t, u, nil)
	other.initialize("c2", nil, nil)
	other.call("disposeChat", map[string]any{"channel": "ahp-chat:/gone"})

	w2 := dial(t, u, nil)
	var res channelsResult11
	raw := w2.call("reconnect", map[string]any{"channel": "ahp-root://", "clientId": "c11",
		"subscriptions": []map[string]any{
			{"channel": "ahp-root://", "lastSeenServerSeq": side.ServerSeq},
			{"channel": chat, "lastSeenServerSeq": 0}, // before the replay log: snapshot
			{"channel": "ahp-chat:/side", "lastSeenServerSeq": side.ServerSeq},
			{"channel": "ahp-chat:/gone", "lastSeenServerSeq": side.ServerSeq},
		}})
	must(t, json.Unmarshal(raw, &res))
	if res.Type != "" || len(res.Channels) != 4 {
		t.Fatalf("result %s", raw)
	}
	kinds := map[string]string{}
	for _, c := range res.Channels {
		kinds[c.Channel] = c.Kind
		switch c.Kind {
		case "replay":
			if c.Actions == nil {
				t.Fatalf("replay of %s without actions: %s", c.Channel, raw)
			}
			for _, e := range *c.Actions {
				if e.Channel != c.Channel || e.ServerSeq <= side.ServerSeq {
					t.Fatalf("replay of %s holds seq %d of %s", c.Channel, e.ServerSeq, e.Channel)
				}
			}
		case "snapshot":
			if c.Snapshot == nil {
				t.Fatalf("snapshot of %s missing: %s", c.Channel, raw)
			}
		}
	}
	want := map[string]string{"ahp-root://": "replay", chat: "snapshot", "ahp-chat:/side": "replay", "ahp-chat:/gone": "missing"}
	for ch, k := range want {
		if kinds[ch] != k {
			t.Errorf("%s recovered by %q, want %q (%s)", ch, kinds[ch], k, raw)
		}
	}
	for _, c := range res.Channels {
		if c.Channel == "ahp-chat:/side" && (c.Actions == nil || len(*c.Actions) == 0) {
			t.Errorf("the side chat's turn after its cursor was not replayed: %s", raw)
		}
	}

	// The 1.0 shape still works against the same host.
	w3 := dial(t, u, nil)
	var old reconnectResult
	must(t, json.Unmarshal(w3.call("reconnect", map[string]any{"channel": "ahp-root://", "clientId": "c11",
		"lastSeenServerSeq": side.ServerSeq, "subscriptions": []string{"ahp-root://", "ahp-chat:/side"}}), &old))
	if old.Type != "replay" && old.Type != "snapshot" {
		t.Fatalf("1.0 reconnect type %q", old.Type)
	}
}
