package ahphost

import (
	"encoding/json"
	"testing"
)

// readUntil reads messages (pending first) until match returns true and
// returns every message read, the matching one last.
func (w *wsClient) readUntil(what string, match func(wire) bool) []wire {
	w.t.Helper()
	var got []wire
	for len(w.pending) > 0 {
		m := decodeWire(w.t, w.pending[0])
		w.pending = w.pending[1:]
		got = append(got, m)
		if match(m) {
			return got
		}
	}
	for {
		raw, err := w.readMsg(testTimeout)
		if err != nil {
			w.t.Fatalf("waiting for %s: %v (read %d messages)", what, err, len(got))
		}
		m := decodeWire(w.t, raw)
		got = append(got, m)
		if match(m) {
			return got
		}
	}
}

// envelopeOf decodes the envelope of an `action` message (ok=false for
// anything else).
func envelopeOf(t testing.TB, m wire) (envelope, bool) {
	t.Helper()
	if m.Method != "action" {
		return envelope{}, false
	}
	var e envelope
	must(t, json.Unmarshal(m.Params, &e))
	return e, true
}

// TestUnsubscribeStopsChatEnvelopes: after `unsubscribe` a connection gets
// no further envelopes of that chat while a turn runs on it from a second
// connection, yet stays alive (root notifications and ping responses
// arrive); subscribing again delivers the chat's envelopes again.
func TestUnsubscribeStopsChatEnvelopes(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	a := dial(t, u, nil)
	a.initialize("a", []string{"ahp-root://"}, nil)
	b := dial(t, u, nil)
	b.initialize("b", []string{"ahp-root://"}, nil)
	chat := b.createSession("ahp-session:/s1")
	readChat(t, b, chat, 0)
	readChat(t, a, chat, 0)

	// Subscribed: a sees b's turn.
	b.sendMessage(chat, "t1", "first", 1)
	a.action("t1 complete on a", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/turnComplete" })
	b.action("t1 complete on b", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/turnComplete" })
	a.pending = nil

	// Unsubscribe is a notification; the ping after it proves the host has
	// processed it (a connection's messages are handled in order).
	a.notify("unsubscribe", map[string]any{"channel": chat})
	a.call("ping", map[string]any{"channel": "ahp-root://"})

	// A whole turn runs while a is unsubscribed.
	b.sendMessage(chat, "t2", "second", 2)
	var t2Envelopes int
	for _, m := range b.readUntil("t2 complete on b", func(m wire) bool {
		e, ok := envelopeOf(t, m)
		return ok && e.Channel == chat && e.typ() == "chat/turnComplete"
	}) {
		if e, ok := envelopeOf(t, m); ok && e.Channel == chat {
			t2Envelopes++
		}
	}
	if t2Envelopes < 3 {
		t.Fatalf("b saw only %d envelopes of turn t2", t2Envelopes)
	}
	// A root action after the turn is a fence: action envelopes are never
	// reordered, so any t2 envelope queued for a would arrive before it.
	b.call("createSession", map[string]any{"channel": "ahp-session:/s2"})
	seen := a.readUntil("root/activeSessionsChanged", func(m wire) bool {
		e, ok := envelopeOf(t, m)
		return ok && e.Channel == "ahp-root://" && e.typ() == "root/activeSessionsChanged" &&
			string(e.Action) == `{"type":"root/activeSessionsChanged","activeSessions":2}`
	})
	// The connection is alive: it answers pings.
	id := a.request("ping", map[string]any{"channel": "ahp-root://"})
	seen = append(seen, a.readUntil("ping response", func(m wire) bool {
		return m.ID != nil && *m.ID == id && m.Method == ""
	})...)
	rootNotes := 0
	for _, m := range seen {
		if e, ok := envelopeOf(t, m); ok && e.Channel == chat {
			t.Fatalf("envelope of the unsubscribed chat delivered: %s %s", e.typ(), e.Action)
		}
		if m.Method == "root/sessionAdded" {
			rootNotes++
		}
		if m.Method != "" && m.Method != "action" && m.Method != "root/sessionAdded" {
			var p struct {
				Channel string `json:"channel"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.Channel == chat {
				t.Fatalf("notification %s for the unsubscribed chat delivered", m.Method)
			}
		}
	}
	if rootNotes != 1 {
		t.Fatalf("a got %d root/sessionAdded notifications, want 1", rootNotes)
	}

	// Subscribing again: the snapshot includes the missed turn and the next
	// turn's envelopes arrive live.
	st := readChat(t, a, chat, 0)
	if len(st.Turns) != 2 || st.Turns[1].ID != "t2" {
		t.Fatalf("re-subscribe snapshot has %d turns, want t1 and t2: %+v", len(st.Turns), st.Turns)
	}
	b.sendMessage(chat, "t3", "third", 3)
	got := a.readUntil("t3 complete on a", func(m wire) bool {
		e, ok := envelopeOf(t, m)
		return ok && e.Channel == chat && e.typ() == "chat/turnComplete"
	})
	started := false
	for _, m := range got {
		if e, ok := envelopeOf(t, m); ok && e.Channel == chat && e.typ() == "chat/turnStarted" {
			started = true
		}
	}
	if !started {
		t.Fatal("re-subscribed connection missed chat/turnStarted of t3")
	}
}
