package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestHelpOverlayNarrowHasNoCutMarks(t *testing.T) {
	m, _ := newTestModel(t, 50, 16)
	m = send(t, m, keyPress("f1"))
	v := checkFrame(t, m, 50, 16)
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "… │") {
			t.Fatalf("help rows are cut although they fit:\n%s", v)
		}
	}
	if !strings.Contains(v, "of ") {
		t.Fatalf("help does not say it scrolls:\n%s", v)
	}
	before := v
	m = send(t, m, keyPress("pgdown"))
	if viewText(m) == before {
		t.Fatal("pgdown does not scroll the help")
	}
}

func TestOverlayRowsHaveNoCutWords(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", strings.Repeat("wordy text ", 40), strings.Repeat("answer words ", 200))},
		activeTurn(pendingTool())))
	v := checkFrame(t, m, 120, 40)
	in := false
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "╭") {
			in = true
		}
		if in {
			i := strings.IndexAny(l, "│╭╰")
			if i < 0 || strings.TrimSpace(l[:i]) != "" {
				t.Fatalf("text beside the dialog box: %q", l)
			}
		}
		if strings.Contains(l, "╰") {
			in = false
		}
	}
}

func TestHelpStartsWithTheCurrentScreen(t *testing.T) {
	m, _ := newTestModel(t, 80, 30)
	m = send(t, m, keyPress("f1"))
	v := viewText(m)
	if i, j := strings.Index(v, "Session picker"), strings.Index(v, "Global"); i < 0 || j < 0 || i > j {
		t.Fatalf("picker help does not start with the picker's keys:\n%s", v)
	}
}

func TestMouseWheelScrollsHelpNotTheTranscript(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, keyPress("f1"))
	before := viewText(m)
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if viewText(m) == before {
		t.Fatal("wheel does not scroll the help")
	}
	if !m.chat.Transcript.Following() {
		t.Fatal("wheel over the help scrolled the transcript behind it")
	}
}
