package ahphost

import (
	"strings"
	"testing"
)

// queuedBytes is the bytes queued for every connection together.
func queuedBytes(h *Host) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var n int64
	for c := range h.conns {
		c.q.mu.Lock()
		n += c.q.bytes
		c.q.mu.Unlock()
	}
	return n
}

// TestResourceReadFloodIsNotAmplified: peers that send many resourceReads
// of a large resource and never read the answers hold a small entry per
// read in their queues, not a copy of the content each (issue 24 item 2:
// 120 such peers took the host to 1.4 GiB); an honest client's requests
// are still answered.
func TestResourceReadFloodIsNotAmplified(t *testing.T) {
	const peers, reads, size = 8, 100, 900 << 10
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	const uri = "ahp-resource:/big"
	h.mu.Lock()
	h.st.putResource(uri, "text/plain", []byte(strings.Repeat("r", size)))
	h.mu.Unlock()
	var flood []*wsClient
	for i := range peers {
		w := dial(t, u, nil)
		w.initialize("flood"+itoa(i), nil, nil)
		for range reads {
			w.request("resourceRead", map[string]any{"channel": "ahp-root://", "uri": uri})
		}
		flood = append(flood, w)
	}
	honest := dial(t, u, nil)
	honest.initialize("honest", []string{"ahp-root://"}, nil)
	honest.call("ping", map[string]any{"channel": "ahp-root://"})
	if got := honest.call("resourceRead", map[string]any{"channel": "ahp-root://", "uri": uri}); len(got) < size {
		t.Fatalf("honest read: %d bytes", len(got))
	}
	// Every read was received (the answers are queued or in flight).
	waitUntil(t, "reads queued", func() bool { return queuedBytes(h) >= int64(peers)*(reads-5)*deferredCost })
	if got, bound := queuedBytes(h), int64(peers)*(reads*deferredCost+4*size); got > bound {
		t.Fatalf("%d bytes queued for %d peers (bound %d)", got, peers, bound)
	}
	for _, w := range flood {
		w.close()
	}
}
