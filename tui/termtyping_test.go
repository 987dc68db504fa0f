package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
)

// ClientID makes the fake backend name its AHP client, as *ahpclient.Client does.
func (f *fakeBackend) ClientID() string { return "client-test" }

const typedTerm = "ahp-terminal:/typed"

var sessionClaim = ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: testSession, TurnID: "t2", ToolCallID: "tc1"}

// typingChat opens a chat whose running tool call shows typedTerm (claimed
// by the session) with its snapshot delivered.
func typingChat(t *testing.T) (Model, *fakeBackend) {
	t.Helper()
	m, fb := newTestModel(t, 100, 30)
	pty := true
	tool := ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolRunning, ToolCallID: "tc1", ToolName: "bash", DisplayName: "Run in terminal",
		InvocationMessage: ahpwire.PlainPtr("Running `cat`"), ToolInput: ahpwire.InlineInput(`{"command":"cat"}`),
		Confirmed: ahpwire.ConfirmedNotNeeded,
		Content:   []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: typedTerm, Title: "cat", IsPty: &pty}},
	}}
	m = openChat(t, m, chatState(nil, activeTurn(tool)))
	st := ahpwire.TerminalState{Title: "cat", Claim: sessionClaim,
		Content: []ahpwire.TerminalContentPart{{Type: ahpwire.TerminalPartUnclassified, Value: "waiting for input\r\n"}}}
	return send(t, m, snapshotEvent(t, typedTerm, st)), fb
}

func termEnv(seq uint64, a ahpwire.Action, rejected string) connEventMsg {
	return connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{
		Channel: typedTerm, ServerSeq: seq, Action: a, RejectionReason: rejected}}}
}

// dispatchedSince returns the terminal actions dispatched after the n-th.
func dispatchedSince(fb *fakeBackend, n int) []ahpwire.Action {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	var out []ahpwire.Action
	for _, d := range fb.dispatched[n:] {
		if d.channel == typedTerm {
			out = append(out, d.action)
		}
	}
	return out
}

// TestEnterOnTerminalBlockClaimsAndTypes: Enter on the focused terminal
// block opens it and claims it for this client; keys (ctrl+c too) go to
// the terminal as terminal/input; esc gives the claim back to the session.
func TestEnterOnTerminalBlockClaimsAndTypes(t *testing.T) {
	m, fb := typingChat(t)
	m = send(t, m, keyPress("tab"))
	for i := 0; i < 4 && m.chat.FocusedTerminal() == ""; i++ {
		m = send(t, m, tea.KeyPressMsg{Code: '[', Text: "["})
	}
	if m.chat.FocusedTerminal() != typedTerm {
		t.Fatalf("terminal block not focused:\n%s", viewText(m))
	}
	n := len(fb.dispatched)
	m = send(t, m, keyPress("enter"))
	got := dispatchedSince(fb, n)
	if len(got) != 2 {
		t.Fatalf("dispatched %#v", got)
	}
	if c, ok := got[0].(*ahpwire.TerminalClaimed); !ok || c.Claim != (ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "client-test"}) {
		t.Fatalf("claim %#v", got[0])
	}
	if _, ok := got[1].(*ahpwire.TerminalResized); !ok { // termfit_test.go checks the size
		t.Fatalf("no resize after the claim: %#v", got[1])
	}
	if !m.typingTerminal() || !strings.Contains(viewText(m), "claiming…") {
		t.Fatalf("not typing:\n%s", viewText(m))
	}
	m = send(t, m, termEnv(7, &ahpwire.TerminalClaimed{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "client-test"}}, ""))
	if !strings.Contains(viewText(m), "TYPING · esc gives it back · other keys go to the terminal") {
		t.Fatalf("claim not shown:\n%s", viewText(m))
	}
	n = len(fb.dispatched)
	m = typeText(t, m, "hi")
	m = send(t, m, keyPress("enter"))
	m = send(t, m, keyPress("ctrl+c"))
	m = send(t, m, keyPress("up"))
	m = send(t, m, tea.PasteMsg{Content: "pasted"})
	var typed []string
	for _, a := range dispatchedSince(fb, n) {
		in, ok := a.(*ahpwire.TerminalInput)
		if !ok {
			t.Fatalf("not input: %#v", a)
		}
		typed = append(typed, in.Data)
	}
	if strings.Join(typed, "|") != "h|i|\r|\x03|\x1b[A|pasted" {
		t.Fatalf("typed %q", typed)
	}
	if m.quitting || len(m.overlays) != 1 {
		t.Fatalf("ctrl+c left the terminal (quitting %v, overlays %d)", m.quitting, len(m.overlays))
	}
	n = len(fb.dispatched)
	m = send(t, m, keyPress("esc"))
	got = dispatchedSince(fb, n)
	if len(got) != 1 {
		t.Fatalf("release dispatched %#v", got)
	}
	if c, ok := got[0].(*ahpwire.TerminalClaimed); !ok || c.Claim != sessionClaim {
		t.Fatalf("release %#v", got[0])
	}
	if m.typingTerminal() || len(m.overlays) != 1 {
		t.Fatal("esc did not stop typing (or closed the viewer)")
	}
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 {
		t.Fatal("second esc did not close the viewer")
	}
}

