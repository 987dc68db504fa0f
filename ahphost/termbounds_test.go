package ahphost

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestTerminalActionsBounded: a client that does not hold a terminal's
// claim cannot retitle, resize or clear it; the holder's titles are bound
// to 4 KiB and its sizes to the allowed range (issue 24 item 3).
func TestTerminalActionsBounded(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	const uri = "ahp-terminal:/owned"
	h.mu.Lock()
	h.st.openTerminal(uri, ahpwire.TerminalState{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "owner"}})
	h.mu.Unlock()
	owner, stranger := dial(t, u, nil), dial(t, u, nil)
	owner.initialize("owner", []string{uri}, nil)
	stranger.initialize("stranger", []string{uri}, nil)
	seq := map[*wsClient]int{}
	ids := map[*wsClient]string{owner: "owner", stranger: "stranger"}
	try := func(w *wsClient, action map[string]any) string {
		t.Helper()
		seq[w]++
		w.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": seq[w], "action": action})
		e := w.action(action["type"].(string), func(e envelope) bool {
			return e.Channel == uri && e.Origin != nil && e.Origin.ClientID == ids[w] && e.Origin.ClientSeq == uint64(seq[w])
		})
		return e.RejectionReason
	}
	big := strings.Repeat("T", 64<<10)
	for name, c := range map[string]struct {
		w      *wsClient
		action map[string]any
	}{
		"stranger's title":  {stranger, map[string]any{"type": "terminal/titleChanged", "title": "pwned"}},
		"stranger's resize": {stranger, map[string]any{"type": "terminal/resized", "cols": 100, "rows": 30}},
		"stranger's clear":  {stranger, map[string]any{"type": "terminal/cleared"}},
		"huge title":        {owner, map[string]any{"type": "terminal/titleChanged", "title": big}},
		"huge size":         {owner, map[string]any{"type": "terminal/resized", "cols": 1000000000, "rows": 1000000000}},
		"negative size":     {owner, map[string]any{"type": "terminal/resized", "cols": -5, "rows": 0}},
		"stranger's input":  {stranger, map[string]any{"type": "terminal/input", "data": "x"}},
	} {
		if try(c.w, c.action) == "" {
			t.Errorf("%s: accepted", name)
		}
	}
	if r := try(owner, map[string]any{"type": "terminal/resized", "cols": 120, "rows": 40}); r != "" {
		t.Fatalf("owner's resize refused: %s", r)
	}
	if r := try(owner, map[string]any{"type": "terminal/titleChanged", "title": "build"}); r != "" {
		t.Fatalf("owner's title refused: %s", r)
	}
	h.mu.Lock()
	st := *h.st.ext.terminals[uri]
	h.mu.Unlock()
	if st.Title != "build" || *st.Cols != 120 || *st.Rows != 40 {
		t.Fatalf("state %q %d×%d", st.Title, *st.Cols, *st.Rows)
	}
}

// TestHostTerminalOutputIsCapped: the host keeps at most
// ahpstate.MaxTerminalOutputBytes of a terminal's output, however much a
// command prints (issue 24 item 6, host side).
func TestHostTerminalOutputIsCapped(t *testing.T) {
	h, _ := startHost(t, Options{NoToken: true, Agent: idleAgent{}, ReplayLogBytes: 1 << 20})
	const uri = "ahp-terminal:/chatty"
	chunk := strings.Repeat("y\n", 32<<10)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.st.openTerminal(uri, ahpwire.TerminalState{})
	for range 3 * ahpstate.MaxTerminalOutputBytes / len(chunk) {
		h.st.applyTerminal(uri, &ahpwire.TerminalData{Data: chunk}, nil)
	}
	st := h.st.ext.terminals[uri]
	if n := len(st.Output()); n > ahpstate.MaxTerminalOutputBytes+len(ahpwire.TerminalDroppedMarker) || !st.OutputDropped() {
		t.Fatalf("host holds %d bytes of output (dropped=%v)", n, st.OutputDropped())
	}
}
