package ahphost

import (
	"encoding/json"
	"testing"
	"time"
)

// TestAgentDeltasGathered: the agent's small deltas reach clients as far
// fewer chat/delta actions, and every turn — a long stream, markdown with
// code, tool calls with approvals between text — ends with the same
// response parts as when every delta is its own action.
func TestAgentDeltasGathered(t *testing.T) {
	scripts := []string{"/demo stream 64k", "/demo markdown", "/demo tools"}
	type result struct {
		deltas []int
		parts  []json.RawMessage
	}
	dir := t.TempDir() // (the same paths in both hosts' tool calls)
	run := func(window time.Duration) result {
		_, u := startHost(t, Options{NoToken: true, DeltaWindow: window, Dir: dir})
		w := dial(t, u, nil)
		w.initialize("c1", nil, nil)
		chat := w.createSession("ahp-session:/gather")
		rawChat(t, w, chat)
		var r result
		seq := uint64(0)
		for i, text := range scripts {
			seq++
			id := "t" + string(rune('a'+i))
			w.sendMessage(chat, id, text, seq)
			types, _ := driveTurn(t, w, chat, id, true, &seq)
			n := 0
			for _, typ := range types {
				if typ == "chat/delta" {
					n++
				}
			}
			r.deltas = append(r.deltas, n)
		}
		var st struct {
			Turns []struct {
				ResponseParts json.RawMessage `json:"responseParts"`
			} `json:"turns"`
		}
		must(t, json.Unmarshal(rawChat(t, w, chat), &st))
		for _, turn := range st.Turns {
			r.parts = append(r.parts, turn.ResponseParts)
		}
		return r
	}
	each, gathered := run(-1), run(0)
	if len(each.parts) != len(scripts) || len(gathered.parts) != len(scripts) {
		t.Fatalf("turns: %d each, %d gathered, want %d", len(each.parts), len(gathered.parts), len(scripts))
	}
	for i := range scripts {
		if a, b := string(each.parts[i]), string(gathered.parts[i]); a != b {
			k := 0
			for k < len(a) && k < len(b) && a[k] == b[k] {
				k++
			}
			t.Logf("first difference at %d: ...%s\n vs ...%s", k, a[max(0, k-200):min(len(a), k+200)], b[max(0, k-200):min(len(b), k+200)])
			t.Fatalf("%s: the gathered turn's parts differ:\n%.400s\nwant\n%.400s", scripts[i], gathered.parts[i], each.parts[i])
		}
	}
	if each.deltas[0] < 1000 || gathered.deltas[0]*10 > each.deltas[0] {
		t.Fatalf("a 64 KB stream: %d deltas gathered, %d each; want a tenth or fewer", gathered.deltas[0], each.deltas[0])
	}
	t.Logf("deltas per turn, each vs gathered: %v vs %v", each.deltas, gathered.deltas)
}

// TestGatheredDeltaSentByItsWindow: text an agent streams and then stops
// streaming (a slow agent, the turn still running) reaches clients within
// the window of when it would have without gathering, without waiting for
// anything else to happen in the chat.
func TestGatheredDeltaSentByItsWindow(t *testing.T) {
	const window, pace = 50 * time.Millisecond, 300 * time.Millisecond
	firstLine := func(win time.Duration) time.Duration {
		_, u := startHost(t, Options{NoToken: true, DeltaWindow: win, Pace: pace})
		w := dial(t, u, nil)
		w.initialize("c1", nil, nil)
		chat := w.createSession("ahp-session:/window")
		rawChat(t, w, chat)
		w.sendMessage(chat, "t1", "/demo slow 2", 1)
		w.actionOfType(chat, "chat/turnStarted")
		start := time.Now()
		w.actionOfType(chat, "chat/delta")
		return time.Since(start)
	}
	each, gathered := firstLine(-1), firstLine(window)
	if gathered > each+window+pace/2 {
		t.Fatalf("the first line took %v gathered, %v not (window %v, pace %v)", gathered, each, window, pace)
	}
}
