package ahphost

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// mirrorChat subscribes w to chat and returns the snapshot's state and
// fromSeq.
func mirrorChat(t *testing.T, w *wsClient, chat string) (ahpwire.ChatState, uint64) {
	t.Helper()
	var sub struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": chat}), &sub))
	st, err := ahpwire.DecodeChatState(sub.Snapshot.State)
	must(t, err)
	return st, sub.Snapshot.FromSeq
}

// reduceSeen reduces the accepted envelopes of chat that w has seen after
// serverSeq from into st.
func reduceSeen(t *testing.T, w *wsClient, chat string, st ahpwire.ChatState, from uint64) ahpwire.ChatState {
	t.Helper()
	for _, e := range w.seen {
		if e.Channel != chat || e.ServerSeq <= from || e.RejectionReason != "" {
			continue
		}
		a, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		st = ahpstate.ReduceChat(st, a)
	}
	return st
}

// pageIn reduces every older page of chat (fetchTurns from the state's
// cursor until there is none) into st.
func pageIn(t *testing.T, w *wsClient, chat string, st ahpwire.ChatState) ahpwire.ChatState {
	t.Helper()
	for st.TurnsNextCursor != "" {
		w.call("fetchTurns", map[string]any{"channel": chat, "cursor": st.TurnsNextCursor})
		a, err := ahpwire.DecodeAction(w.actionOfType(chat, ahpwire.ActionChatTurnsLoaded).Action)
		must(t, err)
		st = ahpstate.ReduceChat(st, a)
	}
	return st
}

// TestLiveAndPagedClientsHoldTheSameBigTurn (issue 31): two clients of one
// chat — one subscribed live through a 3,000,000-byte reply, one that
// subscribes afterwards and pages the turn in with fetchTurns — reduce
// their actions to equal ChatStates (deep JSON equality): the reply is the
// same parts for both (an inline head, then contentRef pages the host
// appended with actions while it streamed), and the pages give the reply
// back through resourceRead.
func TestLiveAndPagedClientsHoldTheSameBigTurn(t *testing.T) {
	const size = 3000000
	_, u := startHost(t, Options{NoToken: true})
	live := dial(t, u, nil)
	live.initialize("live", []string{ahpwire.RootURI}, nil)
	chat := live.createSession("ahp-session:/big3")
	mirror, from := mirrorChat(t, live, chat)
	seq := uint64(1)
	live.sendMessage(chat, "t1", "/demo big "+itoa(size), seq)
	driveTurn(t, live, chat, "t1", true, &seq)
	mirror = reduceSeen(t, live, chat, mirror, from)
	if live.maxFrame > 1<<20 {
		t.Errorf("the live client got a %d-byte frame: the reply streamed inline", live.maxFrame)
	}

	late := dial(t, u, nil)
	late.initialize("late", nil, nil)
	paged, _ := mirrorChat(t, late, chat)
	if paged.TurnsNextCursor == "" {
		t.Fatalf("the late snapshot holds the big turn inline (%d turns)", len(paged.Turns))
	}
	paged = pageIn(t, late, chat, paged)

	if g, w := mustJSONBytes(t, paged), mustJSONBytes(t, mirror); string(g) != string(w) {
		t.Fatalf("live and paged clients disagree\nlive  %.800s\npaged %.800s", w, g)
	}
	parts := mirror.Turns[0].ResponseParts
	refs := countKind(parts, ahpwire.PartContentRef)
	if refs < 10 || parts[0].Kind != ahpwire.PartMarkdown || int64(len(parts[0].Content)) > DefaultPagedPartBytes {
		t.Fatalf("turn parts: %d refs, first %s of %d bytes", refs, parts[0].Kind, len(parts[0].Content))
	}
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case ahpwire.PartMarkdown:
			b.WriteString(p.Content)
		case ahpwire.PartContentRef:
			var r ahpwire.ResourceReadResult
			must(t, json.Unmarshal(late.call("resourceRead", map[string]any{"channel": ahpwire.RootURI, "uri": p.Ref.URI}), &r))
			b.WriteString(r.Data)
		}
	}
	if b.String() != demo.BigReply(size) {
		t.Fatalf("the parts give %d bytes, not the %d-byte reply", b.Len(), size)
	}
}

// TestLargeReplyMirrorAgreesWithSnapshot (issue 21): a client that mirrors
// a chat from the action stream with AHP's reducers holds the same state
// as a fresh snapshot after a reply larger than LargePartBytes — the host
// changes the chat only through actions. The fresh snapshot is a window
// (its turns are the mirror's newest turns, turnsNextCursor leads to the
// rest), and the large turn, paged in, is the mirror's.
func TestLargeReplyMirrorAgreesWithSnapshot(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, LargePartBytes: 64 << 10, ResourcePageBytes: 16 << 10})
	w := dial(t, u, nil)
	w.initialize("mirror", []string{"ahp-root://"}, nil)
	chat := w.createSession("ahp-session:/m1")
	mirror, from := mirrorChat(t, w, chat)
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
	mirror = reduceSeen(t, w, chat, mirror, from)
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
	if p := mirror.Turns[0].ResponseParts; countKind(p, ahpwire.PartContentRef) == 0 {
		t.Fatalf("the big reply reached the mirror without pages: %d parts", len(p))
	}
	if g, w := mustJSONBytes(t, pageIn(t, fresh, chat, snap)), mustJSONBytes(t, mirror); string(g) != string(w) {
		t.Fatalf("the paged-in chat differs from the mirror\npaged  %.600s\nmirror %.600s", g, w)
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
