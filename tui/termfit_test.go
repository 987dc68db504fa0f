package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// claimTyped focuses typedTerm's block and presses Enter (claim and type).
func claimTyped(t *testing.T, m Model) Model {
	t.Helper()
	m = send(t, m, app.OpenTerminalMsg{URI: typedTerm})
	if !m.typingTerminal() {
		t.Fatalf("not typing:\n%s", viewText(m))
	}
	return m
}

// resizesSince returns the terminal/resized actions dispatched after the n-th.
func resizesSince(fb *fakeBackend, n int) []ahpwire.TerminalResized {
	var out []ahpwire.TerminalResized
	for _, a := range dispatchedSince(fb, n) {
		if r, ok := a.(*ahpwire.TerminalResized); ok {
			out = append(out, *r)
		}
	}
	return out
}

// TestTypingFitsTerminalToViewer: the terminal the user types into gets the
// viewer's text area as its size (as a terminal emulator sizes its pty),
// again when the window is resized; a terminal only looked at keeps its own.
func TestTypingFitsTerminalToViewer(t *testing.T) {
	m, fb := typingChat(t) // 100×30: the box's text area is 96×25
	m = claimTyped(t, m)
	if got := resizesSince(fb, 0); len(got) != 1 || got[0] != (ahpwire.TerminalResized{Cols: 96, Rows: 25}) {
		t.Fatalf("resize on claim: %#v", got)
	}
	n := len(fb.dispatched)
	m = send(t, m, teaSize(140, 41))
	if got := resizesSince(fb, n); len(got) != 1 || got[0] != (ahpwire.TerminalResized{Cols: 136, Rows: 36}) {
		t.Fatalf("resize with the window: %#v", got)
	}
	m = send(t, m, keyPress("esc")) // gives it back: looking only
	n = len(fb.dispatched)
	m = send(t, m, teaSize(120, 30))
	if got := resizesSince(fb, n); len(got) != 0 {
		t.Fatalf("resized a terminal nobody types into: %#v", got)
	}
	_ = m
}

// TestTypingDoesNotResizeAnotherClientsTerminal: a terminal another client
// holds is not resized (the host would refuse), even if Enter is pressed.
func TestTypingDoesNotResizeAnotherClientsTerminal(t *testing.T) {
	m, fb := typingChat(t)
	m = send(t, m, termEnv(7, &ahpwire.TerminalClaimed{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "other"}}, ""))
	m = claimTyped(t, m)
	send(t, m, teaSize(140, 41))
	if got := resizesSince(fb, 0); len(got) != 0 {
		t.Fatalf("resized another client's terminal: %#v", got)
	}
}

// wideChat is typingChat whose terminal is 200 columns wide with one line
// longer than the viewer, listed in the root state (f7 opens it).
func wideChat(t *testing.T, claim ahpwire.TerminalClaim) (Model, *fakeBackend) {
	return termChat(t, claim, strings.Repeat("-", 150)+"END")
}

// termChat is wideChat with line as the terminal's second line.
func termChat(t *testing.T, claim ahpwire.TerminalClaim, line string) (Model, *fakeBackend) {
	t.Helper()
	m, fb := typingChat(t)
	st := ahpwire.TerminalState{Title: "cat", Claim: claim, Cols: ahpwire.Ptr[int64](200), Rows: ahpwire.Ptr[int64](10),
		Content: []ahpwire.TerminalContentPart{{Type: ahpwire.TerminalPartUnclassified, Value: "start\r\n" + line + "\r\n"}}}
	m = send(t, m, snapshotEvent(t, typedTerm, st))
	info, _ := json.Marshal(ahpwire.TerminalInfo{Resource: typedTerm, Title: "cat", Claim: claim})
	m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{}))
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: rootChannel, ServerSeq: 5,
		Action: &ahpwire.RootTerminalsChanged{Terminals: []json.RawMessage{info}}}}})
	return send(t, m, f7()), fb
}

// TestTerminalViewerScrollsSideways: lines wider than the viewer are cut at
// its edge; → and ← scroll them sideways (as `less -S` does), and the hint
// says so.
func TestTerminalViewerScrollsSideways(t *testing.T) {
	m, _ := wideChat(t, sessionClaim)
	v := viewText(m)
	if strings.Contains(v, "END") || !strings.Contains(v, "│ start") || !strings.Contains(v, "←/→ sideways") {
		t.Fatalf("before scrolling:\n%s", v)
	}
	for i := 0; i < 4 && !strings.Contains(viewText(m), "END"); i++ {
		m = send(t, m, keyPress("right"))
	}
	if v := viewText(m); !strings.Contains(v, "END") || strings.Contains(v, "│ start") {
		t.Fatalf("→ did not scroll to the end of the long line:\n%s", v)
	}
	for i := 0; i < 4; i++ {
		m = send(t, m, keyPress("left"))
	}
	if v := viewText(m); !strings.Contains(v, "│ start") {
		t.Fatalf("← did not scroll back:\n%s", v)
	}
	// A terminal wider than the viewer whose lines all fit scrolls nowhere.
	m, _ = termChat(t, sessionClaim, "short")
	m = send(t, m, keyPress("right"))
	if v := viewText(m); strings.Contains(v, "←/→") || !strings.Contains(v, "│ start") {
		t.Fatalf("short lines:\n%s", v)
	}
}

// TestTerminalViewerHintFollowsClaim: the viewer's hint says who holds the
// terminal and what Enter and esc do in that state; while the user types
// it says how to give the terminal back, never how to claim it.
func TestTerminalViewerHintFollowsClaim(t *testing.T) {
	mine := ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "client-test"}
	cases := []struct {
		claim      ahpwire.TerminalClaim
		want, nope string
	}{
		{sessionClaim, "enter type into it", "claimed by you"},
		{mine, "claimed by you: enter types into it", "enter type into it"},
		{ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "other"}, "another client is typing into it", "type into it ·"},
	}
	for _, c := range cases {
		m, _ := wideChat(t, c.claim)
		if v := viewText(m); !strings.Contains(v, c.want) || strings.Contains(v, c.nope) {
			t.Errorf("claim %+v: want %q, not %q:\n%s", c.claim, c.want, c.nope, v)
		}
	}
	m, _ := wideChat(t, mine)
	m = send(t, m, keyPress("enter"))
	v := viewText(m)
	if !strings.Contains(v, "TYPING") || !strings.Contains(v, "esc gives it back") || strings.Contains(v, "type into it") || strings.Contains(v, "←/→") {
		t.Fatalf("typing hint:\n%s", v)
	}
}

// TestTypingHintWhenTheProgramEnds: once the program behind the terminal
// being typed into exits, the hint says nothing reads the keys any more
// (not TYPING) and how to leave.
func TestTypingHintWhenTheProgramEnds(t *testing.T) {
	m, _ := typingChat(t)
	m = claimTyped(t, m)
	m = send(t, m, termEnv(7, &ahpwire.TerminalClaimed{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "client-test"}}, ""))
	if v := viewText(m); !strings.Contains(v, "TYPING") {
		t.Fatalf("claimed:\n%s", v)
	}
	code := int64(0)
	m = send(t, m, termEnv(8, &ahpwire.TerminalExited{ExitCode: &code}, ""))
	if v := viewText(m); strings.Contains(v, "TYPING") || !strings.Contains(v, "exit 0 · the program ended: nothing reads the keys · esc gives it back") {
		t.Fatalf("after the exit:\n%s", v)
	}
}
