package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

func TestStatusKeepsPendingVisibleWithLongError(t *testing.T) {
	m, _ := runningChat(t, pendingTool())
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{
		Phase: ahpclient.Reconnecting, Attempt: 2,
		Err: &ahpclient.DialError{URL: "ws://127.0.0.1:36451", StatusCode: 503,
			Err: errors.New("failed to WebSocket dial: expected handshake response status code 101 but got 503")}}}})
	lines := strings.Split(viewText(m), "\n")
	status := lines[len(lines)-1]
	if !strings.Contains(status, "Reconnecting 2") || !strings.Contains(status, "⚠ 1") {
		t.Fatalf("status lost the state or the pending count: %q", status)
	}
	if !strings.Contains(status, "Reconnecting 2: the host is unavailable (HTTP 503)") {
		t.Fatalf("the reason is not written for people: %q", status)
	}
	for _, raw := range []string{"ahpclient", "WebSocket", "handshake", "ws://"} {
		if strings.Contains(status, raw) {
			t.Fatalf("status line shows %q from the raw error: %q", raw, status)
		}
	}
	if w := ansi.StringWidth(status); w > 100 {
		t.Fatalf("status is %d wide", w)
	}
}

func TestUsageIsTheCurrentTurns(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hi", "hello")}, nil))
	if !strings.Contains(viewText(m), "1.2k in · 340 out") {
		t.Fatal("idle chat must show the last turn's usage")
	}
	m = send(t, m, envelope(3, &ahpwire.ChatTurnStarted{TurnID: "t2", Message: ahpwire.UserMessage("again")}))
	if strings.Contains(viewText(m), "1.2k in") {
		t.Fatalf("a running turn shows the previous turn's usage:\n%s", viewText(m))
	}
}

func TestStatusBarBackgroundHasNoHoles(t *testing.T) {
	m, _ := runningChat(t, pendingTool())
	lines := strings.Split(m.View().Content, "\n")
	bar := lines[len(lines)-1]
	// Every run of text on the bar is drawn with the bar's background: each
	// SGR sequence that precedes text sets it (lipgloss resets after every
	// styled segment, so a segment without it shows the default background).
	segs := strings.Split(bar, "\x1b[")
	if segs[0] != "" {
		t.Fatalf("text before any style: %q", segs[0])
	}
	for i, seg := range segs[1:] {
		end := strings.IndexByte(seg, 'm')
		if end < 0 {
			t.Fatalf("odd escape in %q", bar)
		}
		params, text := seg[:end], seg[end+1:]
		if text != "" && !strings.Contains(params, "48;") {
			t.Fatalf("segment %d %q of the status bar has no background: %q", i, text, bar)
		}
	}
}

// A mode whose name already says "mode" (Claude Code's "Plan Mode") is not
// shown as "Plan Mode mode"; others get the word.
func TestStatusModeLabel(t *testing.T) {
	for mode, want := range map[string]string{"Plan Mode": "Plan Mode", "Manual": "Manual mode", "auto mode": "auto mode"} {
		if got := modeLabel(mode); got != want {
			t.Errorf("modeLabel(%q) = %q, want %q", mode, got, want)
		}
	}
	st := uikit.NewStyles(render.StylesFor(true))
	line := ansi.Strip(renderStatus(&st, app.StatusInfo{Mode: "Plan Mode"}, 120))
	if !strings.Contains(line, "Plan Mode") || strings.Contains(line, "Mode mode") {
		t.Fatalf("status %q", line)
	}
}
