package ahphost

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestLargeReplyMirrorAgreesWithSnapshot (issue 21): a client that mirrors
// a chat from the action stream with AHP's reducers holds the same state
// as a fresh snapshot after a reply larger than LargePartBytes — the host
// changes the chat only through actions. The fresh snapshot is a window
// (its turns are the mirror's newest turns, turnsNextCursor leads to the
// rest), and the large turn reaches a fresh client through fetchTurns, by
// reference.
func TestLargeReplyMirrorAgreesWithSnapshot(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10})
	w := dial(t, u, nil)
	w.initialize("mirror", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/m1")
	var sub struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat}), &sub))
	mirror, err := ahpwire.DecodeChatState(sub.Snapshot.State)
	must(t, err)
	from := sub.Snapshot.FromSeq
	seq := uint64(1)
	for _, id := range []string{"t1", "t2"} {
		text := "/demo big 300000"
		if id == "t2" {
			text = "and a short one"
		}
		w.sendMessage(chat, id, text, seq)
		_, _ = driveTurn(t, w, chat, id, true, &seq)
		seq++
	}
	for _, e := range w.seen {
		if e.Channel != chat || e.ServerSeq <= from || e.RejectionReason != "" {
			continue
		}
		a, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		mirror = ahpstate.ReduceChat(mirror, a)
	}
	if len(mirror.Turns) != 2 {
		t.Fatalf("mirror has %d turns", len(mirror.Turns))
	}

	fresh := dial(t, u, nil)
	fresh.initialize("fresh", nil, nil)
	snap := chatWire(t, fresh, chat)
	if snap.TurnsNextCursor == "" || len(snap.Turns) != 1 || snap.Turns[0].ID != "t2" {
		t.Fatalf("fresh snapshot: %d turns, cursor %q", len(snap.Turns), snap.TurnsNextCursor)
	}
	want := mirror
	want.Turns = mirror.Turns[len(mirror.Turns)-len(snap.Turns):]
	want.TurnsNextCursor = snap.TurnsNextCursor
	if g, w := mustJSONBytes(t, snap), mustJSONBytes(t, want); string(g) != string(w) {
		t.Fatalf("fresh snapshot differs from the mirror\nsnapshot %.600s\nmirror   %.600s", g, w)
	}
	// The mirror still has the reply inline: nothing rewrote it.
	if p := mirror.Turns[0].ResponseParts; len(p) == 0 || countKind(p, ahpwire.PartContentRef) != 0 {
		t.Fatalf("the mirror's turn has contentRef parts: only actions change the state")
	}
	// fetchTurns serves the large turn by reference.
	fresh.call("fetchTurns", map[string]any{"channel": chat, "cursor": snap.TurnsNextCursor})
	var loaded ahpwire.ChatTurnsLoaded
	must(t, json.Unmarshal(fresh.actionOfType(chat, "chat/turnsLoaded").Action, &loaded))
	if len(loaded.Turns) != 1 || countKind(loaded.Turns[0].ResponseParts, ahpwire.PartContentRef) == 0 {
		t.Fatalf("fetchTurns page: %d turns", len(loaded.Turns))
	}
}

func countKind(parts []ahpwire.ResponsePart, kind string) int {
	n := 0
	for _, p := range parts {
		if p.Kind == kind {
			n++
		}
	}
	return n
}

func mustJSONBytes(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return b
}
