//go:build unix

package ahphost

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// TestDurableWritesFlatAcrossReplies: what the state database writes for
// one streamed reply does not grow with the chat it goes into, and the
// chat, snapshotted along the way (its snapshots are written after the
// batch that ends a turn), comes back whole after a restart. Twelve
// replies of 1 MB (an inline head and resource pages) into one chat a
// client follows; the bytes the database wrote per reply (bbolt's page
// writes, write amplification included) must stay flat. Before format 2
// the chat's snapshot shared a B+tree leaf with its log, so every commit
// of a reply rewrote the whole chat: the later replies wrote several
// times what the first ones did.
func TestDurableWritesFlatAcrossReplies(t *testing.T) {
	state := t.TempDir()
	r := newStreamRig(t, Options{Durable: true, StateDir: state})
	const replies = 12
	var written []int64
	for i := 0; i < replies; i++ {
		w := r.written()
		r.reply(t, "/demo stream 1m")
		written = append(written, r.written()-w)
	}
	t.Logf("bytes written per reply: %v", written)
	early, late := slices.Clone(written[1:4]), slices.Clone(written[replies-3:])
	slices.Sort(early)
	slices.Sort(late)
	if late[1] > early[1]*3/2 {
		t.Fatalf("the database wrote %d bytes for a late reply against %d for an early one (per reply: %v)", late[1], early[1], written)
	}
	// What a reply writes beyond its bytes depends on how its actions fall
	// into commits, each rewriting the pages it touches: 1.5–2.5 MB per
	// 1 MB reply here, 2.4–4.7 MB with the race detector, whose slower
	// host makes more, smaller commits.
	bound := int64(3 << 20)
	if raceEnabled {
		bound = 6 << 20
	}
	if late[1] > bound {
		t.Fatalf("a 1 MB reply made the database write %d bytes", late[1])
	}

	before := chatJSON(t, r.h, r.chat)
	must(t, r.h.Close())
	h, _ := startDurable(t, state, Options{})
	if after := chatJSON(t, h, r.chat); !bytes.Equal(after, before) {
		t.Fatalf("the chat changed across a restart: %d bytes before, %d after", len(before), len(after))
	}
}

// chatJSON is chat's whole state in h (read from disk when it is there
// only), encoded.
func chatJSON(t *testing.T, h *Host, chat string) []byte {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	ce := h.st.chat(chat)
	if ce == nil {
		t.Fatalf("chat %s not found", chat)
	}
	b, err := json.Marshal(ce.state)
	must(t, err)
	return b
}
