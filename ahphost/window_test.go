package ahphost

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/segment"
)

// chatSnap is the part of a chat snapshot these tests read.
type chatSnap struct {
	Resource string `json:"resource"`
	State    struct {
		Turns []struct {
			ID string `json:"id"`
		} `json:"turns"`
		TurnsNextCursor string `json:"turnsNextCursor"`
	} `json:"state"`
}

// TestSnapshotsHonourThePeersLimit (issue 12): a chat far larger than the
// client's maximum message is delivered as a window of its newest turns
// with turnsNextCursor, on subscribe, initialize and reconnect, by a host
// that never builds an answer above the limit; fetchTurns pages in the
// rest, so a client that does not segment can still open the chat.
func TestSnapshotsHonourThePeersLimit(t *testing.T) {
	const frame = 256 << 10
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxFrameBytes: frame, ReplayLog: 2})
	chat, err := h.SeedSession("ahp-session:/big", SyntheticTurns(200, 16<<10)) // ~3.4 MB
	must(t, err)

	w := dial(t, u, nil) // no chunking: one 256 KiB frame is the limit
	var init struct {
		Snapshots []chatSnap `json:"snapshots"`
	}
	must(t, json.Unmarshal(w.initialize("c1", []string{chat}, nil), &init))
	if w.maxFrame > frame {
		t.Fatalf("initialize answer of %d bytes above the %d limit", w.maxFrame, frame)
	}
	s := init.Snapshots[0].State
	if len(s.Turns) == 0 || len(s.Turns) >= 200 || s.TurnsNextCursor == "" || s.Turns[len(s.Turns)-1].ID != "seed-199" {
		t.Fatalf("initialize window: %d turns, cursor %q", len(s.Turns), s.TurnsNextCursor)
	}
	// Page in everything older through fetchTurns.
	seen := len(s.Turns)
	cursor := s.TurnsNextCursor
	for cursor != "" {
		w.call("fetchTurns", map[string]any{"channel": chat, "cursor": cursor, "limit": 20})
		e := w.actionOfType(chat, "chat/turnsLoaded")
		var a struct {
			Turns           []json.RawMessage `json:"turns"`
			TurnsNextCursor string            `json:"turnsNextCursor"`
		}
		must(t, json.Unmarshal(e.Action, &a))
		seen += len(a.Turns)
		cursor = a.TurnsNextCursor
	}
	if seen != 200 {
		t.Fatalf("window plus pages gave %d turns, want 200", seen)
	}

	var sub struct {
		Snapshot        chatSnap `json:"snapshot"`
		TurnsNextCursor string   `json:"turnsNextCursor"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat}), &sub))
	if sub.TurnsNextCursor == "" || sub.TurnsNextCursor != sub.Snapshot.State.TurnsNextCursor {
		t.Fatalf("subscribe cursor %q / %q", sub.TurnsNextCursor, sub.Snapshot.State.TurnsNextCursor)
	}
	w.close()

	// reconnect (snapshot variant: the replay log is tiny), with chunking.
	w2 := dial(t, u, nil)
	w2.reasm = segment.NewReassembler(segment.Limits{MaxFrameBytes: 64 << 10, MaxMessageBytes: 512 << 10}, nil)
	var rec struct {
		Type      string     `json:"type"`
		Snapshots []chatSnap `json:"snapshots"`
	}
	must(t, json.Unmarshal(w2.call("reconnect", map[string]any{
		"channel": "ahp-root://", "clientId": "c1", "lastSeenServerSeq": 0, "subscriptions": []string{chat},
		"capabilities": map[string]any{"chunking": map[string]any{"maxIncomingFrameBytes": 64 << 10, "maxIncomingMessageBytes": 512 << 10}},
	}), &rec))
	if rec.Type != "snapshot" || len(rec.Snapshots) != 1 || rec.Snapshots[0].State.TurnsNextCursor == "" ||
		len(rec.Snapshots[0].State.Turns) <= len(s.Turns) {
		t.Fatalf("reconnect: %q, %d snapshots", rec.Type, len(rec.Snapshots))
	}
}
