package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
)

func TestHistoryFetchedWhenScrolledToTop(t *testing.T) {
	m, fb := newTestModel(t, 100, 20)
	var turns []ahpwire.Turn
	for i := range 20 {
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "question", "answer"))
	}
	cs := chatState(turns, nil)
	cs.TurnsNextCursor = "cursor-1"
	m = openChat(t, m, cs)
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("g"))
	if !slices.Equal(fb.fetched, []string{"cursor-1"}) {
		t.Fatalf("fetchTurns calls %v, want [cursor-1]", fb.fetched)
	}
	// The top says older turns are on their way.
	lines := strings.Split(viewText(m), "\n")
	if !strings.Contains(lines[0], "loading earlier turns") {
		t.Fatalf("top line while fetching: %q", lines[0])
	}
	// Older turns arrive (the last page); the window stays on what the user
	// was reading and the "earlier turns" line is gone.
	top := lines[1]
	older := []ahpwire.Turn{finishedTurn("old1", "older question", "older answer")}
	m = send(t, m, envelope(9, &ahpwire.ChatTurnsLoaded{Turns: older}))
	if got := strings.Split(viewText(m), "\n")[0]; got != top {
		t.Fatalf("window jumped after history loaded: %q -> %q", top, got)
	}
	if strings.Contains(viewText(m), "earlier turns") {
		t.Fatal("\"earlier turns\" shown after the last page")
	}
	m = send(t, m, keyPress("g"))
	if !strings.Contains(viewText(m), "older question") {
		t.Fatal("loaded history not reachable")
	}
}

func TestHelpOverlayListsBindings(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, keyPress("f1"))
	v := viewText(m)
	m = send(t, m, keyPress("pgdown")) // the composer's keys follow the chat's
	v += viewText(m)
	for _, want := range []string{"Key bindings", "Composer", "ctrl+j", "send", "cancel turn", "ctrl+g/ctrl+o", "shift+tab"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 {
		t.Fatal("esc did not close help")
	}
}

func TestThinkingCycleAndBlockToggle(t *testing.T) {
	m, _ := runningChat(t, ahpwire.ReasoningPart("t2.r1", "first thought\nsecond thought\nthird thought"))
	if strings.Contains(viewText(m), "second thought") {
		t.Fatal("thinking shown in full while collapsed")
	}
	m = send(t, m, keyPress("ctrl+t"))
	m = send(t, m, keyPress("ctrl+t"))
	if m.chat.Thinking != chat.ThinkingFull || !strings.Contains(viewText(m), "second thought") {
		t.Fatalf("full thinking view not shown (mode %v)", m.chat.Thinking)
	}
	m = send(t, m, keyPress("ctrl+t")) // back to collapsed
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("]")) // user text
	m = send(t, m, keyPress("]")) // thinking
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "second thought") {
		t.Fatalf("expanding the focused thinking block failed:\n%s", viewText(m))
	}
}

func TestCopyFocusedBlockUsesOSC52(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("["))
	_, cmd := m.Update(keyPress("y"))
	if cmd == nil {
		t.Fatal("y returned no command")
	}
	found := false
	for _, msg := range flatten(cmd) {
		if strings.Contains(strings.ToLower(fmtType(msg)), "clipboard") {
			found = true
		}
	}
	if !found {
		t.Fatal("copy did not issue a clipboard (OSC 52) command")
	}
}

func TestDemoFaultKey(t *testing.T) {
	called := 0
	fb := &fakeBackend{}
	m := newModel(Options{Backend: fb, DemoFault: func() { called++ }, NoticeTTL: 1})
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	_ = send(t, m, keyPress("f12"))
	if called != 1 {
		t.Fatalf("demo fault called %d times", called)
	}
	m2, _ := newTestModel(t, 80, 24) // no DemoFault: the key is inert
	send(t, m2, keyPress("f12"))
}

func TestMouseWheelScrollsTranscript(t *testing.T) {
	m, _ := newTestModel(t, 80, 12)
	var turns []ahpwire.Turn
	for i := range 10 {
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "q", "answer"))
	}
	m = openChat(t, m, chatState(turns, nil))
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.chat.Transcript.Following() {
		t.Fatal("wheel up did not scroll away from the bottom")
	}
	for range 20 {
		m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	if !m.chat.Transcript.Following() {
		t.Fatal("wheel down to the end did not follow again")
	}
}
