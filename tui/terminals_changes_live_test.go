package tui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
)

func f6() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyF6} }

func f7() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyF7} }

// openLiveChat starts a live rig on a new session's chat.
func openLiveChat(t testing.TB) *liveRig {
	return openChatOn(t, newLiveRig(t, 0))
}

// openInlineLiveChat is openLiveChat on a host that streams a big reply
// inline (ahphost.Options.InlineStreams), as hosts other than ahptui's do:
// the client then re-reads the finished turn by reference itself.
func openInlineLiveChat(t testing.TB) *liveRig {
	return openChatOn(t, startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, Pace: time.Millisecond, InlineStreams: true}))
}

// openChatOn opens a new chat on r's host once its agents are listed.
func openChatOn(t testing.TB, r *liveRig) *liveRig {
	t.Helper()
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })
	return r
}

// terminalOnScreen returns the terminal channel the chat follows, if any.
func terminalOnScreen(m Model) string {
	for uri, t := range m.c.Channels.Terms {
		if t.Ready {
			return uri
		}
	}
	return ""
}

// /demo shell against the real host: the tool call's terminal channel is
// subscribed while it is on screen, its output streams into the transcript
// through the emulator, and it ends with the exit code and each detected
// command's status; leaving the chat unsubscribes it.
func TestLiveTerminalStreamsIntoTranscript(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo shell")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("terminal subscribed", func(m Model) bool { return terminalOnScreen(m) != "" })
	uri := terminalOnScreen(r.m)
	if !slices.Contains(r.client.Subscriptions(), uri) {
		t.Fatalf("%s not subscribed on the client: %v", uri, r.client.Subscriptions())
	}
	r.pump("terminal output", func(m Model) bool { return strings.Contains(viewText(m), "$ bash") })
	r.pump("terminal finished", func(m Model) bool {
		v := viewText(m)
		return strings.Contains(v, "exit 1") && strings.Contains(v, "✗ go test ./...")
	})
	view := viewText(r.m)
	for _, want := range []string{"✓ ./build.sh", "✓ seq 3000", "exit 1", "--- FAIL"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not on screen:\n%s", want, view)
		}
	}
	if strings.Contains(r.m.View().Content, "\x1b]") || strings.Contains(r.m.View().Content, "\x1b[?") {
		t.Fatalf("raw host sequences in the view")
	}
	r.pump("turn done", func(m Model) bool { return m.chat.State.Current == nil })
	// Focus the tool block: { expands it and scrolls its terminal back, }
	// scrolls forward again, y copies the terminal's text.
	r.m = send(t, r.m, keyPress("tab"))
	for i := 0; i < 4 && r.m.chat.FocusedTerminal() == ""; i++ {
		r.m = send(t, r.m, tea.KeyPressMsg{Code: '[', Text: "["})
	}
	if r.m.chat.FocusedTerminal() != uri {
		t.Fatalf("could not focus the terminal's tool block:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: '{', Text: "{"})
	if v := viewText(r.m); !strings.Contains(v, "later lines") || r.m.c.Channels.Scroll[uri] != chat.TermStep {
		t.Fatalf("terminal not scrolled (scroll %d, notice %q, lines %d, focus %v):\n%s", r.m.c.Channels.Scroll[uri], r.m.notice, r.m.c.Channels.Terms[uri].Live.LineCount(), r.m.chat.Focus, v)
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: '}', Text: "}"})
	if r.m.c.Channels.Scroll[uri] != 0 {
		t.Fatalf("scroll %d after }", r.m.c.Channels.Scroll[uri])
	}
	if text := r.m.chat.TerminalCopy(); !strings.Contains(text, "--- FAIL: TestDiff") || strings.ContainsAny(text, "\x1b\r") {
		t.Fatalf("copied text %q", text[max(0, len(text)-200):])
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: 'y', Text: "y"})
	r.m = send(t, r.m, keyPress("tab"))

	// The root lists the terminal; the read-only viewer opens it.
	r.m = send(t, r.m, f7())
	if _, ok := r.m.overlays[len(r.m.overlays)-1].(*dialog.TermViewer); !ok || !strings.Contains(viewText(r.m), "--- FAIL") {
		t.Fatalf("terminal viewer:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, keyPress("esc"))
	// Back to the picker: nothing is on screen any more.
	r.m = send(t, r.m, keyPress("ctrl+s"))
	if len(r.m.c.Channels.Terms) != 0 {
		t.Fatalf("terminals still followed after leaving the chat: %d", len(r.m.c.Channels.Terms))
	}
}

// /demo edit against the real host: the changes view lists the changeset's
// files with status and counts, Enter shows a file's diff (contents read
// with resourceRead), and the review key marks it reviewed on the host.
func TestLiveChangesViewDiffAndReview(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo edit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("edit turn done", func(m Model) bool {
		return m.chat.State.Current == nil && len(m.chat.State.Messages) >= 2 && len(m.chat.AHP().Changesets) == 1
	})
	r.m = send(t, r.m, f6())
	r.pump("changes listed", func(m Model) bool { return strings.Contains(viewText(m), "Changes  5 files") })
	view := viewText(r.m)
	for _, want := range []string{"M cmd/app/main.go", "A docs/CHANGES.md", "D internal/legacy/old.go", "testdata/large.tsv  +20 −20", "[ ]"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not in the changes view:\n%s", want, view)
		}
	}
	r.m = send(t, r.m, keyPress("enter"))
	if !strings.Contains(viewText(r.m), "@@") {
		t.Fatalf("no diff after enter:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: ' ', Text: " "})
	r.pump("reviewed", func(m Model) bool {
		return strings.Contains(viewText(m), "reviewed ·") && !strings.Contains(viewText(m), "not reviewed")
	})
	r.m = send(t, r.m, keyPress("esc"))
	if !strings.Contains(viewText(r.m), "[✓] M cmd/app/main.go") {
		t.Fatalf("review not shown in the list:\n%s", viewText(r.m))
	}
	cs := r.m.chat.AHP().Changesets[0].URITemplate
	if st, _ := r.m.c.Mirror.Changeset(cs); !st.Files[0].IsReviewed() {
		t.Fatalf("state not reviewed: %+v", st.Files[0])
	}
	r.m = send(t, r.m, keyPress("esc"))
	if len(r.m.overlays) != 0 || r.m.c.Channels.Changesets[cs] != nil || slices.Contains(r.client.Subscriptions(), cs) {
		t.Fatal("closing the changes view did not release the changeset")
	}
	_ = ahpwire.ChangesetScheme
}

// A terminal channel the host could not resume is subscribed again while it
// is on screen; its fresh snapshot replaces the old state.
func TestExtChannelLostResubscribes(t *testing.T) {
	m := terminalChat(t, 100, 30)
	fb := m.c.Backend.(*fakeBackend)
	before := len(fb.subscribed)
	m = send(t, m, connEventMsg{ev: ahpclient.ChannelLostEvent{Channel: hostileTerm}})
	if len(fb.subscribed) != before+1 || fb.subscribed[len(fb.subscribed)-1] != hostileTerm {
		t.Fatalf("not resubscribed: %v", fb.subscribed[before:])
	}
	if m.c.Channels.Terms[hostileTerm].Ready {
		t.Fatal("a lost terminal still counts as ready")
	}
	st := ahpwire.TerminalState{Title: "bash", Content: []ahpwire.TerminalContentPart{{Type: ahpwire.TerminalPartUnclassified, Value: "fresh\r\n"}}}
	m = send(t, m, snapshotEvent(t, hostileTerm, st))
	if !strings.Contains(viewText(m), "fresh") {
		t.Fatalf("fresh snapshot not shown:\n%s", viewText(m))
	}
}

// /demo shell plain (isPty false) is shown as plain text: every progress
// line stays (no `\r` redraw), nothing is emulated.
func TestLiveTerminalPlainText(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo shell plain")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("terminal finished", func(m Model) bool { return strings.Contains(viewText(m), "$ sh (no pty)  exit 1") })
	uri := terminalOnScreen(r.m)
	lt := r.m.c.Channels.Terms[uri].Live
	if lt.Pty() {
		t.Fatal("an isPty:false terminal is emulated")
	}
	text := lt.Text()
	if strings.Count(text, "building [") != 5 || strings.Contains(text, "\x1b") {
		t.Fatalf("plain output:\n%s", text[:min(len(text), 400)])
	}
}

// A terminal the host no longer has (subscribe fails) keeps the tool's own
// preview, raises no notice and is not retried on every frame.
func TestExtTerminalGoneKeepsPreview(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	fb.subErr = map[string]error{hostileTerm: app.ErrString("channel not found")}
	exit := 2
	tool := ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolCompleted, ToolCallID: "tc1", ToolName: "bash", DisplayName: "Run", Success: ahpwire.Ptr(false),
		PastTenseMessage: ahpwire.PlainPtr("Ran make"), ToolInput: ahpwire.InlineInput(`{}`), Confirmed: ahpwire.ConfirmedNotNeeded,
		Content: []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: hostileTerm, Title: "make",
			Result: &ahpwire.TerminalCommandResult{ExitCode: &exit, Preview: "make: *** [all] Error 2"}}},
	}}
	turn := finishedTurn("t1", "build it", "")
	turn.ResponseParts = []ahpwire.ResponsePart{tool}
	m = openChat(t, m, chatState([]ahpwire.Turn{turn}, nil))
	n := 0
	for _, s := range fb.subscribed {
		if s == hostileTerm {
			n++
		}
	}
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("tab"))
	for _, s := range fb.subscribed {
		if s == hostileTerm {
			n--
		}
	}
	if n != 0 || m.notice != "" {
		t.Fatalf("resubscribed %d times, notice %q", -n, m.notice)
	}
}

