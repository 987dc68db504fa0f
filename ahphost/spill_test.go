package ahphost

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestEvictedResourcesAreServedFromDisk: resources pushed out of the
// store's memory budget (the pages of an old large reply) are evicted to
// files under StateDir and still served; memory stays within the budget;
// the files go when the host closes (issue 24 item 5: all 500 pages of a
// first reply answered "not found").
func TestEvictedResourcesAreServedFromDisk(t *testing.T) {
	state := t.TempDir()
	const budget, page = 1 << 20, 64 << 10
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, ResourceBudget: budget, StateDir: state})
	body := func(i int) string { return strings.Repeat(string(rune('a'+i%26)), page) }
	h.mu.Lock()
	for i := range 100 {
		h.st.putResource("ahptui-part:/c/t/0/"+itoa(i), "text/markdown", []byte(body(i)))
	}
	mem := h.st.ext.resources.bytes
	h.mu.Unlock()
	if mem > budget {
		t.Fatalf("%d bytes in memory, budget %d", mem, budget)
	}
	w := dial(t, u, nil)
	w.initialize("reader", nil, nil)
	for _, i := range []int{0, 50, 99} {
		var res struct{ Data string }
		must(t, json.Unmarshal(w.call("resourceRead", map[string]any{"channel": "ahp-root://", "uri": "ahptui-part:/c/t/0/" + itoa(i)}), &res))
		if res.Data != body(i) {
			t.Fatalf("page %d: %d bytes back", i, len(res.Data))
		}
	}
	w.close()
	must(t, h.Close())
	if left, _ := os.ReadDir(state); len(left) != 0 {
		t.Fatalf("spill files left after Close: %v", left)
	}
}
