package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// streamTurn streams one turn whose reply is text in n deltas, running the
// frame tick after each; between, if given, runs after the first delta.
func streamTurn(t *testing.T, m Model, seq *uint64, id, text string, n int, between func(Model) Model) Model {
	t.Helper()
	next := func() uint64 { *seq++; return *seq }
	m = send(t, m, envelope(next(), &ahpwire.ChatTurnStarted{TurnID: id, Message: ahpwire.UserMessage("/demo big")}))
	m = send(t, m, envelope(next(), &ahpwire.ChatResponsePart{TurnID: id, Part: ahpwire.MarkdownPart(id+".m1", "")}))
	step := (len(text) + n - 1) / n
	for off := 0; off < len(text); off += step {
		m = send(t, m, envelope(next(), &ahpwire.ChatDelta{TurnID: id, PartID: id + ".m1", Content: text[off:min(off+step, len(text))]}))
		m = send(t, m, app.FrameMsg{})
		if off == 0 && between != nil {
			m = between(m)
		}
	}
	m = send(t, m, envelope(next(), &ahpwire.ChatTurnComplete{TurnID: id}))
	return send(t, m, app.FrameMsg{})
}

// TestFollowTailOfLargeReplies streams several replies larger than
// render.PlainAfter (many screens each): the end of every reply is on
// screen when it finishes, unless the user scrolled up during it; then the
// marker shows and End follows again.
func TestFollowTailOfLargeReplies(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	m = openChat(t, m, chatState(nil, nil))
	seq := uint64(1)
	reply := func(i int) string { return burstText(600_000) + fmt.Sprintf("\n\n-- end of reply %d --", i) }
	for i := 1; i <= 3; i++ {
		m = streamTurn(t, m, &seq, fmt.Sprintf("t%d", i), reply(i), 4, nil)
		if v := viewText(m); !strings.Contains(v, fmt.Sprintf("-- end of reply %d --", i)) {
			t.Fatalf("reply %d: the end is not on screen:\n%s", i, v)
		}
	}
	// Scrolled up during the fourth: the window stays put.
	m = streamTurn(t, m, &seq, "t4", reply(4), 4, func(m Model) Model { return send(t, m, keyPress("pgup")) })
	v := viewText(m)
	if strings.Contains(v, "-- end of reply 4 --") || !strings.Contains(v, "new output below") {
		t.Fatalf("scrolled up: the view followed the tail or has no marker:\n%s", v)
	}
	m = send(t, m, keyPress("tab")) // transcript focus: End follows
	m = send(t, m, keyPress("end"))
	if v := viewText(m); !strings.Contains(v, "-- end of reply 4 --") {
		t.Fatalf("after End the tail is not on screen:\n%s", v)
	}
}