// F7 opens the root's terminals one at a time, the newest running first
// (tab cycles), keeping only the shown one subscribed; esc releases it.
func TestTermViewerCyclesRootTerminals(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, nil))
	info := func(uri, title string) json.RawMessage {
		b, _ := json.Marshal(ahpwire.TerminalInfo{Resource: uri, Title: title, Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "x"}})
		return b
	}
	m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{})) // the root's state comes first (initialize)
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: rootChannel, ServerSeq: 5,
		Action: &ahpwire.RootTerminalsChanged{Terminals: []json.RawMessage{info("ahp-terminal:/a", "first"), info("ahp-terminal:/b", "second")}}}}})
	m = send(t, m, f7())
	if !slices.Contains(fb.subscribed, "ahp-terminal:/b") || !strings.Contains(viewText(m), "second") {
		t.Fatalf("viewer: %v\n%s", fb.subscribed, viewText(m))
	}
	m = send(t, m, snapshotEvent(t, "ahp-terminal:/b", ahpwire.TerminalState{Title: "second", Content: []ahpwire.TerminalContentPart{{Type: ahpwire.TerminalPartUnclassified, Value: "output of b\r\n"}}}))
	if !strings.Contains(viewText(m), "output of b") {
		t.Fatalf("terminal b not shown:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("tab"))
	if !slices.Contains(fb.subscribed, "ahp-terminal:/a") || m.c.Channels.Terms["ahp-terminal:/b"] != nil {
		t.Fatalf("tab: subscribed %v, b still followed: %v", fb.subscribed, m.c.Channels.Terms["ahp-terminal:/b"] != nil)
	}
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 || len(m.c.Channels.Terms) != 0 {
		t.Fatalf("esc: %d overlays, %d terminals followed", len(m.overlays), len(m.c.Channels.Terms))
	}
}
