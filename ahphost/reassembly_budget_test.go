package ahphost

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/segment"
)

// hostileFirstSegment is a ~750-byte first segment declaring total 65535.
func hostileFirstSegment(gid string) string {
	return segFrame(fmt.Sprintf(`{"groupId":%q,"index":0,"total":65535,"data":%q}`, gid, b64(strings.Repeat("x", 480))))
}

// waitBudget waits until the host's reassembly budget holds want bytes
// (or at most want when atMost).
func waitBudget(t *testing.T, h *Host, ok func(int64) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !ok(h.reasmBud.Used()) {
		if time.Now().After(deadline) {
			t.Fatalf("reassembly budget holds %d bytes; want %s", h.reasmBud.Used(), what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestHostileSegmentsBoundedAcrossConnections: 30 connections × 8 groups of
// ~750-byte first segments declaring total 65535 hold what arrived (a few
// hundred KB), not 30 × 8 × 32 MiB, and the bytes come back when the
// connections close. Before the fix each group reserved 32 MiB.
func TestHostileSegmentsBoundedAcrossConnections(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true})
	var conns []*wsClient
	for c := range 30 {
		w := dial(t, u, nil)
		conns = append(conns, w)
		for g := range 8 {
			w.sendRaw(hostileFirstSegment(fmt.Sprintf("c%dg%d", c, g)))
		}
	}
	// Every group has arrived once every connection answers a ping sent
	// after its segments.
	for _, w := range conns {
		w.call("ping", map[string]any{"channel": "ahp-root://"})
	}
	const bound = 30 * 8 * 1024
	used := h.reasmBud.Used()
	if used == 0 || used > bound {
		t.Fatalf("240 hostile groups hold %d bytes (want 0 < used ≤ %d)", used, bound)
	}
	if peak := h.reasmBud.Peak(); peak > bound {
		t.Fatalf("peak %d > %d", peak, bound)
	}
	for _, w := range conns {
		w.close()
	}
	waitBudget(t, h, func(n int64) bool { return n == 0 }, "0 after every connection closed")
}

// TestReassemblyBudgetClosesOnlyTheGreedyConnection: a connection whose
// segment would exceed the host-wide budget is closed with 4400; another
// connection's group in flight survives and completes.
func TestReassemblyBudgetClosesOnlyTheGreedyConnection(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 64 * kib, MaxMessageBytes: 256 * kib, ReassemblyBudget: 100 * kib})
	good := dial(t, u, nil)
	good.initialize("good", nil, nil)
	greedy := dial(t, u, nil)
	greedy.initialize("greedy", nil, nil)

	// good: the first half of a ping request, 40 KiB of padding.
	msg := []byte(`{"jsonrpc":"2.0","id":99,"method":"ping","params":{"channel":"ahp-root://","pad":"` + strings.Repeat("p", 40*kib) + `"}}`)
	frames, err := segment.NewSplitter(nil).Split(msg, &segment.ChunkingCapability{MaxIncomingFrameBytes: 32 * kib, MaxIncomingMessageBytes: 256 * kib}, 0)
	if err != nil || len(frames) < 2 {
		t.Fatalf("split: %d frames, %v", len(frames), err)
	}
	good.sendRaw(string(frames[0]))
	waitBudget(t, h, func(n int64) bool { return n > 0 }, "> 0 after good's first segment")

	// greedy: three 40 KiB segments of one group; the budget runs out.
	chunk := b64(strings.Repeat("x", 40*kib))
	for i := range 3 {
		_ = greedy.c.Write(greedy.ctx, websocket.MessageText,
			[]byte(segFrame(fmt.Sprintf(`{"groupId":"big","index":%d,"total":4,"data":%q}`, i, chunk))))
	}
	if st := greedy.closed(); st != segment.CloseCode {
		t.Fatalf("greedy connection closed with %d, want 4400", st)
	}
	for _, f := range frames[1:] {
		good.sendRaw(string(f))
	}
	good.waitFor("ping result", func(m wire) bool { return m.ID != nil && *m.ID == 99 && m.Error == nil })
	waitBudget(t, h, func(n int64) bool { return n == 0 }, "0 once both groups ended")
}