// TestTerminalViewerClaimRefused: F7, enter claims the shown root
// terminal; a refusal by the host is shown, and esc still gets out.
func TestTerminalViewerClaimRefused(t *testing.T) {
	m, fb := typingChat(t)
	info, _ := json.Marshal(ahpwire.TerminalInfo{Resource: typedTerm, Title: "cat", Claim: sessionClaim})
	m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{})) // the root's state comes first (initialize)
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: rootChannel, ServerSeq: 5,
		Action: &ahpwire.RootTerminalsChanged{Terminals: []json.RawMessage{info}}}}})
	m = send(t, m, f7())
	if !strings.Contains(viewText(m), "enter type into it") {
		t.Fatalf("viewer hint:\n%s", viewText(m))
	}
	n := len(fb.dispatched)
	m = send(t, m, keyPress("enter"))
	if got := dispatchedSince(fb, n); len(got) != 2 { // the claim and the resize (termfit_test.go)
		t.Fatalf("claim: %#v", got)
	}
	m = send(t, m, termEnv(8, &ahpwire.TerminalClaimed{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "client-test"}}, "the terminal is not claimed by this client"))
	if v := viewText(m); !strings.Contains(v, "the host refused the claim") {
		t.Fatalf("refusal not shown:\n%s", v)
	}
	m = send(t, m, keyPress("esc"))
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 || m.typingTerminal() {
		t.Fatal("could not leave the refused terminal")
	}
}

// TestTerminalExitedIsNotClaimed: an exited terminal stays read-only.
func TestTerminalExitedIsNotClaimed(t *testing.T) {
	m, fb := typingChat(t)
	code := int64(0)
	m = send(t, m, termEnv(9, &ahpwire.TerminalExited{ExitCode: &code}, ""))
	m = send(t, m, app.OpenTerminalMsg{URI: typedTerm})
	if m.typingTerminal() {
		t.Fatal("typing into an exited terminal")
	}
	for _, a := range dispatchedSince(fb, 0) {
		if _, ok := a.(*ahpwire.TerminalClaimed); ok {
			t.Fatalf("claimed an exited terminal")
		}
	}
}

func TestKeyBytes(t *testing.T) {
	cases := map[string]tea.KeyPressMsg{
		"a":       {Code: 'a', Text: "a"},
		"é":       {Code: 'é', Text: "é"},
		"\x01":    {Code: 'a', Mod: tea.ModCtrl},
		"\x1a":    {Code: 'z', Mod: tea.ModCtrl},
		"\x1b":    {Code: tea.KeyEscape},
		"\x1bx":   {Code: 'x', Text: "x", Mod: tea.ModAlt},
		"\r":      {Code: tea.KeyEnter},
		"\x7f":    {Code: tea.KeyBackspace},
		"\x1b[D":  {Code: tea.KeyLeft},
		"\x1b[3~": {Code: tea.KeyDelete},
		"\x1bOP":  {Code: tea.KeyF1},
		" ":       {Code: tea.KeySpace, Text: " "},
		"\x1d":    {Code: ']', Mod: tea.ModCtrl},
	}
	for want, k := range cases {
		if got := dialog.KeyBytes(k); got != want {
			t.Errorf("dialog.KeyBytes(%v) = %q, want %q", k, got, want)
		}
	}
}

// TestTranscriptHintNamesEnterOnATerminal: with a terminal block focused
// in the transcript, the hint line says first that enter types into it
// (and, while the turn runs, not that enter queues a message, which only
// the composer does); on another block enter expands.
func TestTranscriptHintNamesEnterOnATerminal(t *testing.T) {
	m, _ := typingChat(t)
	m = send(t, m, keyPress("tab"))
	for i := 0; i < 4 && m.chat.FocusedTerminal() == ""; i++ {
		m = send(t, m, tea.KeyPressMsg{Code: '[', Text: "["})
	}
	hint := m.chat.HintLine(false)
	if !strings.Contains(hint, "transcript: enter type into the terminal") || strings.Contains(hint, "queues") {
		t.Fatalf("hint on a focused terminal block: %q", hint)
	}
	m = send(t, m, tea.KeyPressMsg{Code: '[', Text: "["}) // the prompt above it
	if m.chat.FocusedTerminal() != "" {
		t.Fatal("[ did not move off the terminal block")
	}
	if hint := m.chat.HintLine(false); !strings.Contains(hint, "transcript: enter expand") {
		t.Fatalf("hint on another block: %q", hint)
	}
}
