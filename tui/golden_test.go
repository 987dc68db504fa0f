package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

var goldenSizes = []struct{ w, h int }{{80, 24}, {120, 40}}

// checkFrame asserts the frame has exactly h lines none wider than w.
func checkFrame(t *testing.T, m Model, w, h int) string {
	t.Helper()
	v := viewText(m)
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > w {
			t.Errorf("line %d is %d runes wide (> %d): %q", i, n, w, l)
		}
	}
	return v
}

func TestGoldenPicker(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newTestModel(t, sz.w, sz.h)
			m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
			golden(t, "list", checkFrame(t, m, sz.w, sz.h))
			m = typeText(t, m, "readme")
			golden(t, "filtered", checkFrame(t, m, sz.w, sz.h))
		})
	}
}

func TestGoldenStreamingTurn(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newTestModel(t, sz.w, sz.h)
			cs := chatState([]ahpwire.Turn{finishedTurn("t1", "What does the reconnect test check?",
				"It drops the link mid-turn and checks that the transcript **continues** after the replay.\n\n```go\nfunc TestReconnect(t *testing.T) {}\n```\n")},
				activeTurn(ahpwire.ReasoningPart("t2.r1", "The failing test is in ahpclient. Let me look at the backoff first."),
					ahpwire.MarkdownPart("t2.m1", "I found the problem: the backoff timer")))
			// No usage yet: the status line names the model the turn selected.
			cs.ActiveTurn.Message.Model = &ahpwire.ModelSelection{ID: "demo-2"}
			m = openChat(t, m, cs)
			m = send(t, m, envelope(3, &ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: " is never reset after a successful reconnect."}))
			got := checkFrame(t, m, sz.w, sz.h)
			if !strings.Contains(got, "never reset after a successful") {
				t.Fatalf("delta not shown:\n%s", got)
			}
			if last := got[strings.LastIndex(got, "\n")+1:]; !strings.Contains(last, "demo-2") {
				t.Fatalf("status line does not name the turn's model before usage arrives: %q", last)
			}
			golden(t, "chat", got)
		})
	}
}

func TestGoldenApprovalPrompt(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newTestModel(t, sz.w, sz.h)
			m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "Let me run the tests."), pendingTool())))
			if len(m.overlays) != 1 {
				t.Fatalf("approval prompt not opened automatically (%d overlays)", len(m.overlays))
			}
			got := checkFrame(t, m, sz.w, sz.h)
			for _, want := range []string{"Run `go test ./...` in the working directory?", "[1] Run once", "[3] Don't run", "Risk: low", "a/y approve", "1 waiting for you"} {
				if !strings.Contains(got, want) {
					t.Errorf("prompt lacks %q", want)
				}
			}
			golden(t, "prompt", got)
		})
	}
}

func TestGoldenInputForm(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newTestModel(t, sz.w, sz.h)
			m = openChat(t, m, chatState(nil, activeTurn(inputPart())))
			if len(m.overlays) != 1 {
				t.Fatalf("input form not opened automatically")
			}
			m = typeText(t, m, "ahptui")
			golden(t, "form", checkFrame(t, m, sz.w, sz.h))
		})
	}
}

func TestGoldenReconnecting(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newTestModel(t, sz.w, sz.h)
			m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "Hi! How can I help?")}, nil))
			m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{
				Phase: ahpclient.Reconnecting, Attempt: 3, NextRetry: fixedNow.Add(3500 * time.Millisecond),
				Err: errors.New("dial tcp 127.0.0.1:4321: connection refused")}}})
			held := ahpclient.OutboxEntry{ClientSeq: 7, Channel: testChat, Status: ahpclient.OutboxHeld,
				Action: &ahpwire.ChatTurnStarted{TurnID: "t9", Message: ahpwire.UserMessage("are you still there?")}}
			m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: held}})
			got := checkFrame(t, m, sz.w, sz.h)
			for _, want := range []string{"Reconnecting 3 · next try in 4s", "f5 reconnect now", "connection refused", "pending (sent when reconnected): are you still there?", "Hi! How can I help?", "offline — what you send is held"} {
				if !strings.Contains(got, want) {
					t.Errorf("frame lacks %q", want)
				}
			}
			golden(t, "reconnecting", got)
		})
	}
}

func TestGoldenAuthNotice(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newTestModel(t, sz.w, sz.h)
			m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "Let me search GitHub."), runningMCPTool())))
			m = send(t, m, authRequired())
			got := checkFrame(t, m, sz.w, sz.h)
			for _, want := range []string{"Sign-in needed", "s sign in with a token", "f give up", "1 waiting for you"} {
				if !strings.Contains(got, want) {
					t.Errorf("notice lacks %q", want)
				}
			}
			golden(t, "auth", got)
		})
	}
}

// TestFrameFitsTinyTerminals pastes a multi-line text into the composer of
// a chat with a pending tool at every small size: the composer scrolls
// inside the room left to it and the frame never exceeds the terminal.
func TestFrameFitsTinyTerminals(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	for w := 1; w <= 12; w++ {
		for h := 3; h <= 12; h++ {
			m, _ := runningChat(t, pendingTool(), reasoningPart())
			m = send(t, m, teaSize(w, h))
			m = send(t, m, keyPress("esc")) // close the approval prompt
			m = send(t, m, tea.PasteMsg{Content: strings.Repeat("0", 30) + "\n\tx"})
			m = typeText(t, m, "0123456789")
			checkFrame(t, m, w, h)
			if h >= 8 && m.chat.Composer.Height() > h-3 { // status, hint and one transcript row stay
				t.Errorf("%dx%d: composer is %d rows, more than the room left", w, h, m.chat.Composer.Height())
			}
		}
	}
}
