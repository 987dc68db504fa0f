package ahphost

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// An interactive terminal (an agent takes its input) changes size only if
// its agent takes resizes: otherwise clients' emulators would wrap the
// output at another width than the pty behind it. Terminals nobody types
// into keep the protocol's rule (anyone may resize while a session holds
// them).
func TestInteractiveTerminalResizeNeedsItsAgent(t *testing.T) {
	const uri = "ahp-terminal:/x"
	s := &store{}
	s.ext.terminals = map[string]*ahpwire.TerminalState{uri: {Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: "ahp-session:/s"}}}
	resize := &ahpwire.TerminalResized{Cols: 90, Rows: 20}
	if r := s.validateExt(uri, resize, "c1"); r != "" {
		t.Fatalf("plain terminal: %s", r)
	}
	s.ext.inputs = map[string]func(string){uri: func(string) {}}
	if r := s.validateExt(uri, resize, "c1"); !strings.Contains(r, "fixed by its agent") {
		t.Fatalf("interactive terminal without a resize handler: %q", r)
	}
	var got [2]int
	s.ext.resizes = map[string]func(int, int){uri: func(c, r int) { got = [2]int{c, r} }}
	if r := s.validateExt(uri, resize, "c1"); r != "" {
		t.Fatalf("interactive terminal with a resize handler: %s", r)
	}
	s.terminalResize(uri, resize)
	if got != [2]int{90, 20} {
		t.Fatalf("handler got %v", got)
	}
}

// TestDemoReplTakesResizes: the demo shell's claimant sizes its terminal.
func TestDemoReplTakesResizes(t *testing.T) {
	w, _, chat, uri := startRepl(t)
	w.call("subscribe", map[string]any{"channel": uri})
	w.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": 1,
		"action": map[string]any{"type": "terminal/claimed", "claim": map[string]any{"kind": "client", "clientId": "c1"}}})
	w.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": 2,
		"action": map[string]any{"type": "terminal/resized", "cols": 136, "rows": 36}})
	if e := w.actionOfType(uri, ahpwire.ActionTerminalResized); e.RejectionReason != "" {
		t.Fatalf("resize rejected: %s", e.RejectionReason)
	}
	w.notify("dispatchAction", map[string]any{"channel": uri, "clientSeq": 3, "action": map[string]any{"type": "terminal/input", "data": "exit\r"}})
	w.actionOfType(chat, ahpwire.ActionChatTurnComplete)
}
